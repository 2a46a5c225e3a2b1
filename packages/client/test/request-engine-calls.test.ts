// Tool calls through the connection's request engine (request-engine.ts): progress, cancellation
// the server sees, deadlines, results as the server sent them — with or without handlers of their
// own — in both eras and over HTTP and stdio.
import http from 'node:http';
import { everythingStdio, listenOnRandomPort } from '@switchboard/test-helpers';
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpClient, type McpClient } from '../src/index.js';
// @ts-expect-error a JavaScript fixture (also run as a stdio server)
import { slowCalls } from './fixtures/sdk-v2-server.mjs';
import { startSdkV2Server } from './helpers/http-mcp-server.js';
import { fixture } from './helpers/servers.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

async function modernHttpClient(): Promise<McpClient> {
  const server = await startSdkV2Server({ legacy: 'reject' });
  cleanups.push(() => server.close());
  const client = await createMcpClient('modern', { url: server.url });
  cleanups.push(() => client.close());
  expect(client.era).toBe('modern');
  return client;
}

const textOf = (result: { content?: unknown }) => (result.content as Array<{ text: string }>)[0]?.text;

describe('calls through the request engine', () => {
  it('modern HTTP: reports progress, then an abort closes the stream and the server sees the cancellation', async () => {
    const client = await modernHttpClient();
    const before = slowCalls.cancelled.entries.length;
    const abort = new AbortController();
    const progress: number[] = [];
    const call = client.callTool(
      'slow',
      { steps: 500 },
      {
        signal: abort.signal,
        onProgress: (update) => {
          progress.push(update.progress);
          if (progress.length === 3) abort.abort('enough');
        },
      },
    );
    await expect(call).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(progress).toEqual([1, 2, 3]);
    await slowCalls.cancelled.atLeast(before + 1, { what: 'the server to see the cancellation' });
    // The connection serves the next call.
    expect(textOf(await client.callTool('slow', { steps: 2 }))).toBe('done after 2 steps');
  });

  it('one signal shared by many calls (an agent run) cancels every call still pending, and only those', async () => {
    const client = await modernHttpClient();
    const before = slowCalls.cancelled.entries.length;
    const run = new AbortController();
    // Calls that finished under the signal leave nothing behind that a later abort would touch.
    expect(textOf(await client.callTool('slow', { steps: 2 }, { signal: run.signal }))).toBe(
      'done after 2 steps',
    );
    expect(textOf(await client.callTool('slow', { steps: 1 }, { signal: run.signal }))).toBe(
      'done after 1 steps',
    );
    const started = slowCalls.started.entries.length;
    const pending = [1, 2].map(() => client.callTool('slow', { steps: 500 }, { signal: run.signal }));
    const other = client.callTool('slow', { steps: 3 }, { signal: new AbortController().signal });
    // Abort once the server runs all three (the run's two and the other one).
    await slowCalls.started.atLeast(started + 3, { what: 'the three calls to start' });
    run.abort('user stopped the run');
    for (const call of pending) await expect(call).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(textOf(await other)).toBe('done after 3 steps');
    await slowCalls.cancelled.atLeast(before + 2, { what: 'the server to see both cancellations' });
    // An aborted signal refuses a new call at once.
    await expect(client.callTool('slow', { steps: 1 }, { signal: run.signal })).rejects.toMatchObject({
      code: 'CANCELLED',
    });
  });

  it('an abort right after the call starts (before its fresh signal is watched) still cancels it on the server', async () => {
    const client = await modernHttpClient();
    const before = slowCalls.cancelled.entries.length;
    const abort = new AbortController();
    const call = client.callTool('slow', { steps: 500 }, { signal: abort.signal });
    abort.abort('changed my mind');
    await expect(call).rejects.toMatchObject({ code: 'CANCELLED' });
    await slowCalls.cancelled.atLeast(before + 1, { what: 'the server to see the cancellation' });
    expect(
      textOf(await client.callTool('slow', { steps: 1 }, { signal: new AbortController().signal })),
    ).toBe('done after 1 steps');
  });

  it('modern HTTP: a deadline rejects with TIMEOUT and cancels the call on the server', async () => {
    const client = await modernHttpClient();
    const before = slowCalls.cancelled.entries.length;
    await expect(client.callTool('slow', { steps: 500 }, { timeoutMs: 150 })).rejects.toMatchObject({
      code: 'TIMEOUT',
    });
    await slowCalls.cancelled.atLeast(before + 1, { what: 'the server to see the cancellation' });
  });

  it('modern HTTP: progress restarts the deadline when asked, and a total deadline still holds', async () => {
    const client = await modernHttpClient();
    // 60 steps of 20 ms under a 500 ms deadline: only progress keeps it alive (the margin is wide
    // so that a loaded machine's pauses between two progress notifications stay under it).
    const result = await client.callTool(
      'slow',
      { steps: 60 },
      { timeoutMs: 500, resetTimeoutOnProgress: true, onProgress: () => {} },
    );
    expect(textOf(result)).toBe('done after 60 steps');
    await expect(
      client.callTool(
        'slow',
        { steps: 500 },
        { timeoutMs: 500, resetTimeoutOnProgress: true, maxTotalTimeoutMs: 1500, onProgress: () => {} },
      ),
    ).rejects.toMatchObject({ code: 'TIMEOUT' });
  });

  it('gives the result as the server sent it, without resultType, with or without handlers of its own', async () => {
    const client = await modernHttpClient();
    const direct = await client.callTool('add', { a: 2, b: 3 });
    // A call with handlers of its own takes the same path: both must agree.
    const funnel = await client.callTool(
      'add',
      { a: 2, b: 3 },
      { onElicitation: () => ({ action: 'cancel' }) },
    );
    expect(direct).toEqual(funnel);
    expect(direct).not.toHaveProperty('resultType');
    expect(direct.structuredContent).toEqual({ sum: 5 });
  });

  it('a modern stdio server: progress and cancellation by notifications/cancelled', async () => {
    const client = await createMcpClient('modern-stdio', {
      command: process.execPath,
      args: [fixture('sdk-v2-server.mjs')],
    });
    cleanups.push(() => client.close());
    expect(client.era).toBe('modern');
    const abort = new AbortController();
    const progress: number[] = [];
    const call = client.callTool(
      'slow',
      { steps: 500 },
      {
        signal: abort.signal,
        onProgress: (update) => {
          progress.push(update.progress);
          if (progress.length === 2) abort.abort();
        },
      },
    );
    await expect(call).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(progress).toEqual([1, 2]);
    expect(textOf(await client.callTool('slow', { steps: 1 }))).toBe('done after 1 steps');
  });

  it('a closed connection fails the calls in flight with a clear error', async () => {
    const client = await createMcpClient('everything', everythingStdio());
    cleanups.push(() => client.close());
    const tools = await client.listTools();
    const slow = tools.find((tool) => /long-running/i.test(tool.name));
    const call = client.callTool(slow!.name, { duration: 30, steps: 30 });
    process.kill(client.pid!, 'SIGKILL');
    await expect(call).rejects.toMatchObject({
      code: 'CONNECTION_CLOSED',
      context: { server: 'everything' },
    });
  });
});

describe('a response stream that ends before the answer', () => {
  it('fails the call at once with CONNECTION_CLOSED instead of waiting for its deadline', async () => {
    // A 2025-era server that opens an SSE answer to tools/call and closes it with nothing in it
    // (no event id to resume from): the request is lost, and the caller must learn it now.
    const server = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on('end', () => {
        const message = JSON.parse(body || '{}') as { id?: number; method?: string };
        const answer = (result: unknown) => {
          response.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'one' });
          response.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
        };
        if (message.method === 'initialize') {
          answer({
            protocolVersion: '2025-06-18',
            capabilities: { tools: {} },
            serverInfo: { name: 'drop', version: '1' },
          });
        } else if (message.method === 'tools/list') {
          answer({ tools: [{ name: 'drop', inputSchema: { type: 'object' } }] });
        } else if (message.method === 'tools/call') {
          response.writeHead(200, { 'content-type': 'text/event-stream' });
          response.end();
        } else if (message.id === undefined) {
          response.writeHead(202).end();
        } else {
          // server/discover and anything else: a 2025 server's plain refusal.
          response.writeHead(400, { 'content-type': 'text/plain' }).end('Bad Request');
        }
      });
    });
    const { port } = await listenOnRandomPort(server);
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const client = await createMcpClient('drop', { url: `http://127.0.0.1:${port}/mcp` });
    cleanups.push(() => client.close());
    expect(client.era).toBe('legacy');
    // Without the stream-end signal the call would wait out its deadline, past the test's own.
    await expect(client.callTool('drop', {}, { timeoutMs: 600_000 })).rejects.toMatchObject({
      code: 'CONNECTION_CLOSED',
      context: { server: 'drop', tool: 'drop' },
    });
  });
});
