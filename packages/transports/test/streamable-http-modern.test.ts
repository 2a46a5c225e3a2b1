// The Streamable HTTP transport in the modern era (2026-07-28), under the SDK v2 Client's version
// negotiation: the signals it relies on (an HTTP failure as SdkHttpError, a modern 400 in-band),
// the standard headers, per-message headers, the request signal closing a stream (the modern
// cancellation), and no session or GET stream.
import http from 'node:http';
import { Client, ProtocolError, SdkHttpError } from '@modelcontextprotocol/client';
import { createEventLog, listenOnRandomPort } from '@switchboard/test-helpers';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createStreamableHttpTransport,
  encodeMcpHeaderValue,
  type HttpMessageExtraInfo,
} from '../src/index.js';
import { type RunningSdkV2Server, startSdkV2HttpServer } from './support/sdk-v2-http-server.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

async function modernServer(): Promise<RunningSdkV2Server> {
  const server = await startSdkV2HttpServer({ legacy: 'reject' });
  cleanups.push(() => server.close());
  return server;
}

async function autoClient(url: string) {
  const transport = createStreamableHttpTransport({ url });
  const client = new Client(
    { name: 'modern-test', version: '1.0.0' },
    { versionNegotiation: { mode: 'auto' } },
  );
  await client.connect(transport);
  cleanups.push(() => client.close());
  return { client, transport };
}

/** A neighbour server answering every POST with `answer`. */
async function answeringServer(
  answer: (body: { id?: unknown; method?: string }) => {
    status: number;
    body: unknown;
    contentType?: string;
  },
) {
  const server = http.createServer((request, response) => {
    let text = '';
    request.on('data', (chunk) => {
      text += chunk;
    });
    request.on('end', () => {
      const { status, body, contentType } = answer(JSON.parse(text || '{}'));
      response.writeHead(status, { 'content-type': contentType ?? 'application/json' });
      response.end(typeof body === 'string' ? body : JSON.stringify(body));
    });
  });
  const listening = await listenOnRandomPort(server);
  cleanups.push(listening.close);
  return `${listening.origin}/mcp`;
}

const envelope = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

describe('Streamable HTTP transport, modern era', () => {
  it('negotiates modern with an SDK v2 modern-only server: no session id, no GET, standard headers', async () => {
    const server = await modernServer();
    const { client, transport } = await autoClient(server.url);
    expect(client.getProtocolEra()).toBe('modern');
    expect(await client.callTool({ name: 'echo', arguments: { message: 'ok' } })).toMatchObject({
      content: [{ type: 'text', text: 'ok' }],
    });
    expect(transport.sessionId).toBeUndefined();
    expect(server.requests.some((request) => request.method === 'GET')).toBe(false);
    const call = server.requests.find((request) => request.body?.method === 'tools/call');
    expect(call?.headers).toMatchObject({
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'echo',
    });
    expect(call?.headers['mcp-session-id']).toBeUndefined();
  });

  it('closing the stream of a cancelled call is the cancellation the server sees', async () => {
    const server = await modernServer();
    const { client } = await autoClient(server.url);
    const abort = new AbortController();
    const call = client.callTool({ name: 'slow', arguments: { label: 'first' } }, { signal: abort.signal });
    await server.started.find((label) => label === 'first');
    abort.abort();
    await expect(call).rejects.toThrow();
    expect(await server.cancelled.atLeast(1)).toEqual(['first']);
    // No notifications/cancelled POST: on a modern connection the closed stream says it.
    expect(server.requests.some((request) => request.body?.method === 'notifications/cancelled')).toBe(false);
  });

  it('delivers a modern 400 JSON-RPC error in-band, and any other HTTP failure as SdkHttpError', async () => {
    const url = await answeringServer((body) => ({
      status: 400,
      body: {
        jsonrpc: '2.0',
        id: body.id,
        error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2026-07-28'] } },
      },
    }));
    const transport = createStreamableHttpTransport({ url, sseFallback: false });
    const received: unknown[] = [];
    transport.onmessage = (message) => received.push(message);
    await transport.start();
    cleanups.push(() => transport.close());
    await transport.send({ jsonrpc: '2.0', id: 'p1', method: 'tools/list', params: { _meta: envelope } });
    expect(received).toEqual([
      expect.objectContaining({ id: 'p1', error: expect.objectContaining({ code: -32022 }) }),
    ]);
    // The same answer to a 2025-era request is an HTTP failure with its status and body.
    const failure = await transport.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(SdkHttpError);
    expect((failure as SdkHttpError).status).toBe(400);
    expect(String((failure as SdkHttpError).data.text)).toContain('-32022');
  });

  it('sends per-message headers but never lets them replace the headers the transport owns', async () => {
    const seen: http.IncomingHttpHeaders[] = [];
    const server = http.createServer((request, response) => {
      seen.push(request.headers);
      request.resume();
      request.on('end', () => response.writeHead(202).end());
    });
    const listening = await listenOnRandomPort(server);
    cleanups.push(listening.close);
    const transport = createStreamableHttpTransport({
      url: `${listening.origin}/mcp`,
      bearerToken: 'the-real-token',
    });
    await transport.start();
    cleanups.push(() => transport.close());
    await transport.send(
      { jsonrpc: '2.0', method: 'notifications/progress', params: { _meta: envelope } },
      { headers: { 'Mcp-Param-Region': 'us-west1', Authorization: 'Bearer forged', 'Mcp-Method': 'forged' } },
    );
    expect(seen[0]).toMatchObject({
      'mcp-param-region': 'us-west1',
      authorization: 'Bearer the-real-token',
      'mcp-method': 'notifications/progress',
    });
  });

  it('encodes header values as the spec says', () => {
    expect(encodeMcpHeaderValue('us-west1')).toBe('us-west1');
    expect(encodeMcpHeaderValue('Hello, 世界')).toBe('=?base64?SGVsbG8sIOS4lueVjA==?=');
    expect(encodeMcpHeaderValue(' padded ')).toBe('=?base64?IHBhZGRlZCA=?=');
    expect(encodeMcpHeaderValue('line1\nline2')).toBe('=?base64?bGluZTEKbGluZTI=?=');
    expect(encodeMcpHeaderValue('=?base64?literal?=')).toBe('=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=');
    expect(encodeMcpHeaderValue('a\tb c')).toBe('a\tb c');
  });

  it('tells which request a 2025-era server request belongs to (the POST stream it came on)', async () => {
    const url = await answeringServer((body) => ({
      status: 200,
      contentType: 'text/event-stream',
      body: `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 'srv-1', method: 'elicitation/create', params: { message: 'm', requestedSchema: { type: 'object', properties: {} } } })}\n\nevent: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: body.id, result: { content: [] } })}\n\n`,
    }));
    const transport = createStreamableHttpTransport({ url });
    const extras = createEventLog<HttpMessageExtraInfo | undefined>('the messages handed on, by their extra');
    transport.onmessage = (_message, extra) => extras.push(extra as HttpMessageExtraInfo | undefined);
    await transport.start();
    cleanups.push(() => transport.close());
    await transport.send({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 't', arguments: {} },
    });
    // The server's request, then the answer: both handed on.
    const [request, answer] = await extras.atLeast(2);
    expect(request?.relatedRequest?.id).toBe(7);
    expect(answer).toBeUndefined();
  });

  it('a modern-only server refusing initialize (2025 client): the error answers in-band, no SSE fallback', async () => {
    const server = await modernServer();
    const client = new Client({ name: 'legacy-test', version: '1.0.0' });
    const failure = await client.connect(createStreamableHttpTransport({ url: server.url })).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ProtocolError);
    expect((failure as ProtocolError).code).toBe(-32022);
    expect(server.requests.some((request) => request.method === 'GET')).toBe(false);
  });
});
