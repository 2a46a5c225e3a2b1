/**
 * The behaviour every `RegistryStore` v1 shares, as one list of cases run against each store
 * (SQLite and PostgreSQL), so the two stay twins.
 */
import {
  createToolTrust,
  type RegistryStore,
  type ToolTrustRecord,
  type ToolTrustStore,
} from '@switchboard/core';
import { waitForClockPast } from '@switchboard/test-helpers';
import { afterEach, describe, expect, it } from 'vitest';

/** Makes store instances on one backing database per case (`fresh()`), more on the same one (`another()`). */
export interface StoreHarness {
  /** A new backing database (a file, a schema) and a store on it. */
  fresh(options?: { latencyWindow?: number }): Promise<RegistryStore>;
  /** Another store instance on the backing database of the last `fresh()` (a restart, a second replica). */
  another(options?: { latencyWindow?: number }): Promise<RegistryStore>;
  /** Removes what the case made. */
  cleanup(): Promise<void>;
}

const tool = (name: string, extra: Record<string, unknown> = {}) => ({
  originalName: name,
  publicName: `files__${name}`,
  description: `does ${name}`,
  inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
  kind: 'read' as const,
  ...extra,
});

/** Declares the contract cases of `name`'s store. */
export function describeRegistryStoreContract(name: string, harness: StoreHarness): void {
  describe(`RegistryStore v1 contract: ${name}`, () => {
    const open: RegistryStore[] = [];
    const track = (store: RegistryStore) => {
      open.push(store);
      return store;
    };
    afterEach(async () => {
      for (const store of open.splice(0)) await store.close();
      await harness.cleanup();
    });

    it('keeps servers, tools and usage for the next instance', async () => {
      const first = track(await harness.fresh());
      expect(first.specificationVersion).toBe('v1');
      await first.recordServer({
        name: 'files',
        configHash: 'abc',
        transport: 'stdio',
        lastConnect: { ok: true, at: '2026-01-01T00:00:00.000Z' },
        serverInfo: { name: 'fs', version: '1.0.0' },
      });
      await first.recordTools('files', [
        tool('read_file', { annotations: { readOnlyHint: true } }),
        tool('stat'),
      ]);
      for (const durationMs of [10, 20, 30, 40]) {
        await first.recordCall({
          server: 'files',
          tool: 'read_file',
          publicName: 'files__read_file',
          ok: durationMs !== 40,
          durationMs,
        });
      }
      await first.close();

      const second = track(await harness.another());
      expect(await second.listServers()).toEqual([
        {
          name: 'files',
          configHash: 'abc',
          transport: 'stdio',
          lastConnect: { ok: true, at: '2026-01-01T00:00:00.000Z' },
          serverInfo: { name: 'fs', version: '1.0.0' },
        },
      ]);
      const tools = await second.listTools({ server: 'files' });
      expect(tools.map((stored) => stored.originalName)).toEqual(['read_file', 'stat']);
      expect(tools[0]).toMatchObject({
        server: 'files',
        publicName: 'files__read_file',
        description: 'does read_file',
        annotations: { readOnlyHint: true },
        inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
        kind: 'read',
      });
      expect(tools[1]).not.toHaveProperty('annotations');
      expect(tools[1]).not.toHaveProperty('title');
      expect(tools[0]?.schemaHash).toMatch(/^[0-9a-f]{16}$/);
      expect(Date.parse(tools[0]?.firstSeenAt ?? '')).not.toBeNaN();
      const [usage] = await second.listUsage();
      expect(usage).toMatchObject({
        server: 'files',
        tool: 'read_file',
        publicName: 'files__read_file',
        calls: 4,
        errors: 1,
        latencyP50Ms: 20,
        latencyP95Ms: 40,
        latencySamples: 4,
      });
      expect(Date.parse(usage?.lastUsedAt ?? '')).not.toBeNaN();
    });

    it('keeps first-seen, updates last-seen and drops tools a server no longer lists', async () => {
      const store = track(await harness.fresh());
      await store.recordTools('files', [tool('a'), tool('b')]);
      await store.recordTools('other', [tool('z')]);
      const [before] = await store.listTools({ server: 'files' });
      // "Last seen" must be later: let the clock pass the first stamp (the store's clock is this machine's).
      await waitForClockPast(before?.lastSeenAt ?? Date.now());
      await store.recordTools('files', [
        tool('a', { description: 'changed', inputSchema: { type: 'object' } }),
      ]);
      const after = await store.listTools({ server: 'files' });
      expect(after).toHaveLength(1);
      expect(after[0]?.firstSeenAt).toBe(before?.firstSeenAt);
      expect(Date.parse(after[0]?.lastSeenAt ?? '')).toBeGreaterThan(Date.parse(before?.lastSeenAt ?? ''));
      expect(after[0]?.description).toBe('changed');
      expect(after[0]?.schemaHash).not.toBe(before?.schemaHash);
      // Other servers' tools are untouched; an empty list drops a server's tools.
      expect((await store.listTools()).map((stored) => `${stored.server}/${stored.originalName}`)).toEqual([
        'files/a',
        'other/z',
      ]);
      await store.recordTools('files', []);
      expect(await store.listTools({ server: 'files' })).toEqual([]);
    });

    it('keeps a schema as it was given, key order included', async () => {
      const store = track(await harness.fresh());
      const inputSchema = {
        type: 'object',
        properties: { zeta: { type: 'string' }, alpha: { type: 'number' }, mid: { type: 'boolean' } },
        required: ['zeta'],
      };
      await store.recordTools('s', [tool('t', { inputSchema, title: 'The T' })]);
      const [stored] = await store.listTools();
      expect(
        Object.keys((stored?.inputSchema as { properties?: object } | undefined)?.properties ?? {}),
      ).toEqual(['zeta', 'alpha', 'mid']);
      expect(stored?.title).toBe('The T');
    });

    it('a connect failure replaces the last result; recording without one keeps it', async () => {
      const store = track(await harness.fresh());
      await store.recordServer({
        name: 's',
        configHash: 'h',
        transport: 'http',
        lastConnect: {
          ok: false,
          errorCode: 'TIMEOUT',
          errorMessage: 'slow',
          at: '2026-01-01T00:00:00.000Z',
        },
      });
      await store.recordServer({ name: 's', configHash: 'h2', transport: 'http' });
      expect((await store.listServers())[0]).toMatchObject({
        configHash: 'h2',
        lastConnect: { ok: false, errorCode: 'TIMEOUT', errorMessage: 'slow' },
      });
      await store.recordServer({
        name: 's',
        configHash: 'h2',
        transport: 'http',
        lastConnect: { ok: true, at: '2026-01-02T00:00:00.000Z' },
      });
      expect((await store.listServers())[0]?.lastConnect).toEqual({
        ok: true,
        at: '2026-01-02T00:00:00.000Z',
      });
    });

    it('latency percentiles cover only the most recent window of calls', async () => {
      const store = track(await harness.fresh({ latencyWindow: 10 }));
      for (let index = 1; index <= 30; index++) {
        await store.recordCall({ server: 's', tool: 't', publicName: 's__t', ok: true, durationMs: index });
      }
      const [usage] = await store.listUsage({ server: 's' });
      expect(usage).toMatchObject({ calls: 30, latencySamples: 10, latencyP50Ms: 25, latencyP95Ms: 30 });
    });

    it('lists usage most called first, of one server or all', async () => {
      const store = track(await harness.fresh());
      const call = (server: string, name: string) =>
        store.recordCall({ server, tool: name, publicName: `${server}__${name}`, ok: true, durationMs: 1 });
      await call('a', 'once');
      for (let index = 0; index < 3; index++) await call('b', 'thrice');
      await call('b', 'twice');
      await call('b', 'twice');
      expect(
        (await store.listUsage()).map((usage) => `${usage.server}/${usage.tool}:${usage.calls}`),
      ).toEqual(['b/thrice:3', 'b/twice:2', 'a/once:1']);
      expect((await store.listUsage({ server: 'a' })).map((usage) => usage.tool)).toEqual(['once']);
      expect(await store.listUsage({ server: 'nobody' })).toEqual([]);
    });

    it('two instances recording at once lose no call', async () => {
      const first = track(await harness.fresh());
      const second = track(await harness.another());
      const record = (store: RegistryStore, count: number) =>
        Promise.all(
          Array.from({ length: count }, (_, index) =>
            store.recordCall({
              server: 's',
              tool: 't',
              publicName: 's__t',
              ok: index % 5 !== 0,
              durationMs: index,
            }),
          ),
        );
      await Promise.all([record(first, 150), record(second, 150)]);
      const [usage] = await first.listUsage();
      expect(usage).toMatchObject({ calls: 300, errors: 60 });
    });

    it('keeps trust records for the next instance: written, replaced by key, removed', async () => {
      const store = track(await harness.fresh());
      const trust = store.trustStore as ToolTrustStore;
      const record = (
        tool: string,
        digest: string,
        extra: Partial<ToolTrustRecord> = {},
      ): ToolTrustRecord => ({
        server: 'files',
        tool,
        digest,
        definition: `{"name":"${tool}"}`,
        status: 'approved',
        decidedAt: '2026-01-02T03:04:05.000Z',
        ...extra,
      });
      await trust.putTrust([
        record('read', 'sha256:1', {
          findings: [
            {
              rule: 'r',
              code: 'C',
              severity: 'low',
              server: 'files',
              tool: 'read',
              field: 'description',
              start: 0,
              end: 1,
              excerpt: 'x',
              message: 'm',
            },
          ],
          decidedBy: 'first-use',
        }),
        record('read', 'sha256:2', {
          status: 'pending',
          change: 'changed',
          previousDigest: 'sha256:1',
          parts: ['description'],
        }),
        record('write', 'sha256:3', { status: 'pending', change: 'renamed', previousName: 'put' }),
        { ...record('other', 'sha256:4'), server: 'web' },
      ]);
      await trust.putTrust([
        record('write', 'sha256:3', { status: 'rejected', change: 'renamed', previousName: 'put' }),
      ]);
      const next = track(await harness.another()).trustStore as ToolTrustStore;
      const files = await next.listTrust({ server: 'files' });
      expect(files.map((entry) => [entry.tool, entry.digest, entry.status])).toEqual([
        ['read', 'sha256:1', 'approved'],
        ['read', 'sha256:2', 'pending'],
        ['write', 'sha256:3', 'rejected'],
      ]);
      expect(files[0]).toMatchObject({ decidedBy: 'first-use', decidedAt: '2026-01-02T03:04:05.000Z' });
      expect(files[0]?.findings?.[0]).toMatchObject({ code: 'C', severity: 'low' });
      expect(files[1]).toMatchObject({
        change: 'changed',
        previousDigest: 'sha256:1',
        parts: ['description'],
      });
      expect(files[2]).toMatchObject({ previousName: 'put' });
      expect((await next.listTrust()).length).toBe(4);
      await next.removeTrust([
        { server: 'files', tool: 'read', digest: 'sha256:2' },
        { server: 'web', tool: 'other' },
      ]);
      expect((await trust.listTrust()).map((entry) => entry.digest)).toEqual(['sha256:1', 'sha256:3']);
    });

    it("tells a connection of another instance's trust decision: an approval there releases the tool here", async () => {
      const first = track(await harness.fresh());
      const second = track(await harness.another());
      const here = createToolTrust({ store: first.trustStore as ToolTrustStore });
      const there = createToolTrust({ store: second.trustStore as ToolTrustStore });
      const tool = { name: 'read', description: 'Reads.', inputSchema: { type: 'object' } };
      const changed = { ...tool, description: 'Reads, and more.' };
      try {
        await here.review('files', [tool]);
        await here.review('files', [changed]);
        await there.review('files', [changed]);
        expect(here.verdict('files', 'read')?.usable).toBe(false);
        await there.approve({ server: 'files', tool: 'read' }, { by: 'test' });
        await expect.poll(() => here.verdict('files', 'read')?.state, { timeout: 10_000 }).toBe('trusted');
      } finally {
        here.close();
        there.close();
      }
    });
  });
}
