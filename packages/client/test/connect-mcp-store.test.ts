import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createToolRegistry, type Logger, type RegisteredTool } from '@switchboard/core';
import { createEventLog, createTemporaryDirectories, everythingStdio } from '@switchboard/test-helpers';
import { afterEach, describe, expect, it } from 'vitest';
import { connectMcp, type McpConnection, type ToolCallEvent } from '../src/index.js';
import { createSqliteStore, openSqliteStore } from '../src/sqlite-store/index.js';
import { hashServerEntry } from '../src/tool-call-hooks.js';

function capturingLogger() {
  const warned = createEventLog<string>('warnings');
  const logger: Logger = {
    debug: () => {},
    info: () => {},
    error: () => {},
    warn: (context: unknown, message?: string) => {
      warned.push(typeof context === 'string' ? context : (message ?? ''));
    },
  };
  return { logger, warnings: warned.entries, warned };
}

describe('connectMcp with a registry store and afterToolCall', () => {
  const open: McpConnection[] = [];
  const temporary = createTemporaryDirectories();
  const tempDir = (): string => {
    const dir = temporary.make('sb-client-store-');
    return dir;
  };
  afterEach(async () => {
    await Promise.all(open.splice(0).map((connection) => connection.close()));
    temporary.removeAll();
  });

  it('records calls, server and tools; a restart keeps usage and restores the tools before connecting', async () => {
    const path = join(tempDir(), 'registry.db');
    const events: ToolCallEvent[] = [];
    const store = createSqliteStore({ path });
    const first = await connectMcp(
      { everything: everythingStdio({ env: { SECRET_TOKEN: 'do-not-store-me' } }) },
      { store, afterToolCall: (event) => void events.push(event) },
    );
    for (const message of ['a', 'b', 'c']) {
      await first.callTool('mcp__everything__echo', { message });
    }
    await first.close();
    await store.close();
    expect(events).toHaveLength(3);
    expect(events[0]).toMatchObject({
      server: 'everything',
      tool: 'echo',
      publicName: 'mcp__everything__echo',
      ok: true,
    });
    expect(events[0]?.durationMs).toBeGreaterThan(0);

    const check = await openSqliteStore({ path });
    const [server] = await check.listServers();
    expect(server).toMatchObject({ name: 'everything', transport: 'stdio', lastConnect: { ok: true } });
    expect(server?.serverInfo?.name).toBeTruthy();
    const storedTools = await check.listTools({ server: 'everything' });
    expect(storedTools.map((tool) => tool.publicName)).toContain('mcp__everything__echo');
    expect((await check.listUsage())[0]).toMatchObject({ tool: 'echo', calls: 3, errors: 0 });
    await check.close();
    // The secret value never reaches the file, not even inside the config.
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(path).includes('do-not-store-me')).toBe(false);

    // Second session: the registry hears of the stored tools before the server is up.
    const registry = createToolRegistry();
    const seen: RegisteredTool[] = [];
    registry.subscribe((event) => {
      if (event.type === 'added') seen.push(event.tool);
    });
    const secondStore = createSqliteStore({ path });
    const second = await connectMcp(
      { everything: everythingStdio({ env: { SECRET_TOKEN: 'do-not-store-me' } }) },
      { store: secondStore, registry },
    );
    open.push(second);
    const restoredEcho = seen.find((tool) => tool.name === 'mcp__everything__echo');
    expect(restoredEcho?.meta?.restored).toBe(true);
    expect(seen.filter((tool) => tool.meta?.restored === true)).toHaveLength(storedTools.length);
    // Once connected, the server's own list replaced them.
    expect(second.tools.mcp__everything__echo?.meta?.restored).toBeUndefined();
    await second.callTool('mcp__everything__echo', { message: 'again' });
    await second.close();
    await secondStore.close();
    const after = await openSqliteStore({ path });
    expect((await after.listUsage({ server: 'everything' }))[0]).toMatchObject({ tool: 'echo', calls: 4 });
    await after.close();
  });

  it('the config hash ignores `enabled` and key order, and changes with what the server is', () => {
    const entry = { command: 'node', args: ['server.js'], env: { TOKEN: 'secret-value' } };
    expect(hashServerEntry({ ...entry, enabled: true })).toBe(hashServerEntry(entry));
    expect(hashServerEntry({ env: { TOKEN: 'secret-value' }, args: ['server.js'], command: 'node' })).toBe(
      hashServerEntry(entry),
    );
    expect(hashServerEntry({ ...entry, args: ['other.js'] })).not.toBe(hashServerEntry(entry));
    expect(hashServerEntry({ ...entry, env: { TOKEN: 'rotated' } })).not.toBe(hashServerEntry(entry));
    expect(hashServerEntry(entry)).not.toContain('secret');
  });

  it('a restored tool whose server cannot start fails clearly when called', async () => {
    const path = join(tempDir(), 'registry.db');
    const broken = { command: join(tempDir(), 'no-such-server') };
    const seed = await openSqliteStore({ path });
    await seed.recordServer({ name: 'gone', configHash: hashServerEntry(broken), transport: 'stdio' });
    await seed.recordTools('gone', [
      {
        originalName: 'lookup',
        publicName: 'mcp__gone__lookup',
        description: 'Looks something up',
        inputSchema: { type: 'object', properties: { query: { type: 'string' } } },
        kind: 'read',
        annotations: { readOnlyHint: true },
      },
    ]);
    await seed.close();
    const store = createSqliteStore({ path });
    const connection = await connectMcp({ gone: broken }, { store, onError: 'skip' });
    open.push(connection);
    expect(connection.tools.mcp__gone__lookup?.meta?.restored).toBe(true);
    const error = await connection
      .callTool('mcp__gone__lookup', { query: 'x' })
      .catch((caught: unknown) => caught as Error);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain('gone');
    await connection.close();
    await store.close();
    const check = await openSqliteStore({ path });
    const [server] = await check.listServers();
    expect(server?.lastConnect?.ok).toBe(false);
    expect(server?.lastConnect?.errorCode).toBeTruthy();
    await check.close();
  });

  it('a corrupt store file is logged once and the client keeps working without persistence', async () => {
    const path = join(tempDir(), 'registry.db');
    writeFileSync(path, 'not a database at all; '.repeat(100));
    const { logger, warnings } = capturingLogger();
    const store = createSqliteStore({ path });
    const connection = await connectMcp({ everything: everythingStdio() }, { store, logger });
    open.push(connection);
    for (const message of ['one', 'two', 'three']) {
      const result = await connection.callTool('mcp__everything__echo', { message });
      expect(JSON.stringify(result)).toContain(message);
    }
    await connection.close();
    const storeWarnings = warnings.filter((warning) => warning.includes('registry store'));
    expect(storeWarnings).toHaveLength(1);
    expect(storeWarnings[0]).toContain(path);
    expect(storeWarnings[0]).toMatch(/continuing without persistence/);
    await store.close();
  });

  it('an unwritable store location is logged once and calls still work', async () => {
    const blocker = join(tempDir(), 'blocker');
    writeFileSync(blocker, 'a file where a folder should be');
    const { logger, warnings } = capturingLogger();
    const store = createSqliteStore({ path: join(blocker, 'registry.db') });
    const connection = await connectMcp({ everything: everythingStdio() }, { store, logger });
    open.push(connection);
    await connection.callTool('mcp__everything__echo', { message: 'one' });
    await connection.callTool('mcp__everything__echo', { message: 'two' });
    await connection.close();
    const storeWarnings = warnings.filter((warning) => warning.includes('registry store'));
    expect(storeWarnings).toHaveLength(1);
    expect(storeWarnings[0]).toMatch(/cannot be opened for writing/);
    expect(connection.metrics().tools.everything?.echo?.calls).toBe(2);
    await store.close();
  });

  it('a hook that throws or rejects is logged and never breaks the call', async () => {
    const { logger, warnings, warned } = capturingLogger();
    let calls = 0;
    const connection = await connectMcp(
      { everything: everythingStdio() },
      {
        logger,
        afterToolCall: (event) => {
          calls++;
          if (event.publicName.endsWith('echo')) throw new Error('hook exploded');
        },
      },
    );
    open.push(connection);
    const result = await connection.callTool('mcp__everything__echo', { message: 'still fine' });
    expect(JSON.stringify(result)).toContain('still fine');
    const asyncHook = await connectMcp(
      { other: everythingStdio() },
      { logger, afterToolCall: async () => Promise.reject(new Error('async hook exploded')) },
    );
    open.push(asyncHook);
    await asyncHook.callTool('mcp__other__echo', { message: 'also fine' });
    // The rejected promise of the async hook is logged after the call has answered.
    await warned.until(
      (lines) => lines.filter((line) => /afterToolCall hook failed/.test(line)).length >= 2,
      {
        what: "the async hook's failure to be logged",
      },
    );
    expect(calls).toBe(1);
    expect(warnings.filter((warning) => /afterToolCall hook failed/.test(warning))).toHaveLength(2);
    expect(warnings.join('\n')).toMatch(/hook exploded[\s\S]*async hook exploded/);
  });
});
