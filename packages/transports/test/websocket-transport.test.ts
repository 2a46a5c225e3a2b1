import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/client';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { SwitchboardError } from '@switchboard/core';
import { freePort } from '@switchboard/test-helpers';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { createWebSocketServerTransport, createWebSocketTransport } from '../src/index.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

/** An SDK Server per connection on a ws server, over our server-side WebSocket transport. */
async function startWebSocketMcpServer(): Promise<{
  url: string;
  protocols: string[];
  authorization: string[];
}> {
  const protocols: string[] = [];
  const authorization: string[] = [];
  const wss = new WebSocketServer({
    port: 0,
    host: '127.0.0.1',
    handleProtocols: (offered) => (offered.has('mcp') ? 'mcp' : false),
  });
  wss.on('connection', async (socket, request) => {
    protocols.push(socket.protocol);
    authorization.push(request.headers.authorization ?? '');
    const server = new Server({ name: 'ws-echo', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [{ name: 'echo', inputSchema: { type: 'object', properties: { message: { type: 'string' } } } }],
    }));
    server.setRequestHandler(CallToolRequestSchema, async (call) => ({
      content: [{ type: 'text', text: `Echo: ${String(call.params.arguments?.message)}` }],
    }));
    await server.connect(createWebSocketServerTransport(socket));
  });
  await new Promise((resolve) => wss.once('listening', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close(() => resolve());
      }),
  );
  return { url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`, protocols, authorization };
}

describe('WebSocket transport', () => {
  it('talks to an SDK server with the mcp subprotocol and sends the bearer token', async () => {
    const server = await startWebSocketMcpServer();
    const client = new Client({ name: 'ws-test', version: '1.0.0' });
    const transport = createWebSocketTransport({ url: server.url, bearerToken: 'ws-token' });
    let closed = false;
    await client.connect(transport);
    client.onclose = () => {
      closed = true;
    };
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['echo']);
    expect(await client.callTool({ name: 'echo', arguments: { message: 'over ws' } })).toMatchObject({
      content: [{ type: 'text', text: 'Echo: over ws' }],
    });
    expect(server.protocols).toEqual(['mcp']);
    expect(server.authorization).toEqual(['Bearer ws-token']);
    await client.close();
    expect(closed).toBe(true);
  });

  it('under version negotiation, reaches a 2025-era server as legacy (its Method not found answers the probe)', async () => {
    const server = await startWebSocketMcpServer();
    const client = new Client(
      { name: 'ws-auto', version: '1.0.0' },
      { versionNegotiation: { mode: 'auto' } },
    );
    await client.connect(createWebSocketTransport({ url: server.url }));
    expect(client.getProtocolEra()).toBe('legacy');
    expect(await client.callTool({ name: 'echo', arguments: { message: 'negotiated' } })).toMatchObject({
      content: [{ type: 'text', text: 'Echo: negotiated' }],
    });
    await client.close();
  });

  it('gives a clear CONNECTION_FAILED error for a refused connection', async () => {
    const port = await freePort();
    const failure = await createWebSocketTransport({ url: `ws://127.0.0.1:${port}`, name: 'ws-down' })
      .start()
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(SwitchboardError.hasCode(failure, 'CONNECTION_FAILED')).toBe(true);
    expect((failure as Error).message).toMatch(/ws-down.*ECONNREFUSED/s);
  });
});
