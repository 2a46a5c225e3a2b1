import http from 'node:http';
import https from 'node:https';
import type { OAuthClientProvider } from '@modelcontextprotocol/client';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { type Logger, SwitchboardError, silentLogger } from '@switchboard/core';
import { createStaticHeaders } from './http-headers.js';
import { excerpt, parseJsonRpcMessages } from './json-rpc-message.js';
import { parseBearerChallenge, runAuthorization } from './oauth-authorization.js';
import { redactUrl } from './redact-url.js';
import { accessTokenHeaders, dpopNonceRetry } from './request-authorization.js';
import { ServerSentEventParser } from './server-sent-event-parser.js';

/** How lost SSE streams are resumed. */
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
   * On a 4xx answer to the initial POST (`initialize`), switch to the legacy HTTP+SSE protocol on
   * the same URL, as the spec's backwards-compatibility section describes. @default true
   */
  sseFallback?: boolean;
  /** Resume an existing session instead of starting one. */
  sessionId?: string;
  /**
   * The HTTP(S) agent; by default a keep-alive agent of this transport (at most 64 sockets, so a
   * burst of concurrent calls queues instead of opening a socket each), destroyed on close.
   */
  agent?: http.Agent;
  /** Resumption of interrupted SSE streams. */
  reconnection?: StreamReconnectionOptions;
  /**
   * OAuth for servers that follow the MCP authorization spec: the access token goes into every
   * request; a 401 runs the flow (discovery, registration, sign-in or refresh) and retries once; a
   * 403 `insufficient_scope` asks for the missing scopes. Use `createOAuthProvider` or any SDK
   * `OAuthClientProvider`. Tokens are never logged.
   */
  authProvider?: OAuthClientProvider;
}

/** Authorization runs allowed for one message (a sign-in, then one scope step-up) before giving up. */
const maxAuthorizationsPerMessage = 2;

/** Creates a client transport for MCP's Streamable HTTP protocol (with legacy SSE fallback). */
export function createStreamableHttpTransport(options: StreamableHttpTransportOptions): Transport {
  return new StreamableHttpTransport(options);
}

interface StreamContext {
  /** The request this stream answers (a POST's request, or one being resumed); undefined for the standalone GET stream. */
  requestId: RequestId | undefined;
  /** Set once the response to `requestId` arrived: the stream needs no resumption after that. */
  answered: boolean;
  onResumptionToken: ((token: string) => void) | undefined;
}

const acceptBoth = 'application/json, text/event-stream';

function isInitializeRequest(message: JSONRPCMessage): boolean {
  return 'method' in message && message.method === 'initialize' && 'id' in message;
}

/** Reads a whole (small) body as text. */
function readBody(response: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.on('end', () =>
      resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8')),
    );
    response.on('error', reject);
    response.on('aborted', () => reject(new Error('response aborted')));
  });
}

class StreamableHttpTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onerror?: Transport['onerror'];
  onclose?: Transport['onclose'];
  sessionId?: string | undefined;

  private readonly url: URL;
  private readonly safeUrl: string;
  private readonly name: string;
  private readonly logger: Logger;
  private readonly staticHeaders: Record<string, string>;
  private readonly agent: http.Agent;
  private readonly ownsAgent: boolean;
  private readonly client: typeof http | typeof https;
  private readonly reconnection: Required<StreamReconnectionOptions>;
  private protocolVersion: string | undefined;
  private readonly inFlight = new Set<http.ClientRequest>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private fallback: Transport | undefined;
  private authorizing: Promise<void> | undefined;
  private closed = false;
  private standaloneStreamOpened = false;

  constructor(private readonly options: StreamableHttpTransportOptions) {
    this.url = new URL(options.url);
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
  }

  async start(): Promise<void> {
    if (this.closed) throw this.error('TRANSPORT_ERROR', 'the transport was closed; create a new one');
  }

  /** True once the server refused Streamable HTTP and the session runs over legacy HTTP+SSE. */
  get usesSseFallback(): boolean {
    return this.fallback !== undefined;
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
    this.fallback?.setProtocolVersion?.(version);
  }

  private headers(accept: string, extra?: Record<string, string>): Record<string, string> {
    const headers: Record<string, string> = { ...this.staticHeaders, accept };
    if (this.sessionId !== undefined) headers['mcp-session-id'] = this.sessionId;
    if (this.protocolVersion !== undefined) headers['mcp-protocol-version'] = this.protocolVersion;
    return extra ? Object.assign(headers, extra) : headers;
  }

  private error(
    code: string,
    detail: string,
    context: Record<string, unknown> = {},
    cause?: unknown,
  ): SwitchboardError {
    return new SwitchboardError({
      code,
      message: `MCP server "${this.name}" (${this.safeUrl}): ${detail}`,
      context: { server: this.name, url: this.safeUrl, ...context },
      cause,
    });
  }

  /** The headers presenting the access token (and DPoP proof), refreshed first when the provider knows it has expired. */
  private async authorizationHeaders(
    provider: OAuthClientProvider,
    method: string,
  ): Promise<Record<string, string>> {
    const expired = (provider as { accessTokenExpired?: () => Promise<boolean> }).accessTokenExpired;
    if (expired && (await expired.call(provider))) {
      // A failed refresh is not fatal here: the server's 401 runs the whole flow.
      await this.authorize({}).catch(() => undefined);
    }
    return accessTokenHeaders(provider, { method, url: this.url });
  }

  /** Runs the authorization flow once for all requests that need it at the same time. */
  private authorize(challenge: { header?: string | string[]; stepUp?: boolean }): Promise<void> {
    const provider = this.options.authProvider;
    if (!provider) return Promise.resolve();
    this.authorizing ??= runAuthorization(provider, {
      serverUrl: this.url,
      serverName: this.name,
      challenge: parseBearerChallenge(challenge.header),
      ...(challenge.stepUp ? { stepUp: true } : {}),
    }).finally(() => {
      this.authorizing = undefined;
    });
    return this.authorizing;
  }

  /** Sends a request; a DPoP `use_dpop_nonce` challenge is answered once, with a fresh proof carrying the nonce. */
  private async request(
    method: string,
    headers: Record<string, string>,
    body?: string,
  ): Promise<http.IncomingMessage> {
    const response = await this.requestOnce(method, headers, body);
    const provider = this.options.authProvider;
    const answer = { status: response.statusCode ?? 0, headers: response.headers };
    if (!provider || !(await dpopNonceRetry(provider, answer, this.url))) return response;
    response.resume();
    return this.requestOnce(method, headers, body);
  }

  private async requestOnce(
    method: string,
    headers: Record<string, string>,
    body?: string,
  ): Promise<http.IncomingMessage> {
    const provider = this.options.authProvider;
    if (provider) {
      if (this.authorizing) await this.authorizing.catch(() => undefined);
      Object.assign(headers, await this.authorizationHeaders(provider, method));
    }
    return new Promise((resolve, reject) => {
      const request = this.client.request(this.url, { method, headers, agent: this.agent });
      this.inFlight.add(request);
      request.once('response', (response) => {
        response.once('close', () => this.inFlight.delete(request));
        resolve(response);
      });
      request.once('error', (cause: NodeJS.ErrnoException) => {
        this.inFlight.delete(request);
        if (this.closed) {
          reject(this.error('CONNECTION_CLOSED', 'the transport was closed', {}, cause));
          return;
        }
        const refused = cause.code === 'ECONNREFUSED';
        const advice = refused
          ? 'connection refused (ECONNREFUSED). Check that the server is running and that the URL and port are right.'
          : cause.code === 'ENOTFOUND'
            ? `host not found (ENOTFOUND). Check the URL's host name.`
            : `${method} failed: ${cause.message}${cause.code ? ` (${cause.code})` : ''}.`;
        reject(this.error('CONNECTION_FAILED', advice, { method, errno: cause.code }, cause));
      });
      request.end(body);
    });
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.sendMessage(message, options, 0);
  }

  private async sendMessage(
    message: JSONRPCMessage,
    options: TransportSendOptions | undefined,
    authorizations: number,
  ): Promise<void> {
    if (this.fallback) return this.fallback.send(message, options);
    if (this.closed) throw this.error('CONNECTION_CLOSED', 'cannot send: the transport is closed');
    if (options?.resumptionToken !== undefined) {
      const requestId = 'id' in message ? message.id : undefined;
      this.resumeStream(options.resumptionToken, {
        requestId,
        answered: false,
        onResumptionToken: options.onresumptiontoken,
      });
      return;
    }
    const body = JSON.stringify(message);
    const initialize = isInitializeRequest(message);
    let response: http.IncomingMessage;
    try {
      response = await this.request(
        'POST',
        this.headers(acceptBoth, {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
        }),
        body,
      );
    } catch (error) {
      this.onerror?.(error as Error);
      throw error;
    }
    const status = response.statusCode ?? 0;
    const sessionId = response.headers['mcp-session-id'];
    if (typeof sessionId === 'string' && sessionId.length > 0) this.sessionId = sessionId;

    if (status === 202) {
      response.resume();
      if ('method' in message && message.method === 'notifications/initialized') this.openStandaloneStream();
      return;
    }
    if (status < 200 || status >= 300) {
      const text = await readBody(response).catch(() => '');
      const challengeHeader = response.headers['www-authenticate'];
      const challenge = parseBearerChallenge(challengeHeader);
      const stepUp = status === 403 && challenge?.error === 'insufficient_scope';
      if (
        this.options.authProvider &&
        (status === 401 || stepUp) &&
        authorizations < maxAuthorizationsPerMessage
      ) {
        try {
          await this.authorize({ ...(challengeHeader ? { header: challengeHeader } : {}), stepUp });
        } catch (error) {
          this.onerror?.(error as Error);
          throw error;
        }
        return this.sendMessage(message, options, authorizations + 1);
      }
      if (
        initialize &&
        this.options.sseFallback !== false &&
        status >= 400 &&
        status < 500 &&
        status !== 401 &&
        status !== 403
      ) {
        this.logger.info(
          { server: this.name, url: this.safeUrl, status },
          'initial POST refused; falling back to the legacy HTTP+SSE transport',
        );
        try {
          await this.switchToSse(message);
        } catch (cause) {
          const failure = this.error(
            'CONNECTION_FAILED',
            `the initial POST answered HTTP ${status}${text ? ` (${excerpt(text, 120)})` : ''} and the fallback to the legacy HTTP+SSE transport failed too: ${(cause as Error).message}. Check the URL: it should be the server's MCP endpoint.`,
            { status },
            cause,
          );
          this.fallback = undefined;
          this.onerror?.(failure);
          throw failure;
        }
        return;
      }
      let failure: SwitchboardError;
      // The spec says 404; servers built on the SDK's example (server-everything among them) answer
      // 400 "No valid session ID" instead, which means the same to a client.
      const sessionRejected =
        status === 404 || (status === 400 && /session/i.test(text) && !/protocol.version/i.test(text));
      if (sessionRejected && this.sessionId !== undefined && !initialize) {
        // The session id is a credential of sorts: it stays out of the error.
        this.sessionId = undefined;
        failure = this.error(
          'SESSION_EXPIRED',
          `the server no longer knows this session (HTTP ${status}). Re-initialize to start a new session.`,
          { status },
        );
      } else if (status === 401 || status === 403) {
        failure = this.options.authProvider
          ? this.error(
              stepUp ? 'INSUFFICIENT_SCOPE' : 'UNAUTHORIZED',
              stepUp
                ? `the server still wants more scopes (HTTP 403 insufficient_scope${challenge?.scope ? `, scope "${challenge.scope}"` : ''}) after ${authorizations} authorization attempts. Check the scopes the authorization server grants this client.`
                : `the server refused the access token (HTTP ${status}) after ${authorizations} authorization attempts. Sign in again with \`switchboard auth ${this.name}\`.`,
              { status, ...(challenge?.scope ? { scope: challenge.scope } : {}) },
            )
          : this.error(
              'UNAUTHORIZED',
              `the server refused the credentials (HTTP ${status}). Check the bearer token or the Authorization header.`,
              { status },
            );
      } else {
        failure = this.error(
          'TRANSPORT_ERROR',
          `POST answered HTTP ${status}${text ? `: ${excerpt(text)}` : ''}`,
          {
            status,
          },
        );
      }
      this.onerror?.(failure);
      throw failure;
    }

    const contentType = response.headers['content-type'] ?? '';
    const requestId = 'id' in message && 'method' in message ? message.id : undefined;
    if (contentType.includes('text/event-stream')) {
      this.consumeStream(response, {
        requestId,
        answered: false,
        onResumptionToken: options?.onresumptiontoken,
      });
      return;
    }
    const text = await readBody(response);
    // Some servers answer a notification with 200 and an empty body instead of 202.
    if (requestId === undefined && text.trim().length === 0) return;
    if (contentType.includes('application/json')) {
      this.dispatchJson(text);
      return;
    }
    response.resume();
    if (requestId !== undefined) {
      const failure = this.error(
        'TRANSPORT_ERROR',
        `unexpected content type "${contentType}" in the answer to a request`,
        {
          contentType,
        },
      );
      this.onerror?.(failure);
      throw failure;
    }
  }

  private dispatchJson(text: string, context?: StreamContext): void {
    const messages = parseJsonRpcMessages(text);
    if (messages === undefined) {
      this.onerror?.(
        this.error(
          'TRANSPORT_ERROR',
          `received a body that is not JSON-RPC: ${JSON.stringify(excerpt(text))}`,
        ),
      );
      return;
    }
    for (const message of messages) {
      if (
        context &&
        context.requestId !== undefined &&
        'id' in message &&
        !('method' in message) &&
        message.id === context.requestId
      ) {
        context.answered = true;
      }
      this.onmessage?.(message);
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
      if (this.closed) return;
      const standalone = context.requestId === undefined;
      if (!standalone && context.answered) return;
      if (parser.lastEventId === undefined) {
        if (!standalone) {
          this.onerror?.(
            this.error(
              'TRANSPORT_ERROR',
              'the response stream ended before the response arrived, and without an event id to resume from',
              {},
              cause,
            ),
          );
        } else this.scheduleStandaloneReconnect(attempt, parser.retryMs);
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

  /** Resumes a stream with GET + `Last-Event-ID`; the server replays what was missed on it. */
  private async resumeStream(
    lastEventId: string,
    context: StreamContext,
    retryMs?: number,
    attempt = 0,
  ): Promise<void> {
    try {
      const response = await this.request(
        'GET',
        this.headers('text/event-stream', { 'last-event-id': lastEventId }),
      );
      const status = response.statusCode ?? 0;
      if (status === 200 && (response.headers['content-type'] ?? '').includes('text/event-stream')) {
        this.consumeStream(response, context, 0);
        return;
      }
      response.resume();
      if (status === 405) return;
      throw this.error('TRANSPORT_ERROR', `resuming the event stream answered HTTP ${status}`, { status });
    } catch (error) {
      if (this.closed) return;
      if (attempt + 1 >= this.reconnection.maxRetries) {
        this.onerror?.(
          this.error(
            'TRANSPORT_ERROR',
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

  /** The optional GET stream on which a server sends requests and notifications of its own. */
  private openStandaloneStream(attempt = 0): void {
    if (this.closed || (this.standaloneStreamOpened && attempt === 0)) return;
    this.standaloneStreamOpened = true;
    this.request('GET', this.headers('text/event-stream')).then(
      (response) => {
        const status = response.statusCode ?? 0;
        if (status === 200 && (response.headers['content-type'] ?? '').includes('text/event-stream')) {
          this.consumeStream(
            response,
            { requestId: undefined, answered: false, onResumptionToken: undefined },
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

  private async switchToSse(initialize: JSONRPCMessage): Promise<void> {
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
    if (this.protocolVersion !== undefined) fallback.setProtocolVersion?.(this.protocolVersion);
    await fallback.start();
    await fallback.send(initialize);
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
          this.request('DELETE', this.headers(acceptBoth)),
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
