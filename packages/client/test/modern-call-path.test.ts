// The call path around a modern (2026-07-28) server is the one of the 2025 era: supervision
// (respawn, retry of a read-only call), approvals, output checks, metrics, the store and hooks.
import { join } from 'node:path';
import { createTemporaryDirectories } from '@switchboard/test-helpers';
import { afterEach, describe, expect, it } from 'vitest';
import { connectMcp, type McpConnection, type ToolCallEvent } from '../src/index.js';
import { createSqliteStore } from '../src/sqlite-store/index.js';
import { fixture, waitFor } from './helpers/servers.js';

const modernStdio = () => ({ command: process.execPath, args: [fixture('sdk-v2-server.mjs')] });

describe('the call path in the modern era', () => {
  const open: McpConnection[] = [];
  const temporary = createTemporaryDirectories();
  afterEach(async () => {
    await Promise.all(open.splice(0).map((connection) => connection.close()));
    temporary.removeAll();
  });

  it('respawns a killed modern stdio server, negotiates again, and serves the next call', async () => {
    const connection = await connectMcp({ v2: modernStdio() }, { supervision: { baseDelayMs: 50 } });
    open.push(connection);
    const firstPid = connection.client('v2')?.pid;
    expect(connection.status().v2?.era).toBe('modern');
    process.kill(firstPid!, 'SIGKILL');
    await waitFor(
      () => connection.client('v2')?.pid !== undefined && connection.client('v2')?.pid !== firstPid,
      20_000,
      'the respawn',
    );
    const result = await connection.callTool('mcp__v2__echo', { message: 'back' });
    expect(result).toMatchObject({ status: 'success' });
    expect(connection.status().v2).toMatchObject({ state: 'connected', era: 'modern', respawns: 1 });
  });

  it('checks arguments and structured output, asks for approval, counts metrics, records into the store', async () => {
    const dir = temporary.make('sb-client-modern-');
    const store = createSqliteStore({ path: join(dir, 'registry.db') });
    const events: ToolCallEvent[] = [];
    const asked: string[] = [];
    const connection = await connectMcp(
      { v2: modernStdio() },
      {
        store,
        afterToolCall: (event) => void events.push(event),
        approve: (prompt) => {
          asked.push(prompt.originalName);
          return false;
        },
      },
    );
    open.push(connection);
    expect(await connection.callTool('mcp__v2__add', { a: 2, b: 40 })).toMatchObject({ status: 'success' });
    await expect(connection.callTool('mcp__v2__add', { a: 'two' })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    await expect(connection.callTool('mcp__v2__confirm', { action: 'x' })).rejects.toMatchObject({
      code: 'APPROVAL_DENIED',
    });
    expect(asked).toEqual(['confirm']);
    expect(connection.metrics().servers.v2?.calls).toBe(1);
    await connection.close();
    open.splice(0);
    await store.close();
    const reopened = createSqliteStore({ path: join(dir, 'registry.db') });
    const tools = await reopened.listTools({ server: 'v2' });
    await reopened.close();
    expect(tools.map((tool) => tool.originalName)).toContain('regional');
    expect(events.map((event) => [event.tool, event.ok])).toEqual([['add', true]]);
  });
});
