/**
 * An SDK v2 server (`createMcpHandler`, web-standard `fetch`) on node:http at 127.0.0.1 port 0,
 * streaming its answers and recording each request. Closing a response stream aborts the request:
 * the modern era's cancellation. Tools: `echo`, and `slow`, which waits until cancelled.
 */
import http, { type IncomingHttpHeaders } from 'node:http';
import { type CreateMcpHandlerOptions, createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { createEventLog, type EventLog, listenOnRandomPort } from '@switchboard/test-helpers';
import { z } from 'zod';

/** A request the server received. */
export interface RecordedRequest {
  method: string;
  headers: IncomingHttpHeaders;
  body: { method?: string; id?: unknown; params?: Record<string, unknown> } | undefined;
}

/** A running server and what it saw. */
export interface RunningSdkV2Server {
  url: string;
  requests: RecordedRequest[];
  /** Labels of `slow` calls as each starts (a log: tests wait on it). */
  started: EventLog<string>;
  /** Labels of `slow` calls whose request was aborted (the client closed the stream); a log too. */
  cancelled: EventLog<string>;
  close(): Promise<void>;
}

function readBody(request: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

/** Starts the server. */
export async function startSdkV2HttpServer(
  options: CreateMcpHandlerOptions = {},
): Promise<RunningSdkV2Server> {
  const started = createEventLog<string>('slow calls the server started');
  const cancelled = createEventLog<string>('slow calls the server saw aborted');
  const handler = createMcpHandler(() => {
    const server = new McpServer({ name: 'transports-v2', version: '2.0.0' });
    server.registerTool(
      'echo',
      { description: 'Echoes', inputSchema: z.object({ message: z.string() }) },
      async ({ message }) => ({
        content: [{ type: 'text', text: message }],
      }),
    );
    server.registerTool(
      'slow',
      { description: 'Waits until cancelled', inputSchema: z.object({ label: z.string() }) },
      ({ label }, ctx) =>
        new Promise((resolve) => {
          // A bound on the wait, should no cancellation come.
          const timer = setTimeout(() => resolve({ content: [{ type: 'text', text: 'finished' }] }), 20_000);
          ctx.mcpReq.signal.addEventListener('abort', () => {
            clearTimeout(timer);
            cancelled.push(label);
            resolve({ content: [{ type: 'text', text: 'cancelled' }] });
          });
          started.push(label);
        }),
    );
    return server;
  }, options);
  const requests: RecordedRequest[] = [];
  const server = http.createServer(async (request, response) => {
    const body = await readBody(request);
    let parsed: RecordedRequest['body'];
    try {
      parsed = body.length > 0 ? JSON.parse(body.toString('utf8')) : undefined;
    } catch {
      parsed = undefined;
    }
    requests.push({ method: request.method ?? '', headers: request.headers, body: parsed });
    const abort = new AbortController();
    response.on('close', () => {
      if (!response.writableFinished) abort.abort();
    });
    const headers = new Headers();
    for (const [key, value] of Object.entries(request.headers)) {
      if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(', ') : value);
    }
    const answer = await handler.fetch(
      new Request(`http://127.0.0.1${request.url ?? '/'}`, {
        method: request.method ?? 'GET',
        headers,
        signal: abort.signal,
        ...(body.length > 0 ? { body } : {}),
      }),
    );
    response.writeHead(answer.status, Object.fromEntries(answer.headers.entries()));
    const reader = answer.body?.getReader();
    try {
      for (;;) {
        const chunk = await reader?.read();
        if (!chunk || chunk.done) break;
        response.write(chunk.value);
      }
    } catch {
      // The client went away.
    }
    response.end();
  });
  const { origin } = await listenOnRandomPort(server);
  return {
    url: `${origin}/mcp`,
    requests,
    started,
    cancelled,
    close: async () => {
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
