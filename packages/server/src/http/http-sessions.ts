/**
 * The 2025 sessions of an HTTP server: `initialize` opens one (`Mcp-Session-Id`), later POSTs are
 * served on it, GET opens its stream (or resumes one), DELETE ends it; idle sessions are swept.
 * Messages are dispatched through the same dispatcher as everything else, with the session.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JSONRPCMessage, JSONRPCRequest } from '@modelcontextprotocol/server';
import type { RequestAuth } from '../dispatch/inbound-request.js';
import type { RequestDispatcher } from '../dispatch/request-dispatcher.js';
import { JsonRpcErrorCode } from '../errors/json-rpc-error-code.js';
import { isNotificationMessage, isRequestMessage } from '../protocol/json-rpc-message.js';
import { legacyProtocolVersions } from '../protocol/protocol-versions.js';
import type { McpServer } from '../server/mcp-server.js';
import { CallAbort } from '../tools/call-abort.js';
import { isPromiseLike } from '../tools/to-call-tool-result.js';
import { failure, type GuardResult, writeFailure } from './http-failure.js';
import { HttpSession } from './http-session.js';
import { headerValue } from './validate-standard-headers.js';

/** Options of {@link HttpSessions}. */
export interface HttpSessionsOptions {
  retryIntervalMs: number;
  /** Sessions idle longer are closed (0: never). */
  idleTimeoutMs: number;
  logger: McpServer['logger'];
}

/** The sessions of one HTTP server. */
export class HttpSessions {
  readonly #server: McpServer;
  readonly #dispatcher: RequestDispatcher;
  readonly #options: HttpSessionsOptions;
  readonly #sessions = new Map<string, HttpSession>();
  readonly #sweeper: NodeJS.Timeout | undefined;

  constructor(server: McpServer, options: HttpSessionsOptions) {
    this.#server = server;
    this.#dispatcher = server.dispatcher;
    this.#options = options;
    const idle = options.idleTimeoutMs;
    // Clients that vanish without DELETE must not hold sessions (and their memory) forever.
    this.#sweeper =
      idle > 0
        ? setInterval(() => this.#sweep(), Math.max(50, Math.min(idle / 2, 60_000))).unref()
        : undefined;
  }

  /** Open sessions. */
  get size(): number {
    return this.#sessions.size;
  }

  /** Serves a 2025 POST (one message or a batch) on its session, or opens one with `initialize`. */
  post(
    request: IncomingMessage,
    response: ServerResponse,
    messages: JSONRPCMessage[],
    sse: boolean,
    auth?: RequestAuth,
  ): Promise<void> | undefined {
    const found = this.#sessionOf(request, messages);
    if (!found.ok) {
      writeFailure(response, found);
      return undefined;
    }
    const http = found.session;
    const session = http.session;
    const requests: JSONRPCRequest[] = [];
    for (const message of messages) {
      if (isRequestMessage(message)) requests.push(message);
      else if (isNotificationMessage(message)) {
        if (message.method === 'notifications/cancelled') {
          const params = message.params as { requestId?: string | number; reason?: unknown } | undefined;
          if (params?.requestId !== undefined) session.cancel(params.requestId, params.reason);
        }
      } else session.resolveResponse(message as never);
    }
    if (requests.length === 0) {
      response.writeHead(202, ['mcp-session-id', http.id]).end();
      return undefined;
    }
    http.openPostStream(
      response,
      requests.map((message) => message.id),
      sse,
    );
    const settled: Array<Promise<void>> = [];
    for (const message of requests) {
      const answer = this.#dispatcher.dispatch({
        id: message.id,
        method: message.method,
        params: message.params as Record<string, unknown> | undefined,
        era: 'legacy',
        session,
        abort: new CallAbort(),
        ...(auth !== undefined ? { auth } : {}),
        channel: {
          notify: (notification) => http.send(notification, message.id),
          closeStream: () => http.closeRequestStream(message.id),
        },
      });
      if (isPromiseLike(answer)) settled.push(answer.then((value) => http.answer(message.id, value)));
      else http.answer(message.id, answer);
    }
    return settled.length === 0 ? undefined : Promise.all(settled).then(() => undefined);
  }

  /** A GET: the session's stream, or a resumed one (`Last-Event-ID`). */
  get(request: IncomingMessage, response: ServerResponse): void {
    const found = this.#existing(request);
    if (!found.ok) {
      writeFailure(response, found);
      return;
    }
    const opened = found.session.openGetStream(response, headerValue(request.headers, 'last-event-id'));
    if (!opened.ok) writeFailure(response, opened);
  }

  /** A DELETE: ends the session. */
  delete(request: IncomingMessage, response: ServerResponse): void {
    const found = this.#existing(request);
    if (!found.ok) {
      writeFailure(response, found);
      return;
    }
    this.#end(found.session, 'The client ended the session.');
    response.writeHead(200).end();
  }

  /** Ends every session (shutdown). */
  close(): void {
    if (this.#sweeper !== undefined) clearInterval(this.#sweeper);
    for (const session of [...this.#sessions.values()]) this.#end(session, 'The server is shutting down.');
  }

  #existing(request: IncomingMessage): GuardResult<{ session: HttpSession }> {
    const id = headerValue(request.headers, 'mcp-session-id');
    if (id === undefined) {
      return failure(
        400,
        JsonRpcErrorCode.TransportRefused,
        'Bad Request: the Mcp-Session-Id header is required; send initialize first.',
      );
    }
    const session = this.#sessions.get(id);
    if (session === undefined) {
      return failure(
        404,
        JsonRpcErrorCode.SessionNotFound,
        `Session not found: "${id}" (expired or closed); initialize a new session.`,
      );
    }
    const version = headerValue(request.headers, 'mcp-protocol-version');
    if (version !== undefined && !legacyProtocolVersions.includes(version)) {
      return failure(
        400,
        JsonRpcErrorCode.TransportRefused,
        `Bad Request: unsupported MCP-Protocol-Version ${version} for a 2025 session (supported: ${legacyProtocolVersions.join(', ')}).`,
      );
    }
    session.session.lastSeen = Date.now();
    return { ok: true, session };
  }

  #sessionOf(request: IncomingMessage, messages: JSONRPCMessage[]): GuardResult<{ session: HttpSession }> {
    const opens = messages.some((message) => isRequestMessage(message) && message.method === 'initialize');
    if (!opens || headerValue(request.headers, 'mcp-session-id') !== undefined) {
      const found = this.#existing(request);
      return found.ok || messages.length !== 1
        ? found
        : { ...found, id: (messages[0] as { id?: string | number }).id ?? null };
    }
    const http = new HttpSession(this.#options.retryIntervalMs);
    http.session = this.#server.createSession(http, http.id);
    this.#sessions.set(http.id, http);
    http.session.onClose(() => {
      this.#sessions.delete(http.id);
      http.close();
    });
    return { ok: true, session: http };
  }

  #end(session: HttpSession, reason: string): void {
    this.#sessions.delete(session.id);
    session.session.close(reason);
    session.close();
  }

  #sweep(): void {
    const cutoff = Date.now() - this.#options.idleTimeoutMs;
    for (const session of [...this.#sessions.values()]) {
      if (session.session.lastSeen >= cutoff) continue;
      this.#options.logger.info(
        `closing MCP session ${session.id}: idle for more than ${this.#options.idleTimeoutMs} ms`,
      );
      this.#end(session, 'The session was idle too long.');
    }
  }
}
