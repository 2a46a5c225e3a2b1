/** The protocol message tap: every JSON-RPC message in and out of a real server, redacted. */
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import {
  connectMcp,
  createMcpClient,
  type McpClient,
  type McpConnection,
  type ProtocolMessageEvent,
} from '../src/index.js';
import { everythingStdio, sdkV2Stdio } from './helpers/servers.js';

const secret = 'tap-secret-5f1c2d9e';

type Message = JSONRPCMessage & { id?: string | number; method?: string; result?: unknown; error?: unknown };

const requests = (events: ProtocolMessageEvent[], direction: 'in' | 'out') =>
  events
    .filter((event) => event.direction === direction)
    .map((event) => event.message as Message)
    .filter((message) => message.method !== undefined && message.id !== undefined);

const responseTo = (events: ProtocolMessageEvent[], id: string | number | undefined) =>
  events.find(
    (event) =>
      event.direction === 'in' &&
      (event.message as Message).id === id &&
      (event.message as Message).method === undefined,
  )?.message as Message | undefined;

describe('the protocol message tap', () => {
  const open: Array<McpClient | McpConnection> = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((item) => item.close()));
  });

  it('sees the 2025 handshake and each request out with its response in, secrets redacted', async () => {
    const events: ProtocolMessageEvent[] = [];
    const client = await createMcpClient('everything', everythingStdio({ env: { TAP_SECRET: secret } }), {
      onMessage: (event) => events.push(event),
    });
    open.push(client);
    expect(client.era).toBe('legacy');
    const sent = requests(events, 'out');
    // The version probe goes out first, then the 2025 handshake.
    expect(sent[0]?.method).toBe('server/discover');
    const initialize = sent.find((message) => message.method === 'initialize');
    expect(initialize).toBeDefined();
    expect(responseTo(events, initialize?.id)?.result).toMatchObject({ serverInfo: expect.any(Object) });
    expect(
      events.some(
        (event) =>
          event.direction === 'out' && (event.message as Message).method === 'notifications/initialized',
      ),
    ).toBe(true);

    const before = events.length;
    await client.callTool('echo', { message: `say ${secret}` });
    const env = await client.callTool('get-env', {});
    // The server really has the secret, and says so: only the tapped copy is redacted.
    expect(JSON.stringify(env)).toContain(secret);
    const calls = events.slice(before);
    const callRequests = requests(calls, 'out').filter((message) => message.method === 'tools/call');
    expect(callRequests).toHaveLength(2);
    for (const request of callRequests) expect(responseTo(calls, request.id)?.result).toBeDefined();
    const echoed = JSON.stringify(responseTo(calls, callRequests[0]?.id));
    expect(echoed).toContain('say [REDACTED]');
    expect(JSON.stringify(responseTo(calls, callRequests[1]?.id))).toContain('[REDACTED]');
    expect(JSON.stringify(events)).not.toContain(secret);
  });

  it('sees the modern era: server/discover and the calls that follow', async () => {
    const events: ProtocolMessageEvent[] = [];
    const client = await createMcpClient('modern', sdkV2Stdio('2026-07-28'), {
      onMessage: (event) => events.push(event),
    });
    open.push(client);
    expect(client.era).toBe('modern');
    const discover = requests(events, 'out').find((message) => message.method === 'server/discover');
    expect(responseTo(events, discover?.id)?.result).toBeDefined();
    expect(requests(events, 'out').some((message) => message.method === 'initialize')).toBe(false);
    const tools = await client.listTools({ refresh: true });
    const list = requests(events, 'out').findLast((message) => message.method === 'tools/list');
    expect(responseTo(events, list?.id)?.result).toMatchObject({ tools: expect.any(Array) });
    expect((responseTo(events, list?.id)?.result as { tools?: unknown[] } | undefined)?.tools).toHaveLength(
      tools.length,
    );
  });

  it('names the server through connectMcp', async () => {
    const seen: Array<{ server: string; event: ProtocolMessageEvent }> = [];
    const connection = await connectMcp(
      { everything: everythingStdio({ env: { TAP_SECRET: secret } }) },
      { approval: 'never', onMessage: (server, event) => seen.push({ server, event }) },
    );
    open.push(connection);
    await connection.callTool('mcp__everything__echo', { message: 'hello tap' });
    expect(new Set(seen.map((item) => item.server))).toEqual(new Set(['everything']));
    const call = seen.find(
      (item) => item.event.direction === 'out' && (item.event.message as Message).method === 'tools/call',
    );
    expect(call?.event.message).toMatchObject({
      params: { name: 'echo', arguments: { message: 'hello tap' } },
    });
  });
});
