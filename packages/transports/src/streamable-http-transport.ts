/**
 * The Streamable HTTP client transport, both protocol eras on one URL: a modern (2026-07-28) request
 * carries the standard headers on a POST stream of its own, which closing cancels; 2025-era traffic
 * gets the session id, the optional GET stream and resumption with `Last-Event-ID`; an `initialize`
 * a legacy server refuses falls back to HTTP+SSE. On `node:http` with one keep-alive agent (bounded
 * sockets) and each body parsed once; a failed POST reaches the SDK's version negotiation as the
 * SDK's own `SdkHttpError`, whose status and body it reads. The parts, one file each: the endpoint
 * and its requests (`http-connection.ts`), a POST and its answer (`post-exchange.ts`), the event
 * streams (`response-stream.ts`, `standalone-stream.ts`, `stream-reconnection.ts`) and the legacy
 * fallback (`sse-fallback.ts`); this file puts them together behind the SDK's `Transport`.
 */
import type http from 'node:http';
import type { JSONRPCMessage, OAuthClientProvider, Transport } from '@modelcontextprotocol/client';
import { type Logger, silentLogger } from '@switchboard/core';
import { HttpConnection } from './http-connection.js';
import { PostExchange } from './post-exchange.js';
import { type HttpSendOptions, requestAbortOf } from './request-abort.js';
import { createStreamContext, ResponseStreams } from './response-stream.js';
import { fallBackToSse } from './sse-fallback.js';
import { StandaloneStream } from './standalone-stream.js';
import { StreamReconnection, type StreamReconnectionOptions } from './stream-reconnection.js';
import { TransportErrorCode } from './transport-error.js';

export type { HttpMessageExtraInfo } from './response-stream.js';
export type { StreamReconnectionOptions } from './stream-reconnection.js';

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

class NodeStreamableHttpTransport implements StreamableHttpTransport {
  onmessage?: Transport['onmessage'];
  onerror?: Transport['onerror'];
  onclose?: Transport['onclose'];
  /** One POST per request: on a modern connection closing its stream is the cancellation signal. */
  readonly hasPerRequestStream = true;
  /** Takes `onAbortable` in the send options (see `request-abort.ts`). */
  readonly acceptsAbortHandle = true;

  private readonly connection: HttpConnection;
  private readonly logger: Logger;
  private readonly reconnection: StreamReconnection;
  private readonly exchange: PostExchange;
  private readonly streams: ResponseStreams;
  private fallback: Transport | undefined;

  constructor(options: StreamableHttpTransportOptions) {
    const connection = new HttpConnection(options);
    this.connection = connection;
    this.logger = options.logger ?? silentLogger;
    this.reconnection = new StreamReconnection(options.reconnection, () => connection.closed);
    this.streams = new ResponseStreams(connection, this, this.reconnection);
    const standalone = new StandaloneStream(connection, this.streams, this.reconnection, this.logger);
    this.exchange = new PostExchange({
      connection,
      sink: this,
      streams: this.streams,
      openStandaloneStream: () => standalone.open(),
      sseFallback: options.sseFallback !== false,
      fallBackToSse: (initialize, status, text) =>
        fallBackToSse(
          {
            connection,
            logger: this.logger,
            headers: options.headers,
            bearerToken: options.bearerToken,
            target: this,
            use: (fallback) => {
              this.fallback = fallback;
            },
          },
          initialize,
          status,
          text,
        ),
    });
  }

  /** The 2025-era session id (the SDK reads it; a caller may set it to resume a session). */
  get sessionId(): string | undefined {
    return this.connection.sessionId;
  }

  set sessionId(sessionId: string | undefined) {
    this.connection.sessionId = sessionId;
  }

  async start(): Promise<void> {
    if (this.connection.closed)
      throw this.connection.error(
        TransportErrorCode.TransportError,
        'the transport was closed; create a new one',
      );
  }

  get usesSseFallback(): boolean {
    return this.fallback !== undefined;
  }

  setProtocolVersion(version: string): void {
    this.connection.protocolVersion = version;
    this.fallback?.setProtocolVersion?.(version);
  }

  async send(message: JSONRPCMessage, options?: HttpSendOptions): Promise<void> {
    if (this.fallback) return this.fallback.send(message, options);
    if (this.connection.closed)
      throw this.connection.error(
        TransportErrorCode.ConnectionClosed,
        'cannot send: the transport is closed',
      );
    if (options?.requestSignal?.aborted) return;
    const abort = requestAbortOf(options);
    if (options?.resumptionToken !== undefined) {
      this.streams.resume(options.resumptionToken, createStreamContext(message, options, true, abort));
      return;
    }
    try {
      await this.exchange.post(message, options, abort, 0);
    } catch (error) {
      if (!abort?.aborted) this.onerror?.(error as Error);
      throw error;
    }
  }

  async close(): Promise<void> {
    const connection = this.connection;
    if (connection.closed) return;
    // Set first: destroying the streams below must not look like a lost stream to resume.
    connection.closed = true;
    if (this.fallback) {
      await this.fallback.close();
      return;
    }
    this.reconnection.clear();
    connection.destroyRequests();
    await connection.endSession(this.logger);
    connection.destroy();
    this.onclose?.();
  }
}
