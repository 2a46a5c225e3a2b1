/**
 * The HTTP side of a Streamable HTTP transport, below its messages: the endpoint (its URL converted
 * once, a redacted copy for messages), one keep-alive agent, OAuth's token and DPoP nonce, the
 * requests in flight (destroyed on close), and what later requests must carry: the 2025-era session
 * id and the negotiated protocol version. Errors name the server and its redacted URL.
 */
import http from 'node:http';
import https from 'node:https';
import { urlToHttpOptions } from 'node:url';
import type { JSONRPCMessage, JSONRPCRequest, OAuthClientProvider } from '@modelcontextprotocol/client';
import type { Logger } from '@switchboard/core';
import { HttpAuthorization } from './http-authorization.js';
import { createStaticHeaders } from './http-headers.js';
import { redactUrl } from './redact-url.js';
import type { RequestAbort } from './request-abort.js';
import { TransportError, TransportErrorCode } from './transport-error.js';

/** What a POST accepts: a JSON body or an event stream. */
export const acceptBoth = 'application/json, text/event-stream';

/** True for a JSON-RPC request (a method and an id), not a notification or a response. */
export function isRequest(message: JSONRPCMessage): message is JSONRPCRequest {
  return 'method' in message && 'id' in message;
}

/** True for the `initialize` request of the 2025 handshake. */
export function isInitializeRequest(message: JSONRPCMessage): boolean {
  return isRequest(message) && message.method === 'initialize';
}

/** Reads a whole (small) body as text. */
export function readBody(response: http.IncomingMessage): Promise<string> {
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

/** What {@link HttpConnection} is made from: the transport's options it needs. */
export interface HttpConnectionOptions {
  url: string | URL;
  headers?: Record<string, string> | undefined;
  bearerToken?: string | undefined;
  name?: string | undefined;
  agent?: http.Agent | undefined;
  sessionId?: string | undefined;
  authProvider?: OAuthClientProvider | undefined;
}

/** One server's endpoint and the requests made to it. */
export class HttpConnection {
  readonly url: URL;
  /** The URL as request options, converted once (not per request). */
  private readonly target: Pick<http.RequestOptions, 'protocol' | 'hostname' | 'port' | 'path' | 'auth'>;
  /** The URL with any credentials masked, for logs and errors. */
  readonly safeUrl: string;
  /** The server's name in logs and errors. */
  readonly name: string;
  /** The headers every request carries (the options' and the bearer token). Never logged. */
  readonly staticHeaders: Record<string, string>;
  private readonly agent: http.Agent;
  private readonly ownsAgent: boolean;
  private readonly client: typeof http | typeof https;
  /** OAuth's part: the token into each request, the 401/403 challenges. */
  readonly authorization: HttpAuthorization;
  private readonly inFlight = new Set<http.ClientRequest>();
  /** The 2025-era session, once `initialize` was answered with one. */
  sessionId: string | undefined;
  /** The negotiated protocol version, sent on the streams' GETs. */
  protocolVersion: string | undefined;
  /** Set by the transport's close: a request failing from then on was closed, not lost. */
  closed = false;

  constructor(options: HttpConnectionOptions) {
    this.url = new URL(options.url);
    // Only what a request needs of the URL (a spread of these per request, not of every URL field).
    const { protocol, hostname, port, path, auth } = urlToHttpOptions(this.url);
    this.target = { protocol, hostname, port, path, auth: auth || undefined };
    this.safeUrl = redactUrl(this.url);
    this.name = options.name ?? this.url.host;
    this.staticHeaders = createStaticHeaders(options.headers, options.bearerToken);
    this.client = this.url.protocol === 'https:' ? https : http;
    this.ownsAgent = options.agent === undefined;
    this.agent = options.agent ?? new this.client.Agent({ keepAlive: true, maxSockets: 64 });
    this.sessionId = options.sessionId;
    this.authorization = new HttpAuthorization(options.authProvider, this.url, this.name, (detail) =>
      this.describe(detail),
    );
  }

  /** `detail` prefixed with the server's name and redacted URL. */
  describe(detail: string): string {
    return `MCP server "${this.name}" (${this.safeUrl}): ${detail}`;
  }

  /** A `TransportError` about this server. */
  error(
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

  /** The headers of a GET or DELETE on the endpoint: event streams, the session, the version. */
  streamHeaders(extra?: Record<string, string>): Record<string, string> {
    const headers: Record<string, string> = Object.assign({}, this.staticHeaders);
    headers.accept = 'text/event-stream';
    if (this.sessionId !== undefined) headers['mcp-session-id'] = this.sessionId;
    if (this.protocolVersion !== undefined) headers['mcp-protocol-version'] = this.protocolVersion;
    return extra ? Object.assign(headers, extra) : headers;
  }

  /** Sends a request; a DPoP `use_dpop_nonce` challenge is answered once, with a fresh proof carrying the nonce. */
  request(
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
      // A literal, not `{ ...this.target, method, … }`: on Node 20 (V8 11.3) an object spread from
      // a non-empty one and given more properties gets a hidden class of its own every time
      // (about 0.8 µs, and every later read of it, Node's own included, misses V8's caches).
      const { protocol, hostname, port, path, auth } = this.target;
      const request = this.client.request({
        protocol,
        hostname,
        port,
        path,
        auth,
        method,
        headers,
        agent: this.agent,
      });
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

  /** Destroys every request still open (their streams included). */
  destroyRequests(): void {
    for (const request of this.inFlight) request.destroy();
    this.inFlight.clear();
  }

  /**
   * Ends the 2025-era session on the server, if there is one: a DELETE, waited for at most two
   * seconds; a server that does not support it answers 405, which is fine.
   */
  async endSession(logger: Logger): Promise<void> {
    if (this.sessionId === undefined) return;
    try {
      const response = await Promise.race([
        this.request('DELETE', this.streamHeaders({ accept: acceptBoth })),
        new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 2000).unref()),
      ]);
      response?.resume();
    } catch (error) {
      logger.debug({ server: this.name, error: (error as Error).message }, 'session DELETE failed');
    }
  }

  /** Lets go of the sockets: the requests still open, and the agent when it is the connection's own. */
  destroy(): void {
    for (const request of this.inFlight) request.destroy();
    if (this.ownsAgent) this.agent.destroy();
  }
}
