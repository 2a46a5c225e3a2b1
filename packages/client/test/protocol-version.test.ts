import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { SwitchboardError } from '@switchboard/core';
import { type EverythingHttpServer, everythingStdio, startEverythingHttp } from '@switchboard/test-helpers';
import { afterEach, describe, expect, it } from 'vitest';
import { connectMcp, createMcpClient, type McpClient } from '../src/index.js';

describe('what a session negotiated: protocol version and transport', () => {
  const open: McpClient[] = [];
  const servers: EverythingHttpServer[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((client) => client.close()));
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  it('reports the version the server negotiated (the latest by default)', async () => {
    const client = await createMcpClient('everything', everythingStdio());
    open.push(client);
    expect(client.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
  });

  it('offers a pinned version over Streamable HTTP, and calls keep working', async () => {
    const server = await startEverythingHttp('streamableHttp');
    servers.push(server);
    const client = await createMcpClient('everything-http', {
      url: server.url,
      protocolVersion: '2025-06-18',
    });
    open.push(client);
    expect(client.protocolVersion).toBe('2025-06-18');
    const result = await client.callTool('echo', { message: 'pinned' });
    expect(JSON.stringify(result.content)).toContain('pinned');
  });

  it('takes the pin from a connectMcp entry', async () => {
    const connection = await connectMcp({
      everything: { ...everythingStdio(), protocolVersion: '2025-03-26' },
    });
    try {
      const result = await connection.tools.mcp__everything__echo!.execute!({ message: 'old' });
      expect(JSON.stringify(result)).toContain('old');
      expect(connection.status().everything).toMatchObject({
        state: 'connected',
        protocolVersion: '2025-03-26',
      });
    } finally {
      await connection.close();
    }
  });

  it('shows a URL entry that fell back to legacy SSE as sse in status()', async () => {
    await using server = await startEverythingHttp('sse');
    const connection = await connectMcp({ legacy: { url: server.url } });
    try {
      expect(connection.status().legacy).toMatchObject({ state: 'connected', transport: 'sse' });
    } finally {
      await connection.close();
    }
  });

  it('refuses an unknown version before starting anything', async () => {
    // A command that cannot spawn would fail with SPAWN_FAILED: getting the version error instead
    // shows the check runs first.
    const failure = await createMcpClient('typo', {
      command: 'switchboard-no-such-command',
      protocolVersion: '2099-01-01',
    }).catch((error: unknown) => error);
    expect(SwitchboardError.isInstance(failure)).toBe(true);
    const error = failure as SwitchboardError;
    expect(error.code).toBe('UNSUPPORTED_PROTOCOL_VERSION');
    expect(error.message).toContain('"typo"');
    expect(error.message).toContain('2025-06-18');
  });
});
