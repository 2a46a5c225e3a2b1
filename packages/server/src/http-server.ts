/**
 * Streamable HTTP on `node:http`: stateless by default (the fast path of `request-dispatcher.ts`),
 * a session mode on the SDK's `StreamableHTTPServerTransport` (SSE streams, resumability,
 * server-to-client requests), bearer auth, DNS-rebinding checks, a body limit, `/health`, the
 * optional REST endpoint and a graceful shutdown that drains calls in flight.
 */
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  createServer,
  type IncomingMessage,
  type Server as NodeHttpServer,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { SwitchboardError } from '@switchboard/core';
import {
  type CheckedMessage,
  checkJsonRpcMessage,
  checkJsonRpcValue,
  createErrorResponse,
  isRequestMessage,
  JsonRpcErrorCode,
} from './json-rpc-message.js';
import type { McpServer, McpSession } from './mcp-server.js';
import { createMemoryEventStore } from './memory-event-store.js';
import {
  createProtectedResource,
  type OAuthResourceOptions,
  type VerifiedToken,
} from './protected-resource.js';
import { createRequestDispatcher, type RequestDispatcher } from './request-dispatcher.js';

/** Bearer-token authentication. */
export interface BearerAuthOptions {
  type: 'bearer';
  /** The token clients send as `Authorization: Bearer <token>`. */
  token: string;
}

/** Options of the HTTP transport of `serve`. */
export interface HttpTransportOptions {
  type: 'http';
  /** Port; 0 picks a free one. @default 3000 */
  port?: number;
  /** Interface to bind. @default '127.0.0.1' */
  host?: string;
  /** Path of the MCP endpoint. @default '/mcp' */
  path?: string;
  /** Stateful sessions (`Mcp-Session-Id`, GET SSE stream, DELETE). @default false (stateless) */
  session?: boolean;
  /** Answer POSTs with plain JSON instead of an SSE stream. @default false */
  json?: boolean;
  /** Authentication of `/mcp` and `/v1/tool-execute`: a static bearer token, or OAuth (MCP authorization spec). @default none */
  auth?: BearerAuthOptions | OAuthResourceOptions;
  /** Allow binding a non-loopback host without auth (logs a loud warning). @default false */
  allowUnauthenticated?: boolean;
  /** Extra accepted `Host` names (DNS-rebinding protection). @default loopback names when bound to loopback */
  allowedHosts?: string[];
  /** Extra accepted `Origin`s (e.g. `https://app.example.com`). @default loopback origins only */
  allowedOrigins?: string[];
  /** Largest accepted request body in bytes (413 beyond). @default 4 MiB */
  maxBodyBytes?: number;
  /** Serve `POST /v1/tool-execute` (`{tool, input}` → result) for callers that do not speak MCP. @default false */
  restEndpoint?: boolean;
  /** How long `close()` waits for calls in flight. @default 10000 */
  drainTimeoutMs?: number;
  /** SSE reconnection delay advertised to clients in session mode (ms). @default 1000 */
  retryIntervalMs?: number;
  /** Session mode: sessions without a request for this long are closed (0 keeps them). @default 1800000 (30 min) */
  sessionIdleTimeoutMs?: number;
}

/** What a running HTTP server gives back. */
export interface HttpServerHandle {
  /** URL of the MCP endpoint, e.g. `http://127.0.0.1:3000/mcp`. */
  url: string;
  port: number;
  host: string;
  /** Stops accepting, drains calls in flight, closes sessions. */
  close(): Promise<void>;
}

/** Extra facts for `/health` (gateway mode adds upstream status and metrics). */
export type HealthProvider = () => Record<string, unknown>;

const loopbackHosts = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** True for a host name or address that only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  return loopbackHosts.has(host.toLowerCase()) || host.startsWith('127.');
}

function hostnameOf(hostHeader: string): string {
  if (hostHeader.startsWith('[')) return hostHeader.slice(0, hostHeader.indexOf(']') + 1).toLowerCase();
  const colon = hostHeader.lastIndexOf(':');
  return (colon === -1 ? hostHeader : hostHeader.slice(0, colon)).toLowerCase();
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers?: Record<string, string>,
): void {
  const text = JSON.stringify(body);
  // Status, headers and body in one writeHead/end, headers as a flat array: no header map to build.
  const raw = ['content-type', 'application/json', 'content-length', String(Buffer.byteLength(text))];
  if (headers !== undefined) for (const name in headers) raw.push(name, headers[name] as string);
  response.writeHead(status, raw);
  response.end(text);
}

const sseHeaders = ['content-type', 'text/event-stream', 'cache-control', 'no-cache'];

/** One JSON-RPC message as a Server-Sent Event. */
function sseEvent(message: unknown): string {
  return `event: message\ndata: ${JSON.stringify(message)}\n\n`;
}

function wireError(
  response: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers?: Record<string, string>,
): void {
  sendJson(response, status, createErrorResponse(null, code, message), headers);
}

/**
 * Reads a body up to `limit` bytes and calls `done` with it, from the request's 'end' event
 * itself (no promise turn between the last byte and the work on it); `undefined` when the client
 * went away or the body was too large (413 already answered).
 */
function readBody(
  request: IncomingMessage,
  response: ServerResponse,
  limit: number,
  done: (body: Buffer | undefined) => void,
): void {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    wireError(response, 413, JsonRpcErrorCode.InvalidRequest, `Request body larger than ${limit} bytes`, {
      connection: 'close',
    });
    request.resume();
    done(undefined);
    return;
  }
  // Usually the whole body is one chunk: no array until a second one comes.
  let first: Buffer | undefined;
  let more: Buffer[] | undefined;
  let size = 0;
  let finished = false;
  const gone = () => {
    if (finished) return;
    finished = true;
    done(undefined);
  };
  request.on('data', (chunk: Buffer) => {
    if (finished) return;
    size += chunk.length;
    if (size > limit) {
      finished = true;
      wireError(response, 413, JsonRpcErrorCode.InvalidRequest, `Request body larger than ${limit} bytes`, {
        connection: 'close',
      });
      request.resume();
      done(undefined);
      return;
    }
    if (first === undefined) first = chunk;
    else if (more === undefined) more = [first, chunk];
    else more.push(chunk);
  });
  request.on('end', () => {
    if (finished) return;
    finished = true;
    done(more !== undefined ? Buffer.concat(more, size) : (first ?? Buffer.alloc(0)));
  });
  // A client that goes away mid-body never sends 'end': give up, so shutdown does not wait for it.
  // 'close' follows every error too, and a request without an 'error' listener never throws one.
  request.on('close', gone);
}

/**
 * Reads the body and runs `next` on it within the 'end' event; settles when `next` has (at once
 * when the body never came).
 */
function withBody(
  request: IncomingMessage,
  response: ServerResponse,
  limit: number,
  next: (body: Buffer) => Promise<void> | undefined,
): Promise<void> {
  return new Promise((resolve, reject) => {
    readBody(request, response, limit, (body) => {
      if (body === undefined) {
        resolve();
        return;
      }
      try {
        resolve(next(body));
      } catch (error) {
        reject(error);
      }
    });
  });
}

interface SessionEntry {
  transport: StreamableHTTPServerTransport;
  session: McpSession;
  lastSeen: number;
}

/** Starts the HTTP server for `server`. */
export async function serveHttp(
  server: McpServer,
  options: HttpTransportOptions,
  health?: HealthProvider,
): Promise<HttpServerHandle> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  const maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const drainTimeoutMs = options.drainTimeoutMs ?? 10_000;
  const logger = server.logger;
  const loopback = isLoopbackHost(host);

  if (
    options.auth !== undefined &&
    options.auth.type !== 'oauth' &&
    (options.auth.type !== 'bearer' || !options.auth.token)
  ) {
    throw new SwitchboardError({
      code: 'CONFIG_INVALID',
      message: 'serve: auth must be { type: "bearer", token: "<non-empty token>" }.',
    });
  }
  if (!loopback && options.auth === undefined) {
    if (!options.allowUnauthenticated) {
      throw new SwitchboardError({
        code: 'CONFIG_INVALID',
        message: `serve: refusing to bind ${host} (reachable from other machines) without auth. Set auth: { type: "bearer", token } or, if a proxy authenticates, allowUnauthenticated: true.`,
        context: { host },
      });
    }
    logger.warn(
      `!!! WARNING: serving MCP on ${host} WITHOUT AUTHENTICATION. Anyone who can reach this port can call every tool. !!!`,
    );
  }

  const tokenDigest = options.auth?.type === 'bearer' ? digest(options.auth.token) : undefined;
  const protectedResource =
    options.auth?.type === 'oauth' ? createProtectedResource(options.auth, path) : undefined;
  const allowedHosts = new Set((options.allowedHosts ?? []).map((name) => name.toLowerCase()));
  const allowedOrigins = new Set((options.allowedOrigins ?? []).map((origin) => origin.toLowerCase()));

  let dispatcher: RequestDispatcher | undefined;
  const dispatcherReady = options.session
    ? undefined
    : createRequestDispatcher(server.createSession({ stateless: true })).then((created) => {
        dispatcher = created;
        return created;
      });
  const sessions = new Map<string, SessionEntry>();
  let inFlight = 0;
  let closing = false;
  let drained: (() => void) | undefined;

  // The last Host and Origin that passed: a client sends the same ones on every request.
  let lastAllowedHost: string | undefined;
  let lastAllowedOrigin: string | undefined;

  function checkHostAndOrigin(request: IncomingMessage, response: ServerResponse): boolean {
    const hostHeader = request.headers.host;
    if ((loopback || allowedHosts.size > 0) && (hostHeader === undefined || hostHeader !== lastAllowedHost)) {
      const hostname = hostHeader ? hostnameOf(hostHeader) : '';
      if (isLoopbackHost(hostname) || allowedHosts.has(hostname)) {
        lastAllowedHost = hostHeader;
      } else {
        wireError(
          response,
          403,
          -32000,
          `Forbidden: Host "${hostHeader ?? ''}" is not allowed (DNS rebinding protection).`,
        );
        return false;
      }
    }
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== 'null') {
      if (origin === lastAllowedOrigin) return true;
      let originHost = '';
      try {
        originHost = new URL(origin).hostname;
      } catch {}
      if (!isLoopbackHost(originHost) && !allowedOrigins.has(origin.toLowerCase())) {
        wireError(response, 403, -32000, `Forbidden: Origin "${origin}" is not allowed.`);
        return false;
      }
      lastAllowedOrigin = origin;
    } else if (origin === 'null') {
      wireError(response, 403, -32000, 'Forbidden: Origin "null" is not allowed.');
      return false;
    }
    return true;
  }

  function checkAuth(request: IncomingMessage, response: ServerResponse): boolean {
    if (tokenDigest === undefined) return true;
    const header = request.headers.authorization ?? '';
    const given = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
    // Comparing fixed-length digests keeps the time independent of the token and of its length.
    if (given !== '' && timingSafeEqual(digest(given), tokenDigest)) return true;
    wireError(response, 401, -32001, 'Unauthorized: send Authorization: Bearer <token>.', {
      'www-authenticate': 'Bearer realm="mcp"',
    });
    return false;
  }

  async function handleStatelessPost(
    request: IncomingMessage,
    response: ServerResponse,
    body: unknown,
  ): Promise<void> {
    const active = dispatcher ?? (await (dispatcherReady as Promise<RequestDispatcher>));
    const extra = { requestInfo: { headers: request.headers } };
    const stream = !options.json && (request.headers.accept ?? '').includes('text/event-stream');
    // A batch registers one 'close' listener for all its requests, not one each.
    let cancels: Array<() => void> | undefined;
    const onCancel = (cancel: () => void) => {
      if (cancels !== undefined) {
        cancels.push(cancel);
        return;
      }
      cancels = [cancel];
      response.on('close', () => {
        if (!response.writableFinished) for (const run of cancels as Array<() => void>) run();
      });
    };

    // One message (the common case): no arrays, no Promise.all.
    if (!Array.isArray(body)) {
      const checked = checkJsonRpcMessage(body);
      if ('error' in checked) {
        sendJson(response, 400, checked.error);
        return;
      }
      const message = checked.message;
      if (!isRequestMessage(message)) {
        active.notify(message, extra);
        response.writeHead(202).end();
        return;
      }
      if (!stream) {
        // A request answered synchronously is written at once, without a turn of the event loop.
        const answer = active.request(message, { onCancel, extra });
        const settled = answer instanceof Promise ? await answer : answer;
        if (!response.destroyed) sendJson(response, 200, settled);
        return;
      }
      response.writeHead(200, sseHeaders);
      const writeEvent = (event: unknown) => {
        if (!response.destroyed) response.write(sseEvent(event));
      };
      const answer = active.request(message, { onCancel, extra, onNotification: writeEvent });
      if (answer instanceof Promise) {
        writeEvent(await answer);
        response.end();
      } else if (!response.destroyed) {
        response.end(sseEvent(answer));
      }
      return;
    }

    const checked = checkJsonRpcValue(body);
    const items: CheckedMessage[] = Array.isArray(checked) ? checked : [checked];
    const requests: Array<Extract<JSONRPCMessage, { id: string | number; method: string }>> = [];
    const answers: JSONRPCMessage[] = [];
    for (const item of items) {
      if ('error' in item) answers.push(item.error as unknown as JSONRPCMessage);
      else if (isRequestMessage(item.message)) requests.push(item.message);
      else active.notify(item.message, extra);
    }
    if (requests.length === 0) {
      if (answers.length === 0) {
        response.writeHead(202).end();
        return;
      }
      // An empty batch is one error, not a batch of them.
      sendJson(response, Array.isArray(checked) ? 200 : 400, Array.isArray(checked) ? answers : answers[0]);
      return;
    }
    if (!stream) {
      const responses = await Promise.all(
        requests.map((message) => active.request(message, { onCancel, extra })),
      );
      if (!response.destroyed) sendJson(response, 200, answers.concat(responses));
      return;
    }
    response.writeHead(200, sseHeaders);
    const writeEvent = (event: unknown) => {
      if (!response.destroyed) response.write(sseEvent(event));
    };
    for (const answer of answers) writeEvent(answer);
    await Promise.all(
      requests.map((message) =>
        Promise.resolve(active.request(message, { onCancel, extra, onNotification: writeEvent })).then(
          writeEvent,
        ),
      ),
    );
    response.end();
  }

  async function handleSessionRequest(
    request: IncomingMessage,
    response: ServerResponse,
    body: unknown,
  ): Promise<void> {
    const sessionId = request.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const entry = sessions.get(sessionId);
      if (entry !== undefined) entry.lastSeen = Date.now();
      if (entry === undefined) {
        wireError(
          response,
          404,
          -32001,
          `Session not found: "${sessionId}" (expired or closed); initialize a new session.`,
        );
        return;
      }
      await entry.transport.handleRequest(request, response, body);
      return;
    }
    const isInitialize =
      request.method === 'POST' &&
      typeof body === 'object' &&
      body !== null &&
      !Array.isArray(body) &&
      (body as { method?: unknown }).method === 'initialize';
    if (!isInitialize) {
      if (request.method === 'POST' && body !== undefined) {
        const checked = checkJsonRpcValue(body);
        if (!Array.isArray(checked) && 'error' in checked) {
          sendJson(response, 400, checked.error);
          return;
        }
      }
      wireError(response, 400, -32000, 'Bad Request: no Mcp-Session-Id header; send initialize first.');
      return;
    }
    const session = server.createSession();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      enableJsonResponse: options.json ?? false,
      eventStore: createMemoryEventStore(),
      retryInterval: options.retryIntervalMs ?? 1000,
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, session, lastSeen: Date.now() });
      },
    });
    await session.connect(transport);
    // Chained after connect, which installs the protocol's own close handler.
    const forwardClose = transport.onclose;
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
      forwardClose?.();
    };
    await transport.handleRequest(request, response, body);
  }

  async function handleMcp(
    request: IncomingMessage,
    response: ServerResponse,
    verified?: VerifiedToken,
  ): Promise<void> {
    const method = request.method ?? 'GET';
    if (method === 'POST') {
      const contentType = request.headers['content-type'] ?? '';
      if (!contentType.includes('application/json')) {
        wireError(
          response,
          415,
          JsonRpcErrorCode.InvalidRequest,
          'Unsupported Media Type: Content-Type must be application/json',
        );
        request.resume();
        return;
      }
      const accept = request.headers.accept;
      if (
        accept !== undefined &&
        !accept.includes('application/json') &&
        !accept.includes('text/event-stream') &&
        !accept.includes('*/*')
      ) {
        wireError(
          response,
          406,
          JsonRpcErrorCode.InvalidRequest,
          'Not Acceptable: Accept must include application/json',
        );
        request.resume();
        return;
      }
      await withBody(request, response, maxBodyBytes, (raw) => {
        let body: unknown;
        try {
          body = JSON.parse(raw.toString('utf8'));
        } catch {
          wireError(response, 400, JsonRpcErrorCode.ParseError, 'Parse error: the body is not valid JSON');
          return undefined;
        }
        if (
          verified &&
          protectedResource &&
          !protectedResource.allowsCalls(verified, body, request, response)
        ) {
          return undefined;
        }
        return options.session
          ? handleSessionRequest(request, response, body)
          : handleStatelessPost(request, response, body);
      });
      return;
    }
    if ((method === 'GET' || method === 'DELETE') && options.session) {
      await handleSessionRequest(request, response, undefined);
      return;
    }
    wireError(
      response,
      405,
      -32000,
      `Method not allowed: ${method} (this endpoint is stateless; use POST).`,
      {
        allow: options.session ? 'GET, POST, DELETE' : 'POST',
      },
    );
    request.resume();
  }

  async function handleRest(
    request: IncomingMessage,
    response: ServerResponse,
    verified?: VerifiedToken,
  ): Promise<void> {
    const raw = await new Promise<Buffer | undefined>((resolve) =>
      readBody(request, response, maxBodyBytes, resolve),
    );
    if (raw === undefined) return;
    let body: { tool?: unknown; input?: unknown };
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      sendJson(response, 400, { error: { code: 'INVALID_JSON', message: 'The body is not valid JSON.' } });
      return;
    }
    if (typeof body !== 'object' || body === null || typeof body.tool !== 'string') {
      sendJson(response, 400, {
        error: { code: 'INVALID_ARGUMENT', message: 'Send {"tool": "<name>", "input": {...}}.' },
      });
      return;
    }
    const asCall = { method: 'tools/call', params: { name: body.tool } };
    if (
      verified &&
      protectedResource &&
      !protectedResource.allowsCalls(verified, asCall, request, response)
    ) {
      return;
    }
    const abort = new AbortController();
    response.on('close', () => {
      if (!response.writableFinished) abort.abort();
    });
    try {
      const result = await server.callTool(body.tool, body.input ?? {}, { signal: abort.signal });
      sendJson(response, result.isError ? 422 : 200, result);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const unknownTool = message.startsWith('MCP error -32602: Unknown tool');
      sendJson(response, unknownTool ? 404 : 500, {
        error: {
          code: unknownTool ? 'TOOL_NOT_FOUND' : 'SERVER_ERROR',
          message: message.replace(/^MCP error -?\d+: /, ''),
        },
      });
    }
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = request.url ?? '/';
    const query = url.indexOf('?');
    const pathname = query === -1 ? url : url.slice(0, query);
    if (!checkHostAndOrigin(request, response)) {
      request.resume();
      return;
    }
    if (protectedResource?.serveMetadata(request, response, pathname)) return;
    if (pathname === '/health' && request.method === 'GET') {
      const authorized =
        (tokenDigest === undefined && protectedResource === undefined) ||
        (() => {
          const header = request.headers.authorization ?? '';
          const given = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
          return tokenDigest !== undefined && given !== '' && timingSafeEqual(digest(given), tokenDigest);
        })();
      sendJson(response, closing ? 503 : 200, {
        status: closing ? 'closing' : 'ok',
        name: server.name,
        version: server.version,
        mode: options.session ? 'session' : 'stateless',
        ...(authorized
          ? { sessions: sessions.size, inFlight, tools: server.listTools().length, ...health?.() }
          : {}),
      });
      return;
    }
    const isMcp = pathname === path;
    const isRest = options.restEndpoint === true && pathname === '/v1/tool-execute';
    if (!isMcp && !isRest) {
      sendJson(response, 404, {
        error: { code: 'NOT_FOUND', message: `No endpoint at ${pathname}; MCP is at ${path}.` },
      });
      request.resume();
      return;
    }
    if (closing) {
      wireError(response, 503, -32000, 'Server is shutting down.', { connection: 'close' });
      request.resume();
      return;
    }
    if (!checkAuth(request, response)) {
      request.resume();
      return;
    }
    let verified: VerifiedToken | undefined;
    if (protectedResource) {
      verified = await protectedResource.authenticate(request, response);
      if (!verified) {
        request.resume();
        return;
      }
    }
    if (isRest) {
      if (request.method !== 'POST') {
        sendJson(
          response,
          405,
          { error: { code: 'METHOD_NOT_ALLOWED', message: 'Use POST.' } },
          { allow: 'POST' },
        );
        request.resume();
        return;
      }
      await handleRest(request, response, verified);
      return;
    }
    await handleMcp(request, response, verified);
  }

  function failed(response: ServerResponse, error: unknown): void {
    logger.error({ error: error instanceof Error ? error.message : String(error) }, 'HTTP request failed');
    if (!response.headersSent) wireError(response, 500, JsonRpcErrorCode.InternalError, 'Internal error');
    else response.end();
  }
  function settled(): void {
    inFlight -= 1;
    if (inFlight === 0) drained?.();
  }

  const httpServer: NodeHttpServer = createServer((request, response) => {
    // A GET SSE stream in session mode stays open for the session's life: it is not a call to drain.
    if (request.method === 'GET' && pathnameIsMcp(request.url)) {
      handle(request, response).catch((error: unknown) => failed(response, error));
      return;
    }
    inFlight += 1;
    handle(request, response).then(settled, (error: unknown) => {
      try {
        failed(response, error);
      } finally {
        settled();
      }
    });
  });
  function pathnameIsMcp(url: string | undefined): boolean {
    const value = url ?? '/';
    const query = value.indexOf('?');
    return (query === -1 ? value : value.slice(0, query)) === path;
  }
  httpServer.keepAliveTimeout = 65_000;

  // Clients that vanish without DELETE must not hold sessions (and their memory) forever.
  const idleTimeoutMs = options.sessionIdleTimeoutMs ?? 30 * 60 * 1000;
  const sweeper =
    options.session && idleTimeoutMs > 0
      ? setInterval(
          () => {
            const cutoff = Date.now() - idleTimeoutMs;
            for (const [id, entry] of sessions) {
              if (entry.lastSeen >= cutoff) continue;
              sessions.delete(id);
              logger.info(`closing MCP session ${id}: idle for more than ${idleTimeoutMs} ms`);
              void entry.transport.close().catch(() => {});
              void entry.session.close().catch(() => {});
            }
          },
          Math.max(50, Math.min(idleTimeoutMs / 2, 60_000)),
        ).unref()
      : undefined;

  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port ?? 3000, host, () => {
      httpServer.off('error', reject);
      resolve();
    });
  });
  if (dispatcherReady) await dispatcherReady;
  const address = httpServer.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${urlHost}:${address.port}${path}`;
  logger.info(
    `MCP server "${server.name}" listening on ${url} (${options.session ? 'session' : 'stateless'} mode)`,
  );

  let closed: Promise<void> | undefined;
  return {
    url,
    port: address.port,
    host,
    close() {
      closed ??= (async () => {
        closing = true;
        if (sweeper) clearInterval(sweeper);
        const stopped = new Promise<void>((resolve) => httpServer.close(() => resolve()));
        httpServer.closeIdleConnections();
        if (inFlight > 0) {
          await Promise.race([
            new Promise<void>((resolve) => {
              drained = resolve;
            }),
            new Promise<void>((resolve) => setTimeout(resolve, drainTimeoutMs).unref()),
          ]);
        }
        await Promise.all(
          [...sessions.values()].map(async ({ transport, session }) => {
            await transport.close().catch(() => {});
            await session.close().catch(() => {});
          }),
        );
        sessions.clear();
        await dispatcher?.close();
        httpServer.closeAllConnections();
        await stopped;
      })();
      return closed;
    },
  };
}
