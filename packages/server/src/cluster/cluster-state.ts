/**
 * `ClusterState` (v1): what the replicas of one HTTP server share so that any replica answers any
 * request — session revocation, the event log of resumable SSE streams, change events, responses
 * to server→client requests of another replica, requests relayed to the replica that holds what
 * they need (the parked run of a multi-round call), and rate-limit counters. The built-in default
 * (`createMemoryClusterState`) keeps it in the process, which is today's single-process behaviour;
 * `@switchboard/server/redis` shares it over Redis. Implementations reject with a `ServerError` of
 * code `CLUSTER_UNAVAILABLE` when their backend cannot be reached, so callers fail fast with 503.
 * The contract is one small interface per capability; `ClusterState` is all of them together, and
 * each part of the server asks only for what it uses (the rate limit for `CallCounters`, …).
 */
import type { JSONRPCMessage, JSONRPCResponse, ServerEvent } from '@modelcontextprotocol/server';
import type { TaskOwnerIndex } from './task-owner-index.js';
import type { WebhookSubscriptionStore } from './webhook-subscription-store.js';

/** One stored event of a stream's log; `end` marks that the stream's requests are all answered. */
export type ClusterLogEntry =
  | { seq: number; message: JSONRPCMessage | Record<string, never> }
  | { seq: number; end: true };

/** A client's answer to a server→client request, on its way to the replica that asked. */
export interface ForwardedResponse {
  sessionId: string;
  message: JSONRPCResponse;
}

/** What a {@link ForwardedRequestHandler} gets besides the payload. */
export interface ForwardedRequestContext {
  /** The replica that relayed it. */
  from: string;
  /** Sends a JSON value back before the answer (progress of the relayed call), in order. */
  partial(value: unknown): void;
  /** Aborted when the sender gave up (its client went away). */
  signal: AbortSignal;
}

/**
 * Answers a request relayed to this replica (`forwardRequest` of another one): `payload` is the
 * JSON value the sender passed; the returned value (JSON) is the sender's answer.
 */
export type ForwardedRequestHandler = (
  payload: unknown,
  context: ForwardedRequestContext,
) => Promise<unknown>;

/** Options of {@link RequestRelay.forwardRequest}. */
export interface ForwardRequestOptions {
  /**
   * How long the target may stay silent: no acknowledgement within it after sending, or no sign of
   * life (a partial or a keep-alive) within it while the call runs, fails the relay.
   */
  timeoutMs: number;
  /** Receives the target's partial values, in order. */
  onPartial?: (value: unknown) => void;
  /** Gives up: the target's handler sees its `signal` aborted, the relay rejects. */
  signal?: AbortSignal;
}

/** A 2025 session subscribed to a resource, or unsubscribed, on some replica. */
export interface SubscriptionChange {
  sessionId: string;
  uri: string;
  subscribed: boolean;
}

/** Options of {@link StreamLogs.readLog}. */
export interface ReadLogOptions {
  /** Stops the tail (the client went away). */
  signal: AbortSignal;
  /** Keep waiting for new entries until an `end` entry arrives (the stream is still running elsewhere). */
  follow: boolean;
}

/** Who a replica is and whether its backend answers: what every part of the cluster state shares. */
export interface ClusterMember {
  readonly specificationVersion: 'v1';
  /** This replica's id (names it in server→client request ids and `x-switchboard-replica`). */
  readonly replicaId: string;
  /**
   * True when the state lives outside this process: session requests then check revocation, stream
   * events are logged for other replicas, and readiness depends on `ready()`.
   */
  readonly shared: boolean;
  /** Where the state lives, without credentials (for messages), e.g. `redis://10.0.0.5:6379/`. */
  readonly location?: string;
  /** Backend operations so far (Redis commands), for benches and tests. */
  readonly operations: number;
  /** Whether the backend answers now (readiness). */
  ready(): Promise<boolean>;
  /** Releases connections. */
  close(): Promise<void>;
}

/** 2025 sessions ended on one replica are ended on all (sealed session ids). */
export interface SessionRevocations {
  /** Marks a session as ended everywhere, for `ttlMs` (its idle lifetime). */
  revokeSession(sessionKey: string, ttlMs: number): Promise<void>;
  /** Whether a session was revoked (one lookup). */
  isSessionRevoked(sessionKey: string): Promise<boolean>;
}

/** The event logs of resumable SSE streams (`Last-Event-ID` on another replica). */
export interface StreamLogs {
  /** Appends an entry to a stream's log (entries of one log arrive in call order). */
  appendLog(logKey: string, entry: ClusterLogEntry, ttlMs: number): Promise<void>;
  /** The entries of a log after `afterSeq`, in order; with `follow`, then the new ones until `end`. */
  readLog(logKey: string, afterSeq: number, options: ReadLogOptions): AsyncIterable<ClusterLogEntry>;
}

/** Counters of the shared rate limit. */
export interface CallCounters {
  /** Counts one call in the fixed window of `counterKey` (the window opens with its first call). */
  countCall(counterKey: string, windowMs: number): Promise<{ count: number; resetInMs: number }>;
}

/** Change events (list changed, resource updated) between replicas. */
export interface ClusterEvents {
  /** Publishes a change event of this replica to the other replicas. */
  publishEvent(event: ServerEvent): void;
  /** Runs `listener` for change events published by other replicas; returns the unsubscribe. */
  onRemoteEvent(listener: (event: ServerEvent) => void): () => void;
}

/** A client's answer to a server→client request, carried to the replica that asked. */
export interface ResponseForwarding {
  /** Sends a client's response to the replica that issued the request. */
  forwardResponse(replicaId: string, response: ForwardedResponse): Promise<void>;
  /** Runs `listener` for responses forwarded to this replica; returns the unsubscribe. */
  onForwardedResponse(listener: (response: ForwardedResponse) => void): () => void;
}

/** Requests relayed to the replica that holds what they need (a parked multi-round run). */
export interface RequestRelay {
  /**
   * Relays `payload` (JSON) to the replica `replicaId` and resolves with its handler's answer.
   * Rejects with `REPLICA_UNREACHABLE` when no replica by that id listens, or it stays silent
   * for `timeoutMs`, and with `CLUSTER_UNAVAILABLE` when the backend does not answer.
   */
  forwardRequest(replicaId: string, payload: unknown, options: ForwardRequestOptions): Promise<unknown>;
  /** Installs the handler of requests relayed to this replica (one at a time); returns the uninstall. */
  onForwardedRequest(handler: ForwardedRequestHandler): () => void;
}

/** 2025 sessions' resource subscriptions, known to every replica that may hold the session's stream. */
export interface SubscriptionSharing {
  /** Records a 2025 session's resource subscription (or its end) and tells the other replicas. */
  changeSubscription(sessionKey: string, change: SubscriptionChange, ttlMs: number): Promise<void>;
  /** The URIs a 2025 session subscribed to (read when a replica re-creates the session). */
  subscriptionsOf(sessionKey: string): Promise<string[]>;
  /** Runs `listener` for subscription changes made on other replicas; returns the unsubscribe. */
  onRemoteSubscription(listener: (change: SubscriptionChange) => void): () => void;
}

/**
 * The state the replicas of one HTTP server share: every capability above. Implement this (or
 * take `createMemoryClusterState` / `createRedisClusterState`) to plug in a backend; each part of
 * the server depends only on the capabilities it uses.
 */
export interface ClusterState
  extends ClusterMember,
    SessionRevocations,
    StreamLogs,
    CallCounters,
    ClusterEvents,
    ResponseForwarding,
    RequestRelay,
    SubscriptionSharing {
  /**
   * The Events extension's webhook subscriptions shared by the replicas (a gateway delivers them
   * from any replica). Optional: a state without it serves everything else, and asking it for
   * webhooks is a clear `CONFIG_INVALID`. @default none (the built-in states have one)
   */
  readonly webhookSubscriptions?: WebhookSubscriptionStore;
  /**
   * Which relayed tasks belong to which downstream owner (a gateway's 2025-11-25 `tasks/list`,
   * from any replica). Optional like `webhookSubscriptions`. @default none (the built-in states have one)
   */
  readonly taskOwners?: TaskOwnerIndex;
}
