/**
 * A 2025-era session: what `initialize` told us about the client, the log level it set, the
 * resources it subscribed to, its requests in flight (for `notifications/cancelled`) and the
 * requests this server sent it (elicitation, sampling, roots) awaiting answers. The transport
 * (stdio, an HTTP session) supplies the outlet its messages leave through.
 */
import { randomUUID } from 'node:crypto';
import type {
  ClientCapabilities,
  Implementation,
  JSONRPCMessage,
  JSONRPCNotification,
  LoggingLevel,
  RequestId,
} from '@modelcontextprotocol/server';
import { ProtocolError } from '@modelcontextprotocol/server';
import type { CallAbort } from '../cancellation/call-abort.js';
import { ServerError, ServerErrorCode } from '../errors/server-error.js';
import { SubscriptionSet } from './subscription-set.js';

/** How a session's messages reach its client. */
export interface SessionOutlet {
  /**
   * Sends a message; `relatedRequestId` names the client request it belongs to (HTTP puts it on
   * that request's stream; without one it goes to the session's standalone stream).
   */
  send(message: JSONRPCMessage, relatedRequestId?: RequestId): void;
}

/** Options of {@link LegacySession.request}. */
export interface SessionRequestOptions {
  /** The client request this one is made for. */
  relatedRequestId?: RequestId;
  /** Cancels the request (the client is told with `notifications/cancelled`). */
  signal?: AbortSignal;
  /** How long to wait for the client's answer. @default 300000 (5 min: a person may be answering) */
  timeoutMs?: number;
}

/** Options of a {@link LegacySession}. */
export interface LegacySessionOptions {
  /** False for a one-exchange session whose `initialize` happened elsewhere. @default true */
  capabilitiesKnown?: boolean;
  /** The replica serving the session: named in the ids of requests this server sends. @default none */
  replicaId?: string;
}

/** The replica a server→client request id names (`<replica>.<random>-<n>`), if it names one. */
export function replicaOfRequestId(id: RequestId): string | undefined {
  if (typeof id !== 'string') return undefined;
  const dot = id.indexOf('.');
  return dot > 0 ? id.slice(0, dot) : undefined;
}

interface PendingRequest {
  method: string;
  resolve: (result: unknown) => void;
  reject: (error: unknown) => void;
  cleanup: () => void;
}

/** A 2025-era session (stdio connection or HTTP `Mcp-Session-Id`). */
export class LegacySession {
  /** The `Mcp-Session-Id`, for HTTP sessions. */
  readonly id: string | undefined;
  /** The revision `initialize` settled on. */
  protocolVersion: string | undefined;
  clientCapabilities: ClientCapabilities = {};
  clientInfo: Implementation | undefined;
  /** The level the client set with `logging/setLevel`; undefined: every level. */
  logLevel: LoggingLevel | undefined;
  /** True once `initialize` was answered (unsolicited notifications wait for it). */
  initialized = false;
  /** URIs the client subscribed to with `resources/subscribe`. */
  readonly subscriptions = new SubscriptionSet();
  /** Client requests in flight, for `notifications/cancelled`. */
  readonly inFlight = new Map<RequestId, CallAbort>();
  /** When the session was last used (HTTP idle sweep). */
  lastSeen = Date.now();
  /**
   * False for the one-exchange session of a 2025 stateless HTTP request: `initialize` happened on
   * another exchange, so what the client declared is unknown and not checked.
   */
  readonly capabilitiesKnown: boolean;

  readonly #outlet: SessionOutlet;
  readonly #pending = new Map<RequestId, PendingRequest>();
  readonly #closeListeners = new Set<() => void>();
  // Ids of this server's requests are unique per process: a 2025 stateless client's answer
  // arrives on another HTTP exchange and is routed by its id alone. With replicas the prefix
  // names the replica, so an answer POSTed to another one is forwarded here.
  readonly #idPrefix: string;
  #nextRequestId = 0;
  #closed = false;

  constructor(outlet: SessionOutlet, id?: string, options: LegacySessionOptions = {}) {
    this.#outlet = outlet;
    this.id = id;
    this.capabilitiesKnown = options.capabilitiesKnown ?? true;
    const random = randomUUID().slice(0, 8);
    this.#idPrefix = options.replicaId === undefined ? `${random}-` : `${options.replicaId}.${random}-`;
  }

  /** False once the session ended. */
  get open(): boolean {
    return !this.#closed;
  }

  /** Sends a notification that belongs to the session, not to a request (list_changed, server logs). */
  notify(notification: JSONRPCNotification): void {
    if (!this.#closed) this.#outlet.send(notification);
  }

  /** Sends a notification on the stream of the client request it belongs to. */
  notifyRelated(notification: JSONRPCNotification, relatedRequestId: RequestId): void {
    if (!this.#closed) this.#outlet.send(notification, relatedRequestId);
  }

  /** Sends a request to the client and resolves with its result (rejects with its error). */
  request(
    method: string,
    params: Record<string, unknown>,
    options: SessionRequestOptions = {},
  ): Promise<unknown> {
    if (this.#closed) {
      return Promise.reject(
        new ServerError({
          code: ServerErrorCode.Cancelled,
          message: `Cannot send "${method}": the MCP session has ended.`,
        }),
      );
    }
    this.#nextRequestId += 1;
    const id = `${this.#idPrefix}${this.#nextRequestId}`;
    return new Promise((resolve, reject) => {
      const timeoutMs = options.timeoutMs ?? 300_000;
      const timer = setTimeout(() => {
        this.#settle(id)?.reject(
          new ServerError({
            code: ServerErrorCode.Cancelled,
            message: `The client did not answer "${method}" within ${timeoutMs} ms.`,
          }),
        );
        this.#outlet.send({
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: id, reason: 'timed out' },
        });
      }, timeoutMs);
      timer.unref?.();
      const signal = options.signal;
      const onAbort = () => {
        this.#settle(id)?.reject(signal?.reason ?? new Error('cancelled'));
        this.#outlet.send({
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: id, reason: String(signal?.reason ?? 'cancelled') },
        });
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#pending.set(id, {
        method,
        resolve,
        reject,
        cleanup: () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
        },
      });
      if (signal?.aborted) {
        onAbort();
        return;
      }
      this.#outlet.send({ jsonrpc: '2.0', id, method, params }, options.relatedRequestId);
    });
  }

  /** Hands a client's response to the request it answers; false when it answers none of ours. */
  resolveResponse(message: {
    id: RequestId;
    result?: unknown;
    error?: { code: number; message: string; data?: unknown };
  }): boolean {
    const pending = this.#settle(message.id);
    if (pending === undefined) return false;
    if (message.error !== undefined) {
      pending.reject(new ProtocolError(message.error.code, message.error.message, message.error.data));
    } else {
      pending.resolve(message.result);
    }
    return true;
  }

  /** Aborts a client request in flight (`notifications/cancelled`); false when it is not in flight. */
  cancel(requestId: RequestId, reason: unknown): boolean {
    const abort = this.inFlight.get(requestId);
    if (abort === undefined) return false;
    this.inFlight.delete(requestId);
    abort.abort(reason ?? 'cancelled by the client');
    return true;
  }

  /** Runs `listener` once when the session ends; returns the function that removes it. */
  onClose(listener: () => void): () => void {
    this.#closeListeners.add(listener);
    return () => this.#closeListeners.delete(listener);
  }

  /** Ends the session: pending requests fail, calls in flight are aborted, close listeners run. */
  close(reason = 'The MCP session ended.'): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const id of [...this.#pending.keys()]) {
      this.#settle(id)?.reject(new ServerError({ code: ServerErrorCode.Cancelled, message: reason }));
    }
    for (const abort of this.inFlight.values()) abort.abort(reason);
    this.inFlight.clear();
    for (const listener of this.#closeListeners) {
      try {
        listener();
      } catch {
        // A failing listener must not keep the others from running.
      }
    }
    this.#closeListeners.clear();
  }

  #settle(id: RequestId): PendingRequest | undefined {
    const pending = this.#pending.get(id);
    if (pending === undefined) return undefined;
    this.#pending.delete(id);
    pending.cleanup();
    return pending;
  }
}
