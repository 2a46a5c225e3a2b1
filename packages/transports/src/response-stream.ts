/**
 * The event streams a Streamable HTTP server answers on: a POST's response stream and the
 * standalone GET stream. Each event's JSON-RPC messages go to the transport, a server request
 * tagged with the request whose stream carried it; a 2025-era stream lost before its answer is
 * resumed with GET + `Last-Event-ID`, the server replaying what was missed. A modern stream cannot
 * be resumed: its end before the answer is told to the caller.
 */
import type http from 'node:http';
import type {
  JSONRPCMessage,
  JSONRPCRequest,
  MessageExtraInfo,
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/client';
import { type HttpConnection, isRequest } from './http-connection.js';
import { excerpt, parseJsonRpcMessages } from './json-rpc-message.js';
import type { RequestAbort } from './request-abort.js';
import { ServerSentEventParser } from './server-sent-event-parser.js';
import type { StreamReconnection } from './stream-reconnection.js';
import { TransportErrorCode } from './transport-error.js';

/**
 * What the Streamable HTTP transport tells about an incoming message besides the message itself:
 * the request whose response stream carried it (a 2025-era server request that belongs to a call).
 */
export interface HttpMessageExtraInfo extends MessageExtraInfo {
  /** The request whose POST response stream carried this message; absent on the standalone stream. */
  relatedRequest?: JSONRPCRequest;
}

/** Where the messages read go: the transport's handlers, read when a message arrives. */
export interface MessageSink {
  onmessage?: Transport['onmessage'];
  onerror?: Transport['onerror'];
}

/** One stream being read, and what its end means. */
export interface StreamContext {
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
  /** The standalone stream's: opens it again after it ended with nothing to resume from. */
  reopen?: ((attempt: number, retryMs: number | undefined) => void) | undefined;
}

/** The context of the stream that answers `message` (sent with `options`). */
export function createStreamContext(
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

/** Reads, dispatches and resumes the streams of one connection. */
export class ResponseStreams {
  constructor(
    private readonly connection: HttpConnection,
    private readonly sink: MessageSink,
    private readonly reconnection: StreamReconnection,
  ) {}

  /** Hands the JSON-RPC messages of a body or an event to the transport; a body that is none is an error. */
  dispatchJson(text: string, context?: StreamContext): void {
    const messages = parseJsonRpcMessages(text);
    if (messages === undefined) {
      this.sink.onerror?.(
        this.connection.error(
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
        this.sink.onmessage?.(message);
      } else if (related && 'method' in message) {
        const extra: HttpMessageExtraInfo = { relatedRequest: related };
        this.sink.onmessage?.(message, extra);
      } else {
        this.sink.onmessage?.(message);
      }
    }
  }

  /** Reads an event stream to its end, then decides: done, resumed, reopened, or told as lost. */
  consume(response: http.IncomingMessage, context: StreamContext, attempt = 0): void {
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
      if (this.connection.closed || context.abort?.aborted) return;
      const standalone = context.request === undefined;
      if (!standalone && context.answered) {
        context.onRequestStreamEnd?.();
        return;
      }
      if (!context.resumable || parser.lastEventId === undefined) {
        if (standalone) {
          context.reopen?.(attempt, parser.retryMs);
          return;
        }
        context.onRequestStreamEnd?.();
        if (context.onRequestStreamEnd === undefined) {
          this.sink.onerror?.(
            this.connection.error(
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
      const delay = parser.retryMs ?? this.reconnection.backoff(attempt);
      this.reconnection.schedule(delay, () =>
        this.resume(parser.lastEventId!, context, parser.retryMs, attempt),
      );
    };
    response.once('end', () => onEnd());
    response.once('aborted', () => onEnd(new Error('stream aborted')));
    response.once('error', (error) => onEnd(error));
    response.once('close', () => onEnd());
  }

  /** Resumes a 2025-era stream with GET + `Last-Event-ID`; the server replays what was missed on it. */
  async resume(lastEventId: string, context: StreamContext, retryMs?: number, attempt = 0): Promise<void> {
    const connection = this.connection;
    try {
      const response = await connection.request(
        'GET',
        connection.streamHeaders({ 'last-event-id': lastEventId }),
        undefined,
        context.abort,
      );
      const status = response.statusCode ?? 0;
      if (status === 200 && (response.headers['content-type'] ?? '').includes('text/event-stream')) {
        this.consume(response, context, 0);
        return;
      }
      response.resume();
      if (status === 405) {
        context.onRequestStreamEnd?.();
        return;
      }
      throw connection.error(
        TransportErrorCode.TransportError,
        `resuming the event stream answered HTTP ${status}`,
        {},
        undefined,
        status,
      );
    } catch (error) {
      if (connection.closed || context.abort?.aborted) return;
      if (attempt + 1 >= this.reconnection.maxRetries) {
        context.onRequestStreamEnd?.();
        this.sink.onerror?.(
          connection.error(
            TransportErrorCode.TransportError,
            `could not resume the event stream after ${attempt + 1} attempts`,
            {},
            error,
          ),
        );
        return;
      }
      this.reconnection.schedule(retryMs ?? this.reconnection.backoff(attempt + 1), () =>
        this.resume(lastEventId, context, retryMs, attempt + 1),
      );
    }
  }
}
