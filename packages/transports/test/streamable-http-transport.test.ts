import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { Client } from '@modelcontextprotocol/client';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { SwitchboardError } from '@switchboard/core';
import {
  type EverythingHttpServer,
  freePort,
  listenOnRandomPort,
  startEverythingHttp,
} from '@switchboard/test-helpers';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createStreamableHttpTransport } from '../src/index.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

async function connect(transport: ReturnType<typeof createStreamableHttpTransport>): Promise<Client> {
  const client = new Client({ name: 'http-test', version: '1.0.0' });
  await client.connect(transport);
  cleanups.push(() => client.close());
  return client;
}

/** A neighbour HTTP server for protocol corner cases; records what it received. */
async function startTestServer(
  handler: (request: http.IncomingMessage, response: http.ServerResponse, body: string) => void,
): Promise<{
  url: string;
  requests: Array<{ method: string; headers: http.IncomingHttpHeaders; body: string }>;
}> {
  const requests: Array<{ method: string; headers: http.IncomingHttpHeaders; body: string }> = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      requests.push({ method: request.method ?? '', headers: request.headers, body });
      // Session end and the standalone GET stream are not what these servers test: answer them plainly.
      if (request.method === 'DELETE') response.writeHead(200).end();
      else if (request.method === 'GET' && !request.headers['last-event-id']) response.writeHead(405).end();
      else handler(request, response, body);
    });
  });
  const listening = await listenOnRandomPort(server);
  cleanups.push(listening.close);
  return { url: `${listening.origin}/mcp`, requests };
}

function initializeResult(id: unknown): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    result: {
      protocolVersion: '2025-06-18',
      serverInfo: { name: 'neighbour', version: '1.0.0' },
      capabilities: { tools: {} },
    },
  });
}

describe('Streamable HTTP transport against server-everything', () => {
  let server: EverythingHttpServer;
  beforeAll(async () => {
    server = await startEverythingHttp('streamableHttp');
  });
  afterAll(async () => {
    await server.close();
  });

  it('initializes, captures the session, lists tools, calls echo, gets progress, ends the session on close', async () => {
    const url = `http://127.0.0.1:${server.port}/mcp`;
    const transport = createStreamableHttpTransport({ url });
    const client = await connect(transport);
    const sessionId = transport.sessionId;
    expect(sessionId).toMatch(/[0-9a-f-]{36}/);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('echo');
    expect(await client.callTool({ name: 'echo', arguments: { message: 'over http' } })).toMatchObject({
      content: [{ type: 'text', text: 'Echo: over http' }],
    });
    const progress: number[] = [];
    await client.callTool(
      { name: 'trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 } },
      { onprogress: (event) => progress.push(event.progress) },
    );
    expect(progress.length).toBeGreaterThan(0);
    const concurrent = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        client.callTool({ name: 'echo', arguments: { message: `m${index}` } }),
      ),
    );
    expect(concurrent.map((result) => (result.content as Array<{ text: string }>)[0]!.text)).toEqual(
      Array.from({ length: 8 }, (_, index) => `Echo: m${index}`),
    );
    await client.close();
    // After the DELETE the server no longer knows the session.
    const status = await new Promise<number>((resolve, reject) => {
      const request = http.request(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': sessionId!,
        },
      });
      request.on('response', (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.on('error', reject);
      request.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
    });
    expect(status).toBeGreaterThanOrEqual(400);
  });
});

describe('Streamable HTTP transport when the server restarts', () => {
  it('reports SESSION_EXPIRED for a session the restarted server-everything does not know', async () => {
    const first = await startEverythingHttp('streamableHttp');
    cleanups.push(() => first.close());
    const transport = createStreamableHttpTransport({ url: `http://127.0.0.1:${first.port}/mcp` });
    const client = await connect(transport);
    await client.listTools();
    await first.close();
    const second = await startEverythingHttp('streamableHttp', first.port);
    cleanups.push(() => second.close());
    const failure = await client.listTools().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(SwitchboardError.hasCode(failure, 'SESSION_EXPIRED')).toBe(true);
    // A fresh transport (what the client does on SESSION_EXPIRED) works against the new server.
    const fresh = await connect(createStreamableHttpTransport({ url: `http://127.0.0.1:${first.port}/mcp` }));
    expect((await fresh.listTools()).tools.length).toBeGreaterThan(0);
  });
});

describe('Streamable HTTP transport protocol details', () => {
  it('handles JSON responses (SDK server with enableJsonResponse) and sends the protocol version header', async () => {
    const seenHeaders: http.IncomingHttpHeaders[] = [];
    const sessions = new Map<string, StreamableHTTPServerTransport>();
    const httpServer = http.createServer(async (request, response) => {
      seenHeaders.push(request.headers);
      const sessionId = request.headers['mcp-session-id'];
      let transport = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
      if (!transport) {
        transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          enableJsonResponse: true,
          onsessioninitialized: (id) => {
            sessions.set(id, transport!);
          },
        });
        const mcp = new Server({ name: 'json-server', version: '1.0.0' }, { capabilities: { tools: {} } });
        mcp.setRequestHandler(CallToolRequestSchema, async (call) => {
          const { a, b } = call.params.arguments as { a: number; b: number };
          return { content: [{ type: 'text', text: String(a + b) }] };
        });
        await mcp.connect(transport);
      }
      await transport.handleRequest(request, response);
    });
    const listening = await listenOnRandomPort(httpServer);
    cleanups.push(listening.close);
    const url = `${listening.origin}/mcp`;
    const client = await connect(
      createStreamableHttpTransport({
        url,
        headers: { 'X-Team': 'switchboard' },
        bearerToken: 'secret-token-123',
      }),
    );
    expect(await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })).toMatchObject({
      content: [{ type: 'text', text: '5' }],
    });
    expect(seenHeaders[0]?.authorization).toBe('Bearer secret-token-123');
    expect(seenHeaders[0]?.['x-team']).toBe('switchboard');
    expect(seenHeaders[0]?.['mcp-protocol-version']).toBeUndefined();
    expect(seenHeaders.at(-1)?.['mcp-protocol-version']).toBe(LATEST_PROTOCOL_VERSION);
  });

  it('turns a 404 for a known session into SESSION_EXPIRED without leaking the token', async () => {
    let initialized = false;
    const { url } = await startTestServer((_request, response, body) => {
      const message = JSON.parse(body) as { id?: unknown; method: string };
      if (message.method === 'initialize') {
        initialized = true;
        response.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'session-1' });
        response.end(initializeResult(message.id));
      } else if (message.method === 'notifications/initialized') {
        response.writeHead(202).end();
      } else {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('Session not found');
      }
    });
    const transport = createStreamableHttpTransport({
      url,
      bearerToken: 'top-secret-token',
      sseFallback: false,
    });
    const errors: Error[] = [];
    const client = await connect(transport);
    client.onerror = (error) => errors.push(error);
    expect(initialized).toBe(true);
    const failure = await client.listTools().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(SwitchboardError.hasCode(failure, 'SESSION_EXPIRED')).toBe(true);
    expect(String((failure as Error).message)).toMatch(/re-initialize/i);
    expect(
      JSON.stringify(errors.map((error) => [error.message, (error as SwitchboardError).context])),
    ).not.toContain('top-secret-token');
    expect(transport.sessionId).toBeUndefined();
  });

  it('resumes an SSE response stream with Last-Event-ID after the retry delay the server asked for', async () => {
    let pendingId: unknown;
    let closedAt = 0;
    let resumedAt = 0;
    const { url, requests } = await startTestServer((request, response, body) => {
      if (request.method === 'GET') {
        resumedAt = performance.now();
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write(
          `event: message\nid: e-2\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: pendingId, result: { content: [{ type: 'text', text: 'resumed' }] } })}\n\n`,
        );
        return;
      }
      const message = JSON.parse(body) as { id?: unknown; method: string };
      if (message.method === 'initialize') {
        response.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 's' });
        response.end(initializeResult(message.id));
      } else if (message.id === undefined) {
        response.writeHead(202).end();
      } else {
        pendingId = message.id;
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        // A priming event: an id to resume from and the delay to wait, then the stream ends.
        response.write('id: e-1\nretry: 400\ndata: \n\n');
        setTimeout(() => {
          closedAt = performance.now();
          response.end();
        }, 50);
      }
    });
    const client = await connect(createStreamableHttpTransport({ url }));
    const result = await client.callTool({ name: 'anything', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'resumed' }]);
    const resume = requests.find((request) => request.method === 'GET' && request.headers['last-event-id']);
    expect(resume?.headers['last-event-id']).toBe('e-1');
    expect(resumedAt - closedAt).toBeGreaterThanOrEqual(350);
  });

  it('falls back to legacy SSE when the initial POST gets a 4xx (server-everything in sse mode)', async () => {
    const server = await startEverythingHttp('sse');
    cleanups.push(() => server.close());
    const transport = createStreamableHttpTransport({ url: `http://127.0.0.1:${server.port}/sse` });
    const client = await connect(transport);
    expect(await client.callTool({ name: 'echo', arguments: { message: 'legacy' } })).toMatchObject({
      content: [{ type: 'text', text: 'Echo: legacy' }],
    });
  });

  it('does not fall back when told not to, and names the status', async () => {
    const { url } = await startTestServer((_request, response) => {
      response.writeHead(405, { 'content-type': 'text/plain' }).end('Method Not Allowed');
    });
    const client = new Client({ name: 'http-test', version: '1.0.0' });
    await expect(client.connect(createStreamableHttpTransport({ url, sseFallback: false }))).rejects.toThrow(
      /405/,
    );
  });

  it('names both failures when the initial POST gets a 4xx and the SSE fallback fails too', async () => {
    const { url } = await startTestServer((_request, response) => {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
    });
    const client = new Client({ name: 'http-test', version: '1.0.0' });
    const failure = await client.connect(createStreamableHttpTransport({ url, name: 'nowhere' })).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(SwitchboardError.hasCode(failure, 'CONNECTION_FAILED')).toBe(true);
    expect((failure as Error).message).toMatch(/"nowhere".*HTTP 404.*legacy HTTP\+SSE/s);
  });

  it('gives a clear CONNECTION_FAILED error for a refused connection', async () => {
    const port = await freePort();
    const client = new Client({ name: 'http-test', version: '1.0.0' });
    const failure = await client
      .connect(
        createStreamableHttpTransport({
          url: `http://127.0.0.1:${port}/mcp?apiKey=hidden-key`,
          name: 'down',
        }),
      )
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(SwitchboardError.hasCode(failure, 'CONNECTION_FAILED')).toBe(true);
    expect((failure as Error).message).toContain('ECONNREFUSED');
    expect((failure as Error).message).toContain('"down"');
    expect((failure as Error).message).not.toContain('hidden-key');
  });
});
