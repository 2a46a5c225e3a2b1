/**
 * What every transport hands the dispatcher: one JSON-RPC request, the era it was classified
 * into, the envelope (modern) or session (2025 sessions), and the channel its notifications go
 * out on. HTTP (stateless, sessions) and stdio build the same shape, so one path serves them all.
 */
import type { JSONRPCNotification, RequestId } from '@modelcontextprotocol/server';
import type { ProtocolEra } from '../protocol/protocol-versions.js';
import type { RequestEnvelope } from '../protocol/request-envelope.js';
import type { LegacySession } from '../session/legacy-session.js';
import type { CallAbort } from '../tools/call-abort.js';

/** Where a request's own notifications (progress, log) and stream controls go. */
export interface RequestChannel {
  /** Sends a notification that belongs to this request. */
  notify(notification: JSONRPCNotification): void;
  /** Closes the response stream now (2025 sessions with an event store: the client resumes with `Last-Event-ID`). */
  closeStream?(): void;
}

/** A channel that drops everything (JSON answers, REST, `callTool`). */
export const silentChannel: RequestChannel = { notify() {} };

/** Facts about an authenticated caller (HTTP auth). */
export interface RequestAuth {
  /** Scopes of the verified token (OAuth), empty for a static bearer token. */
  scopes: readonly string[];
  subject?: string;
  clientId?: string;
  /** Who sessions and rate limits are bound to, when the transport named it (static bearer tokens). */
  principal?: string;
}

/** One request as the dispatcher receives it. */
export interface InboundRequest {
  readonly id: RequestId;
  readonly method: string;
  readonly params: Record<string, unknown> | undefined;
  /** `modern`: 2026-07-28, stateless, `_meta` envelope; `legacy`: the 2025 family. */
  readonly era: ProtocolEra;
  /** The modern request's `_meta` envelope. */
  readonly envelope?: RequestEnvelope;
  /** The 2025 session the request arrived on; absent for stateless serving. */
  readonly session?: LegacySession;
  readonly channel: RequestChannel;
  /** Cancellation of this request (client cancellation, a closed HTTP exchange, shutdown). */
  readonly abort: CallAbort;
  readonly auth?: RequestAuth;
  /**
   * The replica serving the request (HTTP with a replica id): a run it parks names it in the
   * sealed `requestState`, so a retry that lands on another replica is relayed here.
   */
  readonly replicaId?: string;
  /** The wire it came over (`network.transport` of its span): stdio or HTTP; absent in-process. */
  readonly transport?: 'stdio' | 'http';
  /**
   * The OpenTelemetry `Context` of the request's server span, set by the dispatcher while
   * tracing: what the handler calls out (a gateway's upstream call) is its child.
   */
  readonly traceContext?: unknown;
}
