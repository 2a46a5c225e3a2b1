/**
 * One message connection (stdio, an in-memory transport pair) served through the dispatcher.
 * Every request is classified by itself: a 2026-07-28 envelope is served modern; anything else is
 * 2025 traffic on the connection's session, which `initialize` fills in (client capabilities,
 * revision) and attaches for unsolicited notifications. Responses to this server's requests
 * (elicitation, sampling, roots) and `notifications/cancelled` go to the session.
 */
import type { JSONRPCMessage, RequestId, Transport } from '@modelcontextprotocol/server';
import { loadOpenTelemetry } from '@switchboard/core';
import { CallAbort } from '../cancellation/call-abort.js';
import { classifyMessage } from '../dispatch/classify-message.js';
import type { RequestDispatcher } from '../dispatch/request-dispatcher.js';
import { isNotificationMessage, isRequestMessage } from '../protocol/json-rpc-message.js';
import type { InboundRequest } from '../request/inbound-request.js';
import { LegacySession } from '../session/legacy-session.js';
import { isPromiseLike } from '../tools/to-call-tool-result.js';
import { isStdioServerTransport } from './stdio-server-transport.js';

/** What a connection needs of its server. */
export interface ConnectionServer {
  readonly dispatcher: RequestDispatcher;
  readonly logger: { debug(data: unknown, message?: string): void };
}

/** A served message connection. */
export class MessageConnection {
  readonly #server: ConnectionServer;
  readonly #transport: Transport;
  readonly #session: LegacySession;
  readonly #modernInFlight = new Map<RequestId, CallAbort>();
  readonly #closeListeners = new Set<() => void>();
  #closed = false;

  /** `stdio` when served on the process's stdin/stdout (`network.transport` of its spans). */
  readonly #wire: 'stdio' | undefined;

  constructor(server: ConnectionServer, transport: Transport) {
    this.#server = server;
    this.#transport = transport;
    this.#wire = isStdioServerTransport(transport) ? 'stdio' : undefined;
    this.#session = new LegacySession({ send: (message) => this.#send(message) });
  }

  /** Starts reading messages. */
  async start(): Promise<void> {
    this.#transport.onmessage = (message) => this.#receive(message as JSONRPCMessage);
    this.#transport.onclose = () => this.#ended();
    this.#transport.onerror = (error) =>
      this.#server.logger.debug({ error: error.message }, 'transport error');
    await this.#transport.start();
  }

  /** Runs `listener` once when the connection ends. */
  onClose(listener: () => void): void {
    this.#closeListeners.add(listener);
  }

  /** Ends the connection. */
  async close(): Promise<void> {
    if (this.#closed) return;
    await this.#transport.close();
    this.#ended();
  }

  #receive(message: JSONRPCMessage): void {
    if (isRequestMessage(message)) {
      this.#request(message);
      return;
    }
    if (isNotificationMessage(message)) {
      this.#notification(message);
      return;
    }
    // A response to one of this server's requests (elicitation, sampling, roots).
    this.#session.resolveResponse(message as never);
  }

  #request(message: Extract<JSONRPCMessage, { id: RequestId; method: string }>): void {
    const route = classifyMessage({ httpMethod: 'POST', body: message }, true);
    if (route.kind === 'reject') {
      this.#send({ jsonrpc: '2.0', id: route.id ?? message.id, error: route.error } as JSONRPCMessage);
      return;
    }
    const abort = new CallAbort();
    const base = {
      id: message.id,
      method: message.method,
      params: message.params as Record<string, unknown> | undefined,
      ...(this.#wire !== undefined ? { transport: this.#wire } : {}),
      channel: { notify: (notification: JSONRPCMessage) => this.#send(notification) },
      abort,
    };
    let request: InboundRequest;
    if (route.kind === 'modern-request') {
      this.#modernInFlight.set(message.id, abort);
      request = { ...base, era: 'modern', envelope: route.envelope };
    } else {
      request = { ...base, era: 'legacy', session: this.#session };
    }
    const answer = this.#server.dispatcher.dispatch(request);
    const deliver = (response: JSONRPCMessage | undefined) => {
      this.#modernInFlight.delete(message.id);
      if (response !== undefined) this.#send(response);
    };
    if (isPromiseLike(answer))
      answer.then(deliver, (error: unknown) =>
        this.#server.logger.debug({ error: String(error) }, 'request failed'),
      );
    else deliver(answer);
  }

  #notification(message: Extract<JSONRPCMessage, { method: string }>): void {
    if (message.method !== 'notifications/cancelled') return;
    const params = message.params as { requestId?: RequestId; reason?: unknown } | undefined;
    const requestId = params?.requestId;
    if (requestId === undefined) return;
    const modern = this.#modernInFlight.get(requestId);
    if (modern !== undefined) {
      this.#modernInFlight.delete(requestId);
      modern.abort(params?.reason ?? 'cancelled by the client');
      return;
    }
    this.#session.cancel(requestId, params?.reason);
  }

  #send(message: JSONRPCMessage): void {
    if (this.#closed) return;
    this.#transport.send(message).catch((error: unknown) => {
      this.#server.logger.debug(
        { error: error instanceof Error ? error.message : String(error) },
        'could not send',
      );
    });
  }

  #ended(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const abort of this.#modernInFlight.values()) abort.abort('The connection closed.');
    this.#modernInFlight.clear();
    this.#session.close('The connection closed.');
    for (const listener of this.#closeListeners) listener();
    this.#closeListeners.clear();
  }
}

/** Serves `transport` (started here) with `server`'s dispatcher. */
export async function serveMessageConnection(
  server: ConnectionServer,
  transport: Transport,
): Promise<MessageConnection> {
  // Telemetry is ready before the first request (the optional @opentelemetry/api, loaded once).
  await loadOpenTelemetry();
  const connection = new MessageConnection(server, transport);
  await connection.start();
  return connection;
}
