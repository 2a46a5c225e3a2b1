/**
 * The stateless HTTP fast path: one shared protocol session behind an in-process transport that
 * gives every incoming request a fresh internal id and routes the response (and the request's own
 * notifications) back to the HTTP exchange it came from.
 *
 * Why not the SDK's `StreamableHTTPServerTransport` with a fresh transport per request: that
 * converts each Node request to a web `Request`, builds a new transport and protocol and validates
 * the message several times, which costs more than the tool call. Here the body is parsed once and
 * no state survives a request except what routes its answer, so any instance behind a load
 * balancer can take any request, as in the SDK's stateless mode.
 */
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import { createErrorResponse, JsonRpcErrorCode } from './json-rpc-message.js';
import { type FastLane, type FastLaneSend, fastLaneKey, type McpSession } from './mcp-server.js';

/** Receives the messages a dispatched request produces before its response. */
export type NotificationSink = (message: JSONRPCMessage) => void;

/** Options of {@link RequestDispatcher.request}. */
export interface RequestOptions {
  onNotification?: NotificationSink;
  /**
   * Receives the function that cancels this request (the caller runs it when its HTTP exchange
   * closes early). A callback, not an AbortSignal: signals cost more than the call on this path.
   */
  onCancel?: (cancel: () => void) => void;
  extra?: MessageExtraInfo;
}

/** Dispatches checked JSON-RPC messages to one shared session. */
export interface RequestDispatcher {
  /**
   * Runs one request: its response (its original id restored), or a promise of it when the
   * request did not finish synchronously (a tool that answers at once is answered at once).
   */
  request(
    message: Extract<JSONRPCMessage, { id: string | number; method: string }>,
    options?: RequestOptions,
  ): JSONRPCMessage | Promise<JSONRPCMessage>;
  /** Delivers a notification (client → server). */
  notify(message: JSONRPCMessage, extra?: MessageExtraInfo): void;
  /** Requests in flight. */
  readonly inFlight: number;
  close(): Promise<void>;
}

// Most requests send no notifications: they share one sink instead of a closure each.
const resolvedSend = Promise.resolve();
const ignoreNotification: FastLaneSend = () => resolvedSend;

interface Pending {
  originalId: string | number;
  resolve: (message: JSONRPCMessage) => void;
  onNotification: NotificationSink | undefined;
}

/** Connects `session` to an in-process routing transport. */
export async function createRequestDispatcher(session: McpSession): Promise<RequestDispatcher> {
  const pending = new Map<number, Pending>();
  let nextId = 1;

  const transport: Transport = {
    async start() {},
    async close() {
      transport.onclose?.();
    },
    async send(message: JSONRPCMessage, options?: TransportSendOptions) {
      if ('id' in message && !('method' in message)) {
        const entry = pending.get(message.id as number);
        if (entry === undefined) return;
        pending.delete(message.id as number);
        entry.resolve({ ...message, id: entry.originalId } as JSONRPCMessage);
        return;
      }
      if ('method' in message && 'id' in message) {
        // A server → client request (sampling, elicitation) has no way back without a session.
        throw new Error(
          `"${message.method}" needs a client session; serve with { session: true } to use sampling or elicitation.`,
        );
      }
      const related = options?.relatedRequestId;
      if (related === undefined) return;
      pending.get(related as number)?.onNotification?.(message);
    },
  };
  await session.connect(transport);
  const lane = (session as McpSession & { [fastLaneKey]?: FastLane })[fastLaneKey];

  return {
    request(message, options = {}) {
      const internalId = nextId++;
      if (nextId > Number.MAX_SAFE_INTEGER - 1) nextId = 1;
      // Hot methods skip the routing transport and the SDK protocol entirely.
      const onNotification = options.onNotification;
      const fast = lane?.handle(
        {
          id: internalId,
          method: message.method,
          params: (message as { params?: Record<string, unknown> }).params,
        },
        onNotification === undefined
          ? ignoreNotification
          : (notification) => {
              onNotification(notification);
              return resolvedSend;
            },
        options.extra,
      );
      if (fast !== undefined) {
        // The lane makes each response for its call alone: the client's id can be put back in place.
        const originalId = message.id;
        if (!(fast instanceof Promise)) {
          (fast as { id: string | number }).id = originalId;
          return fast;
        }
        options.onCancel?.(() => lane?.cancel(internalId, 'The HTTP request was closed.'));
        return fast.then((response) => {
          if (response === undefined)
            return createErrorResponse(
              originalId,
              JsonRpcErrorCode.InternalError,
              'Request cancelled',
            ) as never;
          (response as { id: string | number }).id = originalId;
          return response;
        });
      }
      return new Promise<JSONRPCMessage>((resolve) => {
        pending.set(internalId, { originalId: message.id, resolve, onNotification: options.onNotification });
        options.onCancel?.(() => {
          if (!pending.has(internalId)) return;
          pending.delete(internalId);
          transport.onmessage?.({
            jsonrpc: '2.0',
            method: 'notifications/cancelled',
            params: { requestId: internalId, reason: 'The HTTP request was closed.' },
          });
          resolve(
            createErrorResponse(message.id, JsonRpcErrorCode.InternalError, 'Request cancelled') as never,
          );
        });
        transport.onmessage?.({ ...message, id: internalId } as JSONRPCMessage, options.extra);
      });
    },
    notify(message, extra) {
      // Cancellations name the client's id, which is ambiguous across clients here: the HTTP
      // request's own closing cancels instead (see `signal` above).
      if ('method' in message && message.method === 'notifications/cancelled') return;
      transport.onmessage?.(message, extra);
    },
    get inFlight() {
      return pending.size;
    },
    async close() {
      for (const [id, entry] of pending) {
        pending.delete(id);
        entry.resolve(
          createErrorResponse(entry.originalId, JsonRpcErrorCode.InternalError, 'Server closing') as never,
        );
      }
      await session.close();
    },
  };
}
