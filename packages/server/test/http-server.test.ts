import { request as httpRequest } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { createEventLog, type EventLog, waitForEvent } from '@switchboard/test-helpers';
import { afterEach, describe, expect, test } from 'vitest';
import { defineTool, type HttpTransportOptions, type ServeHandle, serve } from '../src/index.js';
import { createEchoServer, echoServerEvents } from './fixtures/echo-server.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

async function start(options: Partial<HttpTransportOptions> = {}): Promise<ServeHandle & { url: string }> {
  const handle = await serve(createEchoServer(), { transport: { type: 'http', port: 0, ...options } });
  cleanups.push(() => handle.close());
  return handle as ServeHandle & { url: string };
}

async function connect(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'http-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  cleanups.push(() => client.close());
  return client;
}

/** A raw HTTP request (fetch would refuse to set Host). */
function raw(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      { method: options.method ?? 'POST', headers: options.headers },
      (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => {
          body += chunk.toString();
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
        );
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

const jsonHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** What the `wait` tool of a test did: `started`, then `aborted` once its signal fired. */
type WaitRuns = EventLog<'started' | 'aborted'>;

/** Calls the `wait` tool, then, once it runs, drops the connection mid-call as a client that goes away would. */
async function callWaitThenHangUp(url: string, runs: WaitRuns): Promise<void> {
  const request = httpRequest(url, { method: 'POST', headers: jsonHeaders });
  request.on('error', () => {});
  request.end(
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'wait', arguments: {} } }),
  );
  await runs.find((run) => run === 'started', { what: 'the wait tool to start' });
  request.destroy();
}
const call = (id: number, message: string) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'echo', arguments: { message } },
  });

describe('serve over HTTP', () => {
  for (const mode of [
    { name: 'stateless SSE', options: {} },
    { name: 'stateless JSON', options: { json: true } },
    { name: 'session SSE', options: { session: true } },
    { name: 'session JSON', options: { session: true, json: true } },
  ]) {
    test(`the raw SDK client lists and calls tools (${mode.name})`, async () => {
      const handle = await start(mode.options);
      expect(handle.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const client = await connect(handle.url);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['add', 'echo', 'sleep']);
      const progress: number[] = [];
      const result = await client.callTool({ name: 'echo', arguments: { message: 'hello' } }, undefined, {
        onprogress: (update) => progress.push(update.progress),
      });
      expect(result.content).toEqual([{ type: 'text', text: 'Echo: hello' }]);
      await expect(client.callTool({ name: 'missing', arguments: {} })).rejects.toMatchObject({
        code: -32602,
      });
    });
  }

  test('stateless: GET and DELETE answer 405; a session is never created', async () => {
    const handle = await start();
    expect((await raw(handle.url, { method: 'GET', headers: { accept: 'text/event-stream' } })).status).toBe(
      405,
    );
    expect((await raw(handle.url, { method: 'DELETE' })).status).toBe(405);
    const response = await raw(handle.url, { headers: jsonHeaders, body: call(1, 'x') });
    expect(response.headers['mcp-session-id']).toBeUndefined();
  });

  test("stateless SSE streams a call's progress notifications on its POST response", async () => {
    const handle = await start();
    const client = await connect(handle.url);
    const progress: number[] = [];
    const result = await client.callTool({ name: 'sleep', arguments: { ms: 20 } }, undefined, {
      onprogress: (update) => progress.push(update.progress),
    });
    expect(result.content).toEqual([{ type: 'text', text: 'slept 20' }]);
    expect(progress).toEqual([0, 20]);
  });

  test('session mode: idle sessions are closed; DELETE frees the session', async () => {
    const handle = await start({ session: true, sessionIdleTimeoutMs: 300 });
    const healthUrl = handle.url.replace('/mcp', '/health');
    const sessions = async () => ((await (await fetch(healthUrl)).json()) as { sessions: number }).sessions;
    const transport = new StreamableHTTPClientTransport(new URL(handle.url));
    const client = new Client({ name: 'idle', version: '1.0.0' });
    await client.connect(transport);
    cleanups.push(() => client.close());
    expect(await sessions()).toBe(1);
    await transport.terminateSession();
    expect(await sessions()).toBe(0);
    const idle = new StreamableHTTPClientTransport(new URL(handle.url));
    const idleClient = new Client({ name: 'idle', version: '1.0.0' });
    await idleClient.connect(idle);
    cleanups.push(() => idleClient.close());
    expect(await sessions()).toBe(1);
    await expect.poll(sessions, { timeout: 10_000, interval: 100 }).toBe(0);
  });

  test('session mode: Mcp-Session-Id, list_changed on the GET stream, DELETE ends the session', async () => {
    const server = createEchoServer();
    const handle = await serve(server, { transport: { type: 'http', port: 0, session: true } });
    cleanups.push(() => handle.close());
    // The GET streams the client opened (their answer's headers have come).
    const getStreams = createEventLog<number>('GET streams opened by the client');
    const transport = new StreamableHTTPClientTransport(new URL(handle.url as string), {
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if ((init?.method ?? 'GET') === 'GET') getStreams.push(response.status);
        return response;
      },
    });
    const client = new Client({ name: 'session-test', version: '1.0.0' });
    await client.connect(transport);
    cleanups.push(() => client.close());
    expect(transport.sessionId).toMatch(/[0-9a-f-]{36}/);
    const changed = createEventLog<unknown>('tools/list_changed notifications');
    client.setNotificationHandler(ToolListChangedNotificationSchema, changed.push);
    // Once the client's GET stream is open, change the tools.
    expect(await getStreams.atLeast(1)).toEqual([200]);
    server.addTool(defineTool({ name: 'late', description: 'added later', execute: () => 'late' }));
    await changed.atLeast(1);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('late');
    const sessionId = transport.sessionId as string;
    await transport.terminateSession();
    const after = await raw(handle.url as string, {
      headers: { ...jsonHeaders, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
      body: call(5, 'x'),
    });
    expect(after.status).toBe(404);
    const noSession = await raw(handle.url as string, { headers: jsonHeaders, body: call(6, 'x') });
    expect(noSession.status).toBe(400);
  });

  test('bearer auth: 401 with WWW-Authenticate without the token, works with it', async () => {
    const handle = await start({ auth: { type: 'bearer', token: 's3cret-token' } });
    const denied = await raw(handle.url, { headers: jsonHeaders, body: call(1, 'x') });
    expect(denied.status).toBe(401);
    expect(denied.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(denied.body).not.toContain('s3cret');
    const wrong = await raw(handle.url, {
      headers: { ...jsonHeaders, authorization: 'Bearer nope' },
      body: call(1, 'x'),
    });
    expect(wrong.status).toBe(401);
    const client = await connect(handle.url, { authorization: 'Bearer s3cret-token' });
    expect((await client.listTools()).tools).toHaveLength(3);
  });

  test('refuses a non-loopback host without auth; allowUnauthenticated warns loudly', async () => {
    await expect(
      serve(createEchoServer(), { transport: { type: 'http', port: 0, host: '0.0.0.0' } }),
    ).rejects.toThrow(/without auth/);
    const warnings: string[] = [];
    const { createMcpServer } = await import('../src/index.js');
    const server = createMcpServer({
      name: 'x',
      version: '1',
      logger: {
        debug() {},
        info() {},
        error() {},
        warn: (message: unknown) => warnings.push(String(message)),
      },
    });
    const handle = await serve(server, {
      transport: { type: 'http', port: 0, host: '0.0.0.0', allowUnauthenticated: true },
    });
    cleanups.push(() => handle.close());
    expect(warnings.join('\n')).toMatch(/WITHOUT AUTHENTICATION/);
  });

  test('DNS rebinding: foreign Host or Origin gets 403, loopback ones pass', async () => {
    const handle = await start();
    const port = new URL(handle.url).port;
    const evilHost = await raw(handle.url, {
      headers: { ...jsonHeaders, host: 'evil.example.com' },
      body: call(1, 'x'),
    });
    expect(evilHost.status).toBe(403);
    const evilOrigin = await raw(handle.url, {
      headers: { ...jsonHeaders, origin: 'http://evil.example.com' },
      body: call(1, 'x'),
    });
    expect(evilOrigin.status).toBe(403);
    const good = await raw(handle.url, {
      headers: { ...jsonHeaders, host: `localhost:${port}`, origin: `http://localhost:${port}` },
      body: call(1, 'x'),
    });
    expect(good.status).toBe(200);
  });

  test('body limit: 413 beyond maxBodyBytes, and the server keeps serving', async () => {
    const handle = await start({ maxBodyBytes: 1024, json: true });
    const big = await raw(handle.url, { headers: jsonHeaders, body: call(1, 'x'.repeat(5000)) });
    expect(big.status).toBe(413);
    const ok = await raw(handle.url, { headers: jsonHeaders, body: call(2, 'small') });
    expect(JSON.parse(ok.body)).toMatchObject({ id: 2, result: { content: [{ text: 'Echo: small' }] } });
  });

  test('stateless: a client that disconnects mid-call cancels the tool through its signal', async () => {
    const runs: WaitRuns = createEventLog('runs of the wait tool');
    const { createMcpServer } = await import('../src/index.js');
    const server = createMcpServer({
      name: 'cancel',
      version: '1',
      tools: [
        defineTool({
          name: 'wait',
          description: 'waits until cancelled',
          execute: (_args, { signal }) =>
            new Promise((resolve) => {
              signal.addEventListener('abort', () => {
                runs.push('aborted');
                resolve('cancelled');
              });
              runs.push('started');
            }),
        }),
      ],
    });
    const handle = await serve(server, { transport: { type: 'http', port: 0, json: true } });
    cleanups.push(() => handle.close());
    await callWaitThenHangUp(handle.url as string, runs);
    await runs.find((run) => run === 'aborted', { what: "the tool's signal to abort" });
  });

  test('stateless: a tool that copies its context with spread still gets the cancellation', async () => {
    const runs: WaitRuns = createEventLog('runs of the wait tool');
    const { createMcpServer } = await import('../src/index.js');
    const server = createMcpServer({
      name: 'cancel-copy',
      version: '1',
      tools: [
        defineTool({
          name: 'wait',
          description: 'waits until cancelled, on a copy of its context',
          execute: (_args, context) => {
            const copy = { ...context };
            expect(Object.keys(copy)).toContain('signal');
            return new Promise((resolve) => {
              copy.signal.addEventListener('abort', () => {
                runs.push('aborted');
                resolve('cancelled');
              });
              runs.push('started');
            });
          },
        }),
      ],
    });
    const handle = await serve(server, { transport: { type: 'http', port: 0, json: true } });
    cleanups.push(() => handle.close());
    await callWaitThenHangUp(handle.url as string, runs);
    await runs.find((run) => run === 'aborted', { what: "the tool's signal to abort" });
  });

  test('a client that goes away mid-body does not hold up shutdown', async () => {
    const handle = await serve(createEchoServer(), {
      transport: { type: 'http', port: 0, drainTimeoutMs: 120_000 },
    });
    const url = new URL(handle.url as string);
    const { connect: connectSocket } = await import('node:net');
    const socket = connectSocket(Number(url.port), url.hostname);
    await waitForEvent(socket, 'connect');
    // `Expect: 100-continue`: node:http answers `100 Continue` as it hands the request to the
    // server, so the interim answer is the event "the server has the request in flight".
    socket.write(
      `POST /mcp HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\nExpect: 100-continue\r\n\r\n`,
    );
    await waitForEvent<[Buffer]>(socket, 'data', {
      filter: (chunk) => chunk.toString().startsWith('HTTP/1.1 100 Continue'),
      what: 'the server to take the request (100 Continue)',
    });
    socket.write('{"jsonrpc"');
    socket.destroy();
    // With the 120 s drain timeout, a leaked in-flight count would outlast this test's timeout.
    await handle.close();
  }, 30_000);

  test('GET /health reports status', async () => {
    const handle = await start();
    const health = await raw(handle.url.replace('/mcp', '/health'), { method: 'GET' });
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body)).toMatchObject({
      status: 'ok',
      name: 'echo-fixture',
      mode: 'stateless',
      tools: 3,
    });
  });

  test('graceful shutdown drains calls in flight and then refuses new ones', async () => {
    const handle = await serve(createEchoServer(), { transport: { type: 'http', port: 0, json: true } });
    const sleeping = waitForEvent(echoServerEvents, 'sleep-started', { what: 'the sleep call to start' });
    const slow = raw(handle.url as string, {
      headers: jsonHeaders,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 9,
        method: 'tools/call',
        params: { name: 'sleep', arguments: { ms: 400 } },
      }),
    });
    await sleeping;
    const closing = handle.close();
    const response = await slow;
    expect(JSON.parse(response.body)).toMatchObject({ id: 9, result: { content: [{ text: 'slept 400' }] } });
    await closing;
    await expect(raw(handle.url as string, { headers: jsonHeaders, body: call(1, 'x') })).rejects.toThrow();
  });

  test('REST endpoint is off by default; when on: {tool, input} → result, same auth', async () => {
    const off = await start();
    expect(
      (await raw(off.url.replace('/mcp', '/v1/tool-execute'), { headers: jsonHeaders, body: '{}' })).status,
    ).toBe(404);
    const handle = await start({ restEndpoint: true, auth: { type: 'bearer', token: 'tok' } });
    const restUrl = handle.url.replace('/mcp', '/v1/tool-execute');
    const body = JSON.stringify({ tool: 'echo', input: { message: 'rest' } });
    expect((await raw(restUrl, { headers: jsonHeaders, body })).status).toBe(401);
    const ok = await raw(restUrl, { headers: { ...jsonHeaders, authorization: 'Bearer tok' }, body });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toEqual({ content: [{ type: 'text', text: 'Echo: rest' }] });
    const invalid = await raw(restUrl, {
      headers: { ...jsonHeaders, authorization: 'Bearer tok' },
      body: JSON.stringify({ tool: 'echo', input: { message: 5 } }),
    });
    expect(invalid.status).toBe(422);
    const missing = await raw(restUrl, {
      headers: { ...jsonHeaders, authorization: 'Bearer tok' },
      body: JSON.stringify({ tool: 'nope', input: {} }),
    });
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body).error.message).toContain('Unknown tool "nope"');
  });
});
