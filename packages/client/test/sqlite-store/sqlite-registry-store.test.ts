import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SwitchboardError } from '@switchboard/core';
import { readLines, waitForClockPast } from '@switchboard/test-helpers';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createSqliteStore,
  defaultStorePath,
  openSqliteStore,
  storeSchemaVersion,
} from '../../src/sqlite-store/index.js';
import { fixture } from '../helpers/servers.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sb-store-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const tool = (name: string, extra: Record<string, unknown> = {}) => ({
  originalName: name,
  publicName: `files__${name}`,
  description: `does ${name}`,
  inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
  kind: 'read' as const,
  ...extra,
});

describe('SQLite registry store', () => {
  it('keeps servers, tools and usage across a restart', async () => {
    const path = join(dir, 'nested', 'registry.db');
    const first = await openSqliteStore({ path });
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

    const second = await openSqliteStore({ path });
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
      publicName: 'files__read_file',
      annotations: { readOnlyHint: true },
      inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
      kind: 'read',
    });
    expect(tools[0]?.schemaHash).toMatch(/^[0-9a-f]{16}$/);
    const [usage] = await second.listUsage();
    expect(usage).toMatchObject({
      server: 'files',
      tool: 'read_file',
      calls: 4,
      errors: 1,
      latencyP50Ms: 20,
      latencyP95Ms: 40,
      latencySamples: 4,
    });
    expect(Date.parse(usage?.lastUsedAt ?? '')).not.toBeNaN();
    await second.close();
  });

  it('keeps first-seen, updates last-seen and drops tools a server no longer lists', async () => {
    const store = await openSqliteStore({ path: ':memory:' });
    await store.recordTools('files', [tool('a'), tool('b')]);
    const [before] = await store.listTools();
    // "Last seen" must be later: let the clock pass the first stamp.
    await waitForClockPast(before?.lastSeenAt ?? Date.now());
    await store.recordTools('files', [
      tool('a', { description: 'changed', inputSchema: { type: 'object' } }),
    ]);
    const after = await store.listTools();
    expect(after).toHaveLength(1);
    expect(after[0]?.firstSeenAt).toBe(before?.firstSeenAt);
    expect((after[0]?.lastSeenAt ?? '') > (before?.lastSeenAt ?? '')).toBe(true);
    expect(after[0]?.description).toBe('changed');
    expect(after[0]?.schemaHash).not.toBe(before?.schemaHash);
    await store.close();
  });

  it('a connect failure replaces the last result; recording without one keeps it', async () => {
    const store = createSqliteStore({ path: ':memory:' });
    await store.recordServer({
      name: 's',
      configHash: 'h',
      transport: 'http',
      lastConnect: { ok: false, errorCode: 'TIMEOUT', errorMessage: 'slow', at: '2026-01-01T00:00:00.000Z' },
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
    expect((await store.listServers())[0]?.lastConnect).toEqual({ ok: true, at: '2026-01-02T00:00:00.000Z' });
    await store.close();
  });

  it('latency percentiles cover only the most recent window of calls', async () => {
    const store = await openSqliteStore({ path: ':memory:', latencyWindow: 10 });
    for (let index = 1; index <= 30; index++) {
      await store.recordCall({ server: 's', tool: 't', publicName: 's__t', ok: true, durationMs: index });
    }
    const [usage] = await store.listUsage({ server: 's' });
    expect(usage).toMatchObject({ calls: 30, latencySamples: 10, latencyP50Ms: 25, latencyP95Ms: 30 });
    await store.close();
  });

  it('two processes writing the same file at once lose no count', async () => {
    const path = join(dir, 'shared.db');
    const perWriter = 300;
    const writers = ['one', 'two'].map((label) =>
      spawn(process.execPath, [fixture('store-writer.mjs'), path, String(perWriter), label], {
        stdio: ['pipe', 'pipe', 'pipe'],
      }),
    );
    const outputs = writers.map((child) => {
      const stdout = readLines(child.stdout, `the stdout of writer ${child.pid}`);
      let err = '';
      child.stderr.on('data', (chunk: Buffer) => {
        err += chunk.toString();
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      return { stdout, error: () => err, exited };
    });
    try {
      for (const output of outputs) {
        // A writer that fails exits: its stdout closes and the wait fails at once.
        await output.stdout.find((line) => line.includes('ready'), { timeoutMs: 30_000 });
        expect(output.error()).toBe('');
      }
      for (const child of writers) child.stdin.end('go\n');
      const codes = await Promise.all(outputs.map((output) => output.exited));
      expect(outputs.map((output) => output.error())).toEqual(['', '']);
      expect(codes).toEqual([0, 0]);
    } finally {
      for (const child of writers) if (child.exitCode === null) child.kill('SIGKILL');
    }
    const store = await openSqliteStore({ path });
    const usage = await store.listUsage();
    const byTool = Object.fromEntries(usage.map((entry) => [`${entry.server}/${entry.tool}`, entry]));
    expect(byTool['shared/echo']).toMatchObject({ calls: 2 * perWriter, errors: 2 * (perWriter / 10) });
    expect(byTool['shared/echo']?.latencySamples).toBe(50);
    expect(byTool['one/own']?.calls).toBe(perWriter);
    expect(byTool['two/own']?.calls).toBe(perWriter);
    await store.close();
    // The file really is in WAL mode, which is what lets the two proceed together.
    const raw = new Database(path, { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(raw.pragma('user_version', { simple: true })).toBe(storeSchemaVersion);
    raw.close();
  });

  it('a corrupt file fails with STORE_CORRUPT naming the file and what to do', async () => {
    const path = join(dir, 'registry.db');
    writeFileSync(
      path,
      'this is not a database, it is a text file that happens to be long enough. '.repeat(20),
    );
    const error = await openSqliteStore({ path }).catch((caught: unknown) => caught);
    expect(SwitchboardError.isInstance(error)).toBe(true);
    expect((error as SwitchboardError).code).toBe('STORE_CORRUPT');
    expect((error as SwitchboardError).message).toContain(path);
    expect((error as SwitchboardError).message).toMatch(/Move the file aside or delete it/);
  });

  it('an unwritable location fails with STORE_UNAVAILABLE, from every method of a lazy store', async () => {
    // A regular file where a folder should be: not writable even for root.
    const blocker = join(dir, 'blocker');
    writeFileSync(blocker, 'x');
    const store = createSqliteStore({ path: join(blocker, 'registry.db') });
    const error = await store.ready().catch((caught: unknown) => caught);
    expect((error as SwitchboardError).code).toBe('STORE_UNAVAILABLE');
    expect((error as SwitchboardError).message).toContain(join(blocker, 'registry.db'));
    await expect(
      store.recordCall({ server: 's', tool: 't', publicName: 's__t', ok: true, durationMs: 1 }),
    ).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
    await store.close();
  });

  it('refuses a file written by a newer schema version', async () => {
    const path = join(dir, 'future.db');
    const raw = new Database(path);
    raw.pragma(`user_version = ${storeSchemaVersion + 1}`);
    raw.close();
    await expect(openSqliteStore({ path })).rejects.toMatchObject({
      code: 'STORE_UNAVAILABLE',
      message: expect.stringMatching(/newer than this Switchboard knows/),
    });
  });

  it('defaults to ~/.switchboard/registry.db', () => {
    expect(defaultStorePath()).toMatch(/[/\\]\.switchboard[/\\]registry\.db$/);
    expect(createSqliteStore().location).toBe(defaultStorePath());
  });
});

describe('without better-sqlite3', () => {
  it('the root entry loads, and the store says to install better-sqlite3@12', () => {
    const run = spawnSync(process.execPath, [fixture('without-better-sqlite3.mjs')], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    const result = JSON.parse(run.stdout) as { rootLoaded: boolean; code: string; message: string };
    expect(result.rootLoaded).toBe(true);
    expect(result.code).toBe('STORE_DEPENDENCY_MISSING');
    expect(result.message).toContain('install better-sqlite3@12 to use the SQLite store');
  });
});
