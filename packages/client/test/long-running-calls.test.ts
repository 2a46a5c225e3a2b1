/**
 * Long-running tools: a connection-wide onProgress makes every call send a progress token; progress
 * restarts the call's deadline by default; a hard `maxTotalMs` ends it however much it reports.
 * server-everything's `trigger-long-running-operation` reports a step every duration/steps seconds.
 */
import { SwitchboardError } from '@switchboard/core';
import { everythingStdio } from '@switchboard/test-helpers';
import { afterEach, describe, expect, it } from 'vitest';
import { ClientErrorCode, connectMcp, type McpConnection } from '../src/index.js';

describe('long-running tool calls', () => {
  const open: McpConnection[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((connection) => connection.close()));
  });

  it('sends a progress token when the connection wants progress, and progress keeps the deadline alive', async () => {
    const progress: Array<{ server: string; tool: string; progress: number; total?: number }> = [];
    const connection = await connectMcp(
      // 3 s of work in 6 steps against a 1.5 s deadline: only restarts on progress let it finish.
      { everything: everythingStdio({ timeouts: { callMs: 1500 } }) },
      {
        requestTimeoutMs: 60_000,
        onProgress: (server, tool, update) =>
          progress.push({
            server,
            tool,
            progress: update.progress,
            ...(update.total === undefined ? {} : { total: update.total }),
          }),
      },
    );
    open.push(connection);
    const result = await connection.callTool('mcp__everything__trigger-long-running-operation', {
      duration: 3,
      steps: 6,
    });
    expect(JSON.stringify(result)).toMatch(/completed/i);
    expect(progress.length).toBeGreaterThanOrEqual(5);
    expect(progress[0]).toMatchObject({
      server: 'everything',
      tool: 'trigger-long-running-operation',
      total: 6,
    });
    expect(progress.map((update) => update.progress)).toEqual(
      [...progress.map((update) => update.progress)].sort((a, b) => a - b),
    );
  });

  it('times out without progress restarts when the caller turns them off', async () => {
    const connection = await connectMcp({ everything: everythingStdio({ timeouts: { callMs: 1500 } }) });
    open.push(connection);
    const failure = await connection
      .callTool(
        'mcp__everything__trigger-long-running-operation',
        { duration: 3, steps: 6 },
        { onProgress: () => {}, resetTimeoutOnProgress: false },
      )
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(SwitchboardError.isInstance(failure) && failure.code).toBe(ClientErrorCode.Timeout);
  });

  it('a server’s own timeouts win over the connection’s defaults', async () => {
    const connection = await connectMcp(
      { everything: everythingStdio({ timeouts: { callMs: 1000 } }) },
      { requestTimeoutMs: 60_000 },
    );
    open.push(connection);
    // No progress callback, so nothing restarts the deadline: the server's 1 s applies, not 60 s.
    const failure = await connection
      .callTool('mcp__everything__trigger-long-running-operation', { duration: 3, steps: 3 })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(SwitchboardError.isInstance(failure) && failure.code).toBe(ClientErrorCode.Timeout);
  });

  it('ends a call at the server’s maxTotalMs however much progress it reports', async () => {
    const connection = await connectMcp(
      { everything: everythingStdio({ timeouts: { callMs: 5000, maxTotalMs: 1200 } }) },
      { onProgress: () => {} },
    );
    open.push(connection);
    const failure = await connection
      .callTool('mcp__everything__trigger-long-running-operation', { duration: 4, steps: 8 })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(SwitchboardError.isInstance(failure) && failure.code).toBe(ClientErrorCode.Timeout);
    expect(String((failure as Error).message)).toMatch(/trigger-long-running-operation/);
    // The connection still serves other calls.
    expect(
      JSON.stringify(await connection.callTool('mcp__everything__echo', { message: 'still here' })),
    ).toContain('still here');
  });
});
