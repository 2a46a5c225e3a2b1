/**
 * The Streamable HTTP client transport, both protocol eras on one URL: a modern (2026-07-28) request
 * carries the standard headers on a POST stream of its own, which closing cancels; 2025-era traffic
 * gets the session id, the optional GET stream and resumption with `Last-Event-ID`; an `initialize`
 * a legacy server refuses falls back to HTTP+SSE. On `node:http` with one keep-alive agent (bounded
 * sockets) and each body parsed once; a failed POST reaches the SDK's version negotiation as the
 * SDK's own `SdkHttpError`, whose status and body it reads.
 */
import http from 'node:http';
import https from 'node:https';
import { urlToHttpOptions } from 'node:url';
import {
  type JSONRPCMessage,
  type JSONRPCRequest,
  type MessageExtraInfo,
  type OAuthClientProvider,
  SdkErrorCode,
  SdkHttpError,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/client';
import { type Logger, silentLogger } from '@switchboard/core';
import { HttpAuthorization } from './http-authorization.js';
import { createStaticHeaders } from './http-headers.js';
import { JsonRpcErrorCode, modernErrorCodes } from './json-rpc-error-code.js';
import { excerpt, parseJsonRpcMessages } from './json-rpc-message.js';
import {
  addStandardRequestHeaders,
  envelopeProtocolVersion,
  reservedRequestHeaders,
} from './mcp-request-headers.js';
import { redactUrl } from './redact-url.js';
import { type HttpSendOptions, type RequestAbort, requestAbortOf } from './request-abort.js';
import { ServerSentEventParser } from './server-sent-event-parser.js';
import { TransportError, TransportErrorCode } from './transport-error.js';

/** How lost SSE streams are resumed (2025 era; modern streams are not resumable). */
export interface StreamReconnectionOptions {
  /** First delay when the server gave no `retry`. @default 1000 */
  initialDelayMs?: number;
  /** Largest delay. @default 30000 */
  maxDelayMs?: number;
  /** Factor applied to the delay after each failed attempt. @default 1.5 */
  growFactor?: number;
  /** Attempts before giving up on a stream. @default 2 */
  maxRetries?: number;
}

/** Options of {@link createStreamableHttpTransport}. */
export interface StreamableHttpTransportOptions {
  /** The server's MCP endpoint, e.g. `https://example.com/mcp`. */
  url: string | URL;
  /** Headers sent with every request. Never logged. */
  headers?: Record<string, string>;
  /** Sent as `Authorization: Bearer <token>`. Never logged. */
  bearerToken?: string;
  /** Server name used in logs and errors. @default the URL's host */
  name?: string;
  /** Receives lifecycle events. @default silentLogger */
  logger?: Logger;
  /**
   * On a 4xx answer to `initialize` whose body is no modern JSON-RPC error, switch to the legacy
   * HTTP+SSE protocol on the same URL, as the spec's backwards-compatibility section describes.
   * @default true
   */
  sseFallback?: boolean;
  /** Resume an existing (2025-era) session instead of starting one. */
  sessionId?: string;
  /**
   * The HTTP(S) agent; by default a keep-alive agent of this transport (at most 64 sockets, so a
   * burst of concurrent calls queues instead of opening a socket each), destroyed on close.
   */
  agent?: http.Agent;
  /** Resumption of interrupted SSE streams (2025 era). */
  reconnection?: StreamReconnectionOptions;
  /**
   * OAuth for servers that follow the MCP authorization spec: the access token goes into every
   * request; a 401 runs the flow (discovery, registration, sign-in or refresh) and retries once; a
   * 403 `insufficient_scope` asks for the missing scopes. Use `createOAuthProvider` or any SDK
   * `OAuthClientProvider`. Tokens are never logged.
   */
  authProvider?: OAuthClientProvider;
}

/**
 * What the Streamable HTTP transport tells about an incoming message besides the message itself:
 * the request whose response stream carried it (a 2025-era server request that belongs to a call).
 */
export interface HttpMessageExtraInfo extends MessageExtraInfo {
  /** The request whose POST response stream carried this message; absent on the standalone stream. */
  relatedRequest?: JSONRPCRequest;
}

/** A Streamable HTTP transport: the SDK `Transport` plus what it found out about the server. */
export interface StreamableHttpTransport extends Transport {
  /** True once the server refused Streamable HTTP and the session runs over legacy HTTP+SSE. */
  readonly usesSseFallback: boolean;
}

/** Creates a client transport for MCP's Streamable HTTP protocol, both eras (with legacy SSE fallback). */
export function createStreamableHttpTransport(
  options: StreamableHttpTransportOptions,
): StreamableHttpTransport {
  return new NodeStreamableHttpTransport(options);
}

interface StreamContext {
  /** The request this stream answers (a POST's, or one being resumed); undefined for the standalone GET stream. */
  request: JSONRPCRequest | undefined;
  /** Set once the response to `request` arrived: the stream needs no resumption after that. */
  answered: boolean;
  /** 2025-era streams can be resumed with `Last-Event-ID`; modern ones cannot. */
  resumable: boolean;
  onResumptionToken: ((token: string) => void) | undefined;
  /** Ended by the caller: the stream was closed on purpose (the modern cancellation signal). */
  abort: RequestAbort | undefined;
  /** Told when the stream ends for any other reason than `abort`. */
  onRequestStreamEnd: (() => void) | undefined;
}

const acceptBoth = 'application/json, text/event-stream';

function isRequest(message: JSONRPCMessage): message is JSONRPCRequest {
  return 'method' in message && 'id' in message;
}

function isInitializeRequest(message: JSONRPCMessage): boolean {
  return isRequest(message) && message.method === 'initialize';
}

/** Reads a whole (small) body as text. */
function readBody(response: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    // Decoded as it arrives (the decoder keeps a character split across chunks whole).
    let text = '';
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      text += chunk;
    });
    response.once('end', () => resolve(text));
    // An aborted response ends in 'error' (ECONNRESET) since Node 16; 'close' before 'end' means
    // it never completed.
    response.once('error', reject);
    response.once('close', () => {
      if (!response.complete) reject(new Error('response aborted'));
    });
  });
}

/** The JSON-RPC error response in a body, if the body is one answering `id`. */
function jsonRpcErrorAnswering(text: string, id: JSONRPCRequest['id']): JSONRPCMessage | undefined {
  const messages = parseJsonRpcMessages(text);
  const [message] = messages ?? [];
  if (messages?.length !== 1 || !message || !('error' in message)) return undefined;
  return message.id === id ? message : undefined;
}

/** The JSON-RPC error code of a body, when the body is a JSON-RPC error response. */
function jsonRpcErrorCode(text: string): number | undefined {
  const [message] = parseJsonRpcMessages(text) ?? [];
  return message && 'error' in message ? message.error.code : undefined;
}

class NodeStreamableHttpTransport implements StreamableHttpTransport {
  onmessage?: Transport['onmessage'];
  onerror?: Transport['onerror'];
  onclose?: Transport['onclose'];
  sessionId?: string | undefined;
  /** One POST per request: on a modern connection closing its stream is the cancellation signal. */
  readonly hasPerRequestStream = true;
  /** Takes `onAbortable` in the send options (see `request-abort.ts`). */
  readonly acceptsAbortHandle = true;

  private readonly url: URL;
  /** The URL as request options, converted once (not per request). */
  private readonly target: http.RequestOptions;
  private readonly safeUrl: string;
  private readonly name: string;
  private readonly logger: Logger;
  private readonly staticHeaders: Record<string, string>;
  private readonly agent: http.Agent;
  private readonly ownsAgent: boolean;
  private readonly client: typeof http | typeof https;
  private readonly reconnection: Required<StreamReconnectionOptions>;
  private readonly authorization: HttpAuthorization;
  private protocolVersion: string | undefined;
  private readonly inFlight = new Set<http.ClientRequest>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private fallback: Transport | undefined;
  private closed = false;
  private standaloneStreamOpened = false;

  constructor(private readonly options: StreamableHttpTransportOptions) {
    this.url = new URL(options.url);
    // Only what a request needs of the URL (a spread of these per request, not of every URL field).
    const { protocol, hostname, port, path, auth } = urlToHttpOptions(this.url);
    this.target = { protocol, hostname, port, path, ...(auth ? { auth } : {}) };
    this.safeUrl = redactUrl(this.url);
    this.name = options.name ?? this.url.host;
    this.logger = options.logger ?? silentLogger;
    this.staticHeaders = createStaticHeaders(options.headers, options.bearerToken);
    this.client = this.url.protocol === 'https:' ? https : http;
    this.ownsAgent = options.agent === undefined;
    this.agent = options.agent ?? new this.client.Agent({ keepAlive: true, maxSockets: 64 });
    this.sessionId = options.sessionId;
    this.reconnection = {
      initialDelayMs: options.reconnection?.initialDelayMs ?? 1000,
      maxDelayMs: options.reconnection?.maxDelayMs ?? 30_000,
      growFactor: options.reconnection?.growFactor ?? 1.5,
      maxRetries: options.reconnection?.maxRetries ?? 2,
    };
    this.authorization = new HttpAuthorization(options.authProvider, this.url, this.name, (detail) =>
      this.describe(detail),
    );
  }

  async start(): Promise<void> {
    if (this.closed)
      throw this.error(TransportErrorCode.TransportError, 'the transport was closed; create a new one');
  }

  get usesSseFallback(): boolean {
    return this.fallback !== undefined;
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
    this.fallback?.setProtocolVersion?.(version);
  }

  private describe(detail: string): string {
    return `MCP server "${this.name}" (${this.safeUrl}): ${detail}`;
  }

  private error(
    code: TransportErrorCode,
    detail: string,
    context: Record<string, unknown> = {},
    cause?: unknown,
    status?: number,
  ): TransportError {
    return new TransportError({
      code,
      message: this.describe(detail),
      ...(status === undefined ? {} : { status }),
      context: { server: this.name, url: this.safeUrl, ...context },
      cause,
    });
  }

  /** The headers of one message: static ones, the session (2025 era), the standard modern headers, the caller's. */
  private messageHeaders(message: JSONRPCMessage, body: string, extra: TransportSendOptions['headers']) {
    const headers: Record<string, string> = {
      ...this.staticHeaders,
      accept: acceptBoth,
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
    };
    // A new session starts without a session id (2025-11-25 "Session Management").
    if (this.sessionId !== undefined && !isInitializeRequest(message))
      headers['mcp-session-id'] = this.sessionId;
    addStandardRequestHeaders(headers, message, this.protocolVersion);
    if (extra) {
      for (const [name, value] of Object.entries(extra)) {
        const key = name.toLowerCase();
        if (!reservedRequestHeaders.has(key)) headers[key] = value;
      }
    }
    return headers;
  }

  private streamHeaders(extra?: Record<string, string>): Record<string, string> {
    const headers: Record<string, string> = { ...this.staticHeaders, accept: 'text/event-stream' };
    if (this.sessionId !== undefined) headers['mcp-session-id'] = this.sessionId;
    if (this.protocolVersion !== undefined) headers['mcp-protocol-version'] = this.protocolVersion;
    return extra ? Object.assign(headers, extra) : headers;
  }

  /** Sends a request; a DPoP `use_dpop_nonce` challenge is answered once, with a fresh proof carrying the nonce. */
  private request(
    method: string,
    headers: Record<string, string>,
    body?: string,
    abort?: RequestAbort,
  ): Promise<http.IncomingMessage> {
    // Without OAuth there is no token to add and no nonce to answer: no turns spent on either.
    if (!this.authorization.active) return this.requestOnce(method, headers, body, abort);
    return this.authorizedRequest(method, headers, body, abort);
  }

  /** A request when OAuth takes part: the token (if any) in, a DPoP nonce challenge answered once. */

  private async authorizedRequest(
    method: string,
    headers: Record<string, string>,
    body?: string,
    abort?: RequestAbort,
  ): Promise<http.IncomingMessage> {
    const adding = this.authorization.authorizationHeaders(headers, { method, url: this.url });
    if (adding) await adding;
    const response = await this.requestOnce(method, headers, body, abort);
    const retry = this.authorization.nonceRetry(response);
    if (retry === false || !(await retry)) return response;
    response.resume();
    await this.authorization.authorizationHeaders(headers, { method, url: this.url });
    return this.requestOnce(method, headers, body, abort);
  }

  private requestOnce(
    method: string,
    headers: Record<string, string>,
    body?: string,
    abort?: RequestAbort,
  ): Promise<http.IncomingMessage> {
    return new Promise((resolve, reject) => {
      const request = this.client.request({ ...this.target, method, headers, agent: this.agent });
      this.inFlight.add(request);
      const unwatch = abort?.watch(request);
      request.once('response', (response) => {
        response.once('close', () => {
          this.inFlight.delete(request);
          unwatch?.();
        });
        resolve(response);
      });
      request.once('error', (cause: NodeJS.ErrnoException) => {
        this.inFlight.delete(request);
        unwatch?.();
        if (this.closed || abort?.aborted) {
          reject(this.error(TransportErrorCode.ConnectionClosed, 'the request was closed', {}, cause));
          return;
        }
        const advice =
          cause.code === 'ECONNREFUSED'
            ? 'connection refused (ECONNREFUSED). Check that the server is running and that the URL and port are right.'
            : cause.code === 'ENOTFOUND'
              ? `host not found (ENOTFOUND). Check the URL's host name.`
              : `${method} failed: ${cause.message}${cause.code ? ` (${cause.code})` : ''}.`;
        reject(this.error(TransportErrorCode.ConnectionFailed, advice, { method, errno: cause.code }, cause));
      });
      request.end(body);
    });
  }

  async send(message: JSONRPCMessage, options?: HttpSendOptions): Promise<void> {
    if (this.fallback) return this.fallback.send(message, options);
    if (this.closed)
      throw this.error(TransportErrorCode.ConnectionClosed, 'cannot send: the transport is closed');
    if (options?.requestSignal?.aborted) return;
    const abort = requestAbortOf(options);
    if (options?.resumptionToken !== undefined) {
      this.resumeStream(options.resumptionToken, this.streamContext(message, options, true, abort));
      return;
    }
    try {
      await this.post(message, options, abort, 0);
    } catch (error) {
      if (!abort?.aborted) this.onerror?.(error as Error);
      throw error;
    }
  }

  private streamContext(
    message: JSONRPCMessage,
    options: TransportSendOptions | undefined,
    resumable: boolean,
    abort: RequestAbort | undefined,
  ): StreamContext {
    return {
      request: isRequest(message) ? message : undefined,
      answered: false,
      resumable,
      onResumptionToken: options?.onresumptiontoken,
      abort,
      onRequestStreamEnd: options?.onRequestStreamEnd,
    };
  }

  /** POSTs one message and dispatches the answer; retries after authorization. */
  private async post(
    message: JSONRPCMessage,
    options: TransportSendOptions | undefined,
    abort: RequestAbort | undefined,
    authorizations: number,
  ): Promise<void> {
    const body = JSON.stringify(message);
    const response = await this.request(
      'POST',
      this.messageHeaders(message, body, options?.headers),
      body,
      abort,
    );
    const status = response.statusCode ?? 0;
    if (status >= 200 && status < 300) return this.accept(message, options, abort, response);

    const challenge = await this.authorization.answerChallenge(response, authorizations);
    if (challenge) {
      response.resume();
      if (challenge.retry) return this.post(message, options, abort, authorizations + 1);
      throw challenge.error;
    }
    const text = await readBody(response).catch(() => '');
    if (this.answerInBand(message, status, text)) return;
    if (isInitializeRequest(message) && this.shouldFallBackToSse(status, text)) {
      return this.fallBackToSse(message, status, text);
    }
    if (this.isSessionRejection(message, status, text)) {
      // The session id is a credential of sorts: it stays out of the error.
      this.sessionId = undefined;
      throw this.error(
        TransportErrorCode.SessionExpired,
        `the server no longer knows this session (HTTP ${status}). Re-initialize to start a new session.`,
        {},
        undefined,
        status,
      );
    }
    // The SDK's own error type: its protocol-version negotiation reads the status and body.
    throw new SdkHttpError(
      SdkErrorCode.ClientHttpNotImplemented,
      this.describe(`POST answered HTTP ${status}${text ? `: ${excerpt(text)}` : ''}`),
      {
        status,
        ...(response.statusMessage === undefined ? {} : { statusText: response.statusMessage }),
        text,
      },
    );
  }

  /**
   * A 4xx whose body is the JSON-RPC error answering the request goes to the protocol layer as
   * that error when the server is modern: the request carried a modern envelope (as the SDK's own
   * transport does), or the error is one only a modern server sends (a 2025 `initialize` sent to
   * a modern-only server: no SSE fallback then, the error says which versions it speaks).
   */
  private answerInBand(message: JSONRPCMessage, status: number, text: string): boolean {
    if (status < 400 || status >= 500 || !isRequest(message) || text.length === 0) return false;
    const answer = jsonRpcErrorAnswering(text, message.id);
    if (!answer || !('error' in answer)) return false;
    const modernRequest = envelopeProtocolVersion(message) !== undefined;
    const refusedHandshake = isInitializeRequest(message) && modernErrorCodes.has(answer.error.code);
    if (!(modernRequest && status === 400) && !refusedHandshake) return false;
    this.onmessage?.(answer);
    return true;
  }

  private shouldFallBackToSse(status: number, text: string): boolean {
    if (this.options.sseFallback === false || status < 400 || status >= 500) return false;
    const code = jsonRpcErrorCode(text);
    return code === undefined || !modernErrorCodes.has(code);
  }

  /**
   * The server no longer knows our session: HTTP 404 as the spec says, or the 400 with the SDK
   * v1 servers' session codes that their examples (server-everything among them) answer instead.
   */
  private isSessionRejection(message: JSONRPCMessage, status: number, text: string): boolean {
    if (this.sessionId === undefined || isInitializeRequest(message)) return false;
    if (status === 404) return true;
    const code = status === 400 ? jsonRpcErrorCode(text) : undefined;
    return code === JsonRpcErrorCode.LegacyBadRequest || code === JsonRpcErrorCode.LegacySessionNotFound;
  }

  /** A 2xx answer: the session id of an `initialize`, then a JSON body or an event stream. */
  private async accept(
    message: JSONRPCMessage,
    options: TransportSendOptions | undefined,
    abort: RequestAbort | undefined,
    response: http.IncomingMessage,
  ): Promise<void> {
    if (isInitializeRequest(message)) {
      // Assigned by the InitializeResult's response only, and cleared by a sessionless one.
      const sessionId = response.headers['mcp-session-id'];
      this.sessionId = typeof sessionId === 'string' && sessionId.length > 0 ? sessionId : undefined;
    }
    if (response.statusCode === 202) {
      response.resume();
      if ('method' in message && message.method === 'notifications/initialized') this.openStandaloneStream();
      return;
    }
    const contentType = response.headers['content-type'] ?? '';
    const request = isRequest(message) ? message : undefined;
    if (contentType.includes('text/event-stream')) {
      const modern = envelopeProtocolVersion(message) !== undefined;
      this.consumeStream(response, this.streamContext(message, options, !modern, abort));
      return;
    }
    const text = await readBody(response);
    // Some servers answer a notification with 200 and an empty body instead of 202.
    if (request === undefined && text.trim().length === 0) return;
    if (contentType.includes('application/json')) {
      this.dispatchJson(text);
      return;
    }
    if (request !== undefined) {
      throw this.error(
        TransportErrorCode.TransportError,
        `unexpected content type "${contentType}" in the answer to a request`,
        { contentType },
      );
    }
  }

  private dispatchJson(text: string, context?: StreamContext): void {
    const messages = parseJsonRpcMessages(text);
    if (messages === undefined) {
      this.onerror?.(
        this.error(
          TransportErrorCode.TransportError,
          `received a body that is not JSON-RPC: ${JSON.stringify(excerpt(text))}`,
        ),
      );
      return;
    }
    const related = context?.request;
    for (const message of messages) {
      if (related && 'id' in message && !('method' in message) && message.id === related.id) {
        (context as StreamContext).answered = true;
        this.onmessage?.(message);
      } else if (related && 'method' in message) {
        const extra: HttpMessageExtraInfo = { relatedRequest: related };
        this.onmessage?.(message, extra);
      } else {
        this.onmessage?.(message);
      }
    }
  }

  private consumeStream(response: http.IncomingMessage, context: StreamContext, attempt = 0): void {
    const parser = new ServerSentEventParser((event) => {
      if (event.id !== undefined) context.onResumptionToken?.(event.id);
      if (event.event !== 'message' || event.data.length === 0) return;
      this.dispatchJson(event.data, context);
    });
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => parser.push(chunk));
    let ended = false;
    const onEnd = (cause?: unknown) => {
      if (ended) return;
      ended = true;
      if (this.closed || context.abort?.aborted) return;
      const standalone = context.request === undefined;
      if (!standalone && context.answered) {
        context.onRequestStreamEnd?.();
        return;
      }
      if (!context.resumable || parser.lastEventId === undefined) {
        if (standalone) {
          this.scheduleStandaloneReconnect(attempt, parser.retryMs);
          return;
        }
        context.onRequestStreamEnd?.();
        if (context.onRequestStreamEnd === undefined) {
          this.onerror?.(
            this.error(
              TransportErrorCode.TransportError,
              context.resumable
                ? 'the response stream ended before the response arrived, and without an event id to resume from'
                : 'the response stream ended before the response arrived',
              {},
              cause,
            ),
          );
        }
        return;
      }
      const delay = parser.retryMs ?? this.backoff(attempt);
      this.schedule(delay, () => this.resumeStream(parser.lastEventId!, context, parser.retryMs, attempt));
    };
    response.once('end', () => onEnd());
    response.once('aborted', () => onEnd(new Error('stream aborted')));
    response.once('error', (error) => onEnd(error));
    response.once('close', () => onEnd());
  }

  private backoff(attempt: number): number {
    const { initialDelayMs, growFactor, maxDelayMs } = this.reconnection;
    return Math.min(initialDelayMs * growFactor ** attempt, maxDelayMs);
  }

  private schedule(delayMs: number, run: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.closed) run();
    }, delayMs);
    this.timers.add(timer);
  }

  /** Resumes a 2025-era stream with GET + `Last-Event-ID`; the server replays what was missed on it. */
  private async resumeStream(
    lastEventId: string,
    context: StreamContext,
    retryMs?: number,
    attempt = 0,
  ): Promise<void> {
    try {
      const response = await this.request(
        'GET',
        this.streamHeaders({ 'last-event-id': lastEventId }),
        undefined,
        context.abort,
      );
      const status = response.statusCode ?? 0;
      if (status === 200 && (response.headers['content-type'] ?? '').includes('text/event-stream')) {
        this.consumeStream(response, context, 0);
        return;
      }
      response.resume();
      if (status === 405) {
        context.onRequestStreamEnd?.();
        return;
      }
      throw this.error(
        TransportErrorCode.TransportError,
        `resuming the event stream answered HTTP ${status}`,
        {},
        undefined,
        status,
      );
    } catch (error) {
      if (this.closed || context.abort?.aborted) return;
      if (attempt + 1 >= this.reconnection.maxRetries) {
        context.onRequestStreamEnd?.();
        this.onerror?.(
          this.error(
            TransportErrorCode.TransportError,
            `could not resume the event stream after ${attempt + 1} attempts`,
            {},
            error,
          ),
        );
        return;
      }
      this.schedule(retryMs ?? this.backoff(attempt + 1), () =>
        this.resumeStream(lastEventId, context, retryMs, attempt + 1),
      );
    }
  }

  /** The optional GET stream on which a 2025-era server sends requests and notifications of its own. */
  private openStandaloneStream(attempt = 0): void {
    if (this.closed || (this.standaloneStreamOpened && attempt === 0)) return;
    this.standaloneStreamOpened = true;
    this.request('GET', this.streamHeaders()).then(
      (response) => {
        const status = response.statusCode ?? 0;
        if (status === 200 && (response.headers['content-type'] ?? '').includes('text/event-stream')) {
          this.consumeStream(
            response,
            {
              request: undefined,
              answered: false,
              resumable: true,
              onResumptionToken: undefined,
              abort: undefined,
              onRequestStreamEnd: undefined,
            },
            attempt,
          );
          return;
        }
        response.resume();
        // 405: the server offers no such stream, which the spec allows.
        if (status !== 405) this.logger.debug({ server: this.name, status }, 'no standalone event stream');
      },
      (error) => {
        if (!this.closed) this.scheduleStandaloneReconnect(attempt, undefined, error);
      },
    );
  }

  private scheduleStandaloneReconnect(attempt: number, retryMs: number | undefined, cause?: unknown): void {
    if (attempt >= this.reconnection.maxRetries) {
      this.logger.debug(
        { server: this.name, cause: String(cause) },
        'giving up on the standalone event stream',
      );
      return;
    }
    this.schedule(retryMs ?? this.backoff(attempt), () => this.openStandaloneStream(attempt + 1));
  }

  private async fallBackToSse(initialize: JSONRPCMessage, status: number, text: string): Promise<void> {
    this.logger.info(
      { server: this.name, url: this.safeUrl, status },
      'initialize refused; falling back to the legacy HTTP+SSE transport',
    );
    const { createSseTransport } = await import('./sse-transport.js');
    const fallback = createSseTransport({
      url: this.url,
      name: this.name,
      logger: this.logger,
      ...(this.options.headers ? { headers: this.options.headers } : {}),
      ...(this.options.bearerToken !== undefined ? { bearerToken: this.options.bearerToken } : {}),
    });
    fallback.onmessage = (message, extra) => this.onmessage?.(message, extra);
    fallback.onerror = (error) => this.onerror?.(error);
    fallback.onclose = () => this.onclose?.();
    this.fallback = fallback;
    try {
      await fallback.start();
      await fallback.send(initialize);
    } catch (cause) {
      this.fallback = undefined;
      throw this.error(
        TransportErrorCode.ConnectionFailed,
        `initialize answered HTTP ${status}${text ? ` (${excerpt(text, 120)})` : ''} and the fallback to the legacy HTTP+SSE transport failed too: ${(cause as Error).message}. Check the URL: it should be the server's MCP endpoint.`,
        {},
        cause,
        status,
      );
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    // Set first: destroying the streams below must not look like a lost stream to resume.
    this.closed = true;
    if (this.fallback) {
      await this.fallback.close();
      return;
    }
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const request of this.inFlight) request.destroy();
    this.inFlight.clear();
    const sessionId = this.sessionId;
    if (sessionId !== undefined) {
      // Ends the session on the server; a server that does not support it answers 405, which is fine.
      try {
        const response = await Promise.race([
          this.request('DELETE', this.streamHeaders({ accept: acceptBoth })),
          new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 2000).unref()),
        ]);
        response?.resume();
      } catch (error) {
        this.logger.debug({ server: this.name, error: (error as Error).message }, 'session DELETE failed');
      }
    }
    for (const request of this.inFlight) request.destroy();
    if (this.ownsAgent) this.agent.destroy();
    this.onclose?.();
  }
}
