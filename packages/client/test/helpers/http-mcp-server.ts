/**
 * Serves an SDK v2 `createMcpHandler` handler (web-standard `fetch`) on node:http at 127.0.0.1
 * port 0, streaming its responses, and records every request (method, headers, JSON body) so tests
 * can look at what the client sent. A client closing a response stream aborts the request, which
 * is the modern era's cancellation signal.
 */
import http, { type IncomingHttpHeaders } from 'node:http';
import { type CreateMcpHandlerOptions, createMcpHandler } from '@modelcontextprotocol/server';
import { createEventLog, type EventLog, listenOnRandomPort } from '@switchboard/test-helpers';
// @ts-expect-error a JavaScript fixture (also run as a stdio server)
import { buildServer, createTaskStore } from '../fixtures/sdk-v2-server.mjs';

/** A request the server received. */
export interface RecordedRequest {
  method: string;
  headers: IncomingHttpHeaders;
  body: { method?: string; id?: unknown; params?: Record<string, unknown> } | undefined;
}

/** A running HTTP MCP server. */
export interface RunningMcpServer {
  url: string;
  requests: RecordedRequest[];
  /** The same requests as a log to wait on (`await server.received.find(...)`). */
  received: EventLog<RecordedRequest>;
  handler: ReturnType<typeof createMcpHandler>;
  close(): Promise<void>;
}

/** Options of {@link startSdkV2Server}. */
export interface SdkV2ServerOptions extends CreateMcpHandlerOptions {
  /** `ttlMs` of `tools/list` results (modern era). */
  toolsTtlMs?: number;
  /** Serve `long_job` as a task (extension io.modelcontextprotocol/tasks). */
  tasks?: boolean;
  /** Keep each request in `requests`. @default true */
  record?: boolean;
  /** Serve this server (made per request) instead of the fixture's. */
  factory?: () => unknown;
}

function readBody(request: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

/** Starts the test server of `fixtures/sdk-v2-server.mjs` behind `createMcpHandler`. */
export async function startSdkV2Server(options: SdkV2ServerOptions = {}): Promise<RunningMcpServer> {
  const { toolsTtlMs, tasks, record = true, factory, ...handlerOptions } = options;
  const taskStore = tasks ? createTaskStore() : undefined;
  const handler = createMcpHandler(
    () =>
      (factory?.() as ReturnType<typeof buildServer>) ??
      buildServer({
        ...(toolsTtlMs === undefined ? {} : { toolsTtlMs }),
        ...(taskStore ? { tasks: taskStore } : {}),
      }),
    handlerOptions,
  );
  const received = createEventLog<RecordedRequest>('requests the server received');
  const requests = received.entries as RecordedRequest[];
  const server = http.createServer(async (request, response) => {
    const body = await readBody(request);
    let parsed: RecordedRequest['body'];
    try {
      parsed = record && body.length > 0 ? JSON.parse(body.toString('utf8')) : undefined;
    } catch {
      parsed = undefined;
    }
    if (record) received.push({ method: request.method ?? '', headers: request.headers, body: parsed });
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
    if (!answer.body) {
      response.end();
      return;
    }
    const reader = answer.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        response.write(value);
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
    received,
    handler,
    close: async () => {
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
