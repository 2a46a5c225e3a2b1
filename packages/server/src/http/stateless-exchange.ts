/**
 * One request served without a session (2026-07-28, and 2025 when sessions are off): dispatch,
 * then answer as JSON, or as SSE when the client accepts it and the call has notifications to
 * stream (the stream opens with the first one, so a quick answer keeps its HTTP status). The
 * exchange closing early cancels the call. A dispatch that rejects with a `ServerError` (a retry
 * relayed to another replica while the shared state is down) is answered with its table's status.
 */
import type { ServerResponse } from 'node:http';
import type { JSONRPCMessage, JSONRPCRequest, JSONRPCResponse } from '@modelcontextprotocol/server';
import { CallAbort } from '../cancellation/call-abort.js';
import type { RequestDispatcher } from '../dispatch/request-dispatcher.js';
import { ServerError } from '../errors/server-error.js';
import { toWireError } from '../errors/to-wire-error.js';
import type { ProtocolEra } from '../protocol/protocol-versions.js';
import type { RequestEnvelope } from '../protocol/request-envelope.js';
import type { InboundRequest } from '../request/inbound-request.js';
import type { RequestAuth } from '../request/request-auth.js';
import { isPromiseLike } from '../tools/to-call-tool-result.js';
import type { ExchangeSessions } from './exchange-sessions.js';
import { failureOf, writeFailure, writeJson } from './http-failure.js';
import { httpStatusOf } from './http-status.js';
import { SseStream, sseEvent } from './sse-stream.js';

/** How the exchange may answer. */
export interface ExchangeOptions {
  era: ProtocolEra;
  envelope?: RequestEnvelope;
  /** The client accepts SSE (and the server does not force JSON). */
  sse: boolean;
  auth?: RequestAuth;
  /** 2025 requests over SSE: where their one-exchange sessions (server→client requests) are kept. */
  exchanges?: ExchangeSessions;
  /** Aborted when the server drains: streams that never end on their own (`subscriptions/listen`) end then. */
  drain?: AbortSignal;
  /** This replica's id, where one is configured (parked runs name it; see `InboundRequest.replicaId`). */
  replicaId?: string;
}

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/** What serves a request: the server's dispatcher, or a relay to another replica. */
export type RequestHandling = Pick<RequestDispatcher, 'dispatch'>;

/** Methods that only make sense as a stream. */
const streamingMethods = new Set(['subscriptions/listen', 'events/stream']);

/** Serves one stateless request; settles when it was answered. */
export function serveStatelessRequest(
  dispatcher: RequestHandling,
  message: JSONRPCRequest,
  response: ServerResponse,
  options: ExchangeOptions,
): Promise<void> | undefined {
  const abort = new CallAbort();
  const sse = options.sse || streamingMethods.has(message.method);
  let stream: SseStream | undefined;
  const send = (outgoing: JSONRPCMessage) => {
    stream ??= new SseStream(response);
    stream.write(outgoing);
  };
  // A 2025 stateless call may still ask its client, on its own SSE stream.
  const session =
    options.era === 'legacy' && sse && options.exchanges !== undefined && message.method !== 'initialize'
      ? options.exchanges.open({ send })
      : undefined;
  // Optional fields set one by one: on Node 20 a literal of conditional spreads costs more than
  // the rest of building the request.
  const request: Writable<InboundRequest> = {
    id: message.id,
    method: message.method,
    params: message.params as Record<string, unknown> | undefined,
    era: options.era,
    transport: 'http',
    abort,
    channel: {
      notify: (notification) => {
        if (sse) send(notification);
      },
    },
  };
  if (options.envelope !== undefined) request.envelope = options.envelope;
  if (options.auth !== undefined) request.auth = options.auth;
  if (session !== undefined) request.session = session;
  if (options.replicaId !== undefined) request.replicaId = options.replicaId;
  // A listen stream would hold a drain to its timeout: it ends, and the client listens elsewhere.
  if (options.drain !== undefined && streamingMethods.has(message.method)) {
    const drain = options.drain;
    const stop = () => abort.abort('The server is draining.');
    if (drain.aborted) stop();
    else {
      drain.addEventListener('abort', stop, { once: true });
      response.once('close', () => drain.removeEventListener('abort', stop));
    }
  }
  const write = (answer: JSONRPCResponse | undefined) => {
    if (session !== undefined) options.exchanges?.release(session);
    if (stream !== undefined) {
      stream.end(answer);
      return;
    }
    if (response.destroyed) return;
    if (answer === undefined) {
      response.writeHead(204).end();
      return;
    }
    const status = httpStatusOf(answer, options.era);
    if (sse && status === 200) {
      response.writeHead(200, ['content-type', 'text/event-stream', 'cache-control', 'no-cache']);
      response.end(sseEvent(answer));
      return;
    }
    writeJson(response, status, answer);
  };
  const answer = dispatcher.dispatch(request);
  // A request answered synchronously is written at once, without a turn of the event loop (and
  // without a close listener: nothing is left to cancel).
  if (!isPromiseLike(answer)) {
    write(answer);
    return undefined;
  }
  // The exchange closing before the answer cancels the call. A close that came while the handler
  // ran (the socket's events wait for this turn to end) still arrives after this listener.
  response.on('close', () => {
    if (!response.writableFinished) abort.abort('The HTTP request was closed.');
  });
  return answer.then(write, (error: unknown) => {
    if (!ServerError.isServerError(error)) throw error;
    if (session !== undefined) options.exchanges?.release(session);
    // Before any event, HTTP says it (503 with Retry-After); on an open stream, the stream's answer does.
    if (stream === undefined) writeFailure(response, failureOf(error, message.id));
    else stream.end({ jsonrpc: '2.0', id: message.id, error: toWireError(error) });
  });
}

/** Serves a 2025 batch statelessly: every request in parallel, one array (or stream) of answers. */
export async function serveStatelessBatch(
  dispatcher: RequestDispatcher,
  requests: JSONRPCRequest[],
  early: JSONRPCMessage[],
  response: ServerResponse,
  options: ExchangeOptions,
): Promise<void> {
  const abort = new CallAbort();
  response.on('close', () => {
    if (!response.writableFinished) abort.abort('The HTTP request was closed.');
  });
  const stream = options.sse ? new SseStream(response) : undefined;
  for (const message of early) stream?.write(message);
  const answers = await Promise.all(
    requests.map((message) =>
      dispatcher.dispatch({
        id: message.id,
        method: message.method,
        params: message.params as Record<string, unknown> | undefined,
        era: 'legacy',
        transport: 'http',
        abort,
        ...(options.auth !== undefined ? { auth: options.auth } : {}),
        channel: { notify: (notification) => stream?.write(notification) },
      }),
    ),
  );
  const delivered = answers.filter((answer): answer is JSONRPCResponse => answer !== undefined);
  if (stream !== undefined) {
    for (const answer of delivered) stream.write(answer);
    stream.end();
    return;
  }
  if (!response.destroyed) writeJson(response, 200, [...early, ...delivered]);
}
