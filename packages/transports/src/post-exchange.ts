/**
 * One message POSTed and its answer read: the headers (static, the 2025 session, the modern standard
 * headers, the caller's), a 401/403 answered through OAuth and retried, a 2xx read as JSON or as an
 * event stream, and a failure told the way its reader needs it: a modern server's JSON-RPC error
 * in-band, an `initialize` a legacy server refuses as the SSE fallback, a lost session as
 * `SESSION_EXPIRED`, anything else as the SDK's own `SdkHttpError`, whose status and body its
 * protocol-version negotiation reads.
 */
import type http from 'node:http';
import {
  type JSONRPCMessage,
  type JSONRPCRequest,
  SdkErrorCode,
  SdkHttpError,
  type TransportSendOptions,
} from '@modelcontextprotocol/client';
import {
  acceptBoth,
  type HttpConnection,
  isInitializeRequest,
  isRequest,
  readBody,
} from './http-connection.js';
import { JsonRpcErrorCode, modernErrorCodes } from './json-rpc-error-code.js';
import { excerpt, parseJsonRpcMessages } from './json-rpc-message.js';
import {
  addStandardRequestHeaders,
  envelopeProtocolVersion,
  reservedRequestHeaders,
} from './mcp-request-headers.js';
import type { RequestAbort } from './request-abort.js';
import { createStreamContext, type MessageSink, type ResponseStreams } from './response-stream.js';
import { TransportErrorCode } from './transport-error.js';

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

/** What a POST needs besides the connection and the streams. */
export interface PostExchangeParts {
  connection: HttpConnection;
  sink: MessageSink;
  streams: ResponseStreams;
  /** Opens the standalone stream (after `notifications/initialized`). */
  openStandaloneStream: () => void;
  /** Whether a refused `initialize` may fall back to legacy HTTP+SSE (`sseFallback`). */
  sseFallback: boolean;
  /** Goes on over legacy HTTP+SSE, sending `initialize` there. */
  fallBackToSse: (initialize: JSONRPCMessage, status: number, text: string) => Promise<void>;
}

/** POSTs messages and reads their answers. */
export class PostExchange {
  constructor(private readonly parts: PostExchangeParts) {}

  /** POSTs one message and dispatches the answer; retries after authorization. */
  async post(
    message: JSONRPCMessage,
    options: TransportSendOptions | undefined,
    abort: RequestAbort | undefined,
    authorizations: number,
  ): Promise<void> {
    const connection = this.parts.connection;
    const body = JSON.stringify(message);
    const response = await connection.request(
      'POST',
      this.messageHeaders(message, body, options?.headers),
      body,
      abort,
    );
    const status = response.statusCode ?? 0;
    if (status >= 200 && status < 300) return this.accept(message, options, abort, response);

    const challenge = await connection.authorization.answerChallenge(response, authorizations);
    if (challenge) {
      response.resume();
      if (challenge.retry) return this.post(message, options, abort, authorizations + 1);
      throw challenge.error;
    }
    const text = await readBody(response).catch(() => '');
    if (this.answerInBand(message, status, text)) return;
    if (isInitializeRequest(message) && this.shouldFallBackToSse(status, text)) {
      return this.parts.fallBackToSse(message, status, text);
    }
    if (this.isSessionRejection(message, status, text)) {
      // The session id is a credential of sorts: it stays out of the error.
      connection.sessionId = undefined;
      throw connection.error(
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
      connection.describe(`POST answered HTTP ${status}${text ? `: ${excerpt(text)}` : ''}`),
      {
        status,
        ...(response.statusMessage === undefined ? {} : { statusText: response.statusMessage }),
        text,
      },
    );
  }

  /** The headers of one message: static ones, the session (2025 era), the standard modern headers, the caller's. */
  private messageHeaders(message: JSONRPCMessage, body: string, extra: TransportSendOptions['headers']) {
    const connection = this.parts.connection;
    // Not a spread of the static headers followed by more: see `requestOnce` in http-connection.
    const headers: Record<string, string> = Object.assign({}, connection.staticHeaders);
    headers.accept = acceptBoth;
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(Buffer.byteLength(body));
    // A new session starts without a session id (2025-11-25 "Session Management").
    if (connection.sessionId !== undefined && !isInitializeRequest(message))
      headers['mcp-session-id'] = connection.sessionId;
    addStandardRequestHeaders(headers, message, connection.protocolVersion);
    if (extra) {
      for (const [name, value] of Object.entries(extra)) {
        const key = name.toLowerCase();
        if (!reservedRequestHeaders.has(key)) headers[key] = value;
      }
    }
    return headers;
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
    this.parts.sink.onmessage?.(answer);
    return true;
  }

  private shouldFallBackToSse(status: number, text: string): boolean {
    if (!this.parts.sseFallback || status < 400 || status >= 500) return false;
    const code = jsonRpcErrorCode(text);
    return code === undefined || !modernErrorCodes.has(code);
  }

  /**
   * The server no longer knows our session: HTTP 404 as the spec says, or the 400 with the SDK
   * v1 servers' session codes that their examples (server-everything among them) answer instead.
   */
  private isSessionRejection(message: JSONRPCMessage, status: number, text: string): boolean {
    if (this.parts.connection.sessionId === undefined || isInitializeRequest(message)) return false;
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
      this.parts.connection.sessionId =
        typeof sessionId === 'string' && sessionId.length > 0 ? sessionId : undefined;
    }
    if (response.statusCode === 202) {
      response.resume();
      if ('method' in message && message.method === 'notifications/initialized')
        this.parts.openStandaloneStream();
      return;
    }
    const contentType = response.headers['content-type'] ?? '';
    const request = isRequest(message) ? message : undefined;
    if (contentType.includes('text/event-stream')) {
      const modern = envelopeProtocolVersion(message) !== undefined;
      this.parts.streams.consume(response, createStreamContext(message, options, !modern, abort));
      return;
    }
    const text = await readBody(response);
    // Some servers answer a notification with 200 and an empty body instead of 202.
    if (request === undefined && text.trim().length === 0) return;
    if (contentType.includes('application/json')) {
      this.parts.streams.dispatchJson(text);
      return;
    }
    if (request !== undefined) {
      throw this.parts.connection.error(
        TransportErrorCode.TransportError,
        `unexpected content type "${contentType}" in the answer to a request`,
        { contentType },
      );
    }
  }
}
