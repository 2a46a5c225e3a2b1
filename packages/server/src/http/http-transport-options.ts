/** Options and handle of the Streamable HTTP transport of `serve`. */
import type { ClusterState } from '../cluster/cluster-state.js';
import type { OAuthResourceOptions } from './protected-resource.js';
import type { ServerCardOptions } from './server-card-options.js';

/** One static bearer token and the principal it names (sessions and rate limits are bound to it). */
export interface BearerTokenPrincipal {
  token: string;
  /** Who the token belongs to, e.g. `team-a`. */
  principal: string;
}

/** Bearer-token authentication: one token, or several each naming a principal (checked in constant time). */
export interface BearerAuthOptions {
  type: 'bearer';
  /** The token clients send as `Authorization: Bearer <token>` (its principal: a SHA-256 prefix of it). */
  token?: string;
  /** Several tokens, each with its principal. @default none */
  tokens?: BearerTokenPrincipal[];
}

/** Shared rate limits: per principal and tool, in fixed one-minute windows (shared through `cluster`). */
export interface RateLimitOptions {
  /** Calls of one tool one principal may make per minute (a window opens with its first call). */
  callsPerMinute: number;
}

/** A dependency `/ready` waits on besides the cluster state (e.g. the registry database). */
export interface ReadinessCheck {
  /** What is checked, for the 503 body (e.g. `registry store`). */
  name: string;
  /** Resolves when the dependency answers; rejects with a message safe to show (no secrets). */
  check(): Promise<void>;
}

/** Options of the HTTP transport of `serve`. */
export interface HttpTransportOptions {
  type: 'http';
  /** Port; 0 picks a free one. @default 3000 */
  port?: number;
  /** Interface to bind. @default '127.0.0.1' */
  host?: string;
  /** Path of the MCP endpoint. @default '/mcp' */
  path?: string;
  /**
   * 2025-era sessions (`initialize` → `Mcp-Session-Id`, GET SSE stream, DELETE, resumability,
   * server→client requests). 2026-07-28 requests are served statelessly either way, and without
   * sessions 2025 requests are too. @default false
   */
  session?: boolean;
  /** Answer POSTs with plain JSON instead of an SSE stream (notifications of a call are then dropped). @default false */
  json?: boolean;
  /** Authentication of `/mcp` and `/v1/tool-execute`: a static bearer token, or OAuth (MCP authorization spec). @default none */
  auth?: BearerAuthOptions | OAuthResourceOptions;
  /** Allow binding a non-loopback host without auth (logs a loud warning). @default false */
  allowUnauthenticated?: boolean;
  /** Extra accepted `Host` names (DNS-rebinding protection). @default loopback names when bound to loopback */
  allowedHosts?: string[];
  /** Extra accepted `Origin`s (e.g. `https://app.example.com`). @default loopback origins only */
  allowedOrigins?: string[];
  /** Largest accepted request body in bytes (413 beyond). @default 4 MiB */
  maxBodyBytes?: number;
  /**
   * The Server Card (SEP-2127), published at `<path>/server-card`, `/.well-known/mcp/server-card.json`
   * and in `/.well-known/mcp/catalog.json`, derived from the server on every request: what to add
   * (`name`, `description`, `websiteUrl`), or `false` for none. @default published
   */
  serverCard?: ServerCardOptions | false;
  /** Serve `POST /v1/tool-execute` (`{tool, input}` → result) for callers that do not speak MCP. @default false */
  restEndpoint?: boolean;
  /** How long `drain()` and `close()` wait for calls in flight (and idle connections, below). @default 10000 */
  drainTimeoutMs?: number;
  /**
   * On drain, leave idle keep-alive connections for the client to close (within `drainTimeoutMs`)
   * instead of closing them at once. Behind a balancer that reuses connections (nginx `keepalive`),
   * a server closing an idle connection races the balancer sending a request on it, and a POST lost
   * that way is not re-sent: only the client closing its own idle connection is free of that race.
   * Keep the balancer's idle timeout (nginx `keepalive_timeout`) below `drainTimeoutMs`. 2025 GET
   * streams are ended so their clients reopen them elsewhere. @default false
   */
  drainWaitsForIdleClose?: boolean;
  /**
   * This replica's id, sent as `x-switchboard-replica` on every response and in `/health`, and
   * named in the ids of server→client requests. Letters, digits, `_`, `-`. @default the cluster's, else none
   */
  replicaId?: string;
  /**
   * State shared with the other replicas (revocation, resumable streams, change events,
   * server→client responses, rate limits): `createRedisClusterState` from
   * `@switchboard/server/redis`. @default createMemoryClusterState() (this process only)
   */
  cluster?: ClusterState;
  /**
   * Keys sealing 2025 session ids (32 bytes each, e.g. `loadSessionKeys(path)`): the id carries the
   * session's state, bound to the caller, so any replica with the keys serves it. The first key
   * seals, all open. @default none: random ids known to this process only
   */
  sessionKeys?: ReadonlyArray<Uint8Array>;
  /**
   * Relaying a 2026-07-28 multi-round retry to the replica holding its parked run: how long that
   * replica may stay silent (no acknowledgement, no keep-alive) before the client is told to start
   * the call again. Relaying needs a replica id and one `requestState` key on every replica.
   * @default 5000
   */
  retryRelayTimeoutMs?: number;
  /** Longest life of a sealed session id, idle or not (its revocation is kept this long). @default 86400000 (24 h) */
  sessionMaxAgeMs?: number;
  /** Per-principal, per-tool limit on `tools/call`. @default none */
  rateLimit?: RateLimitOptions;
  /** Further dependencies `/ready` answers 503 for while they fail (each given 1 s). @default none */
  readinessChecks?: ReadonlyArray<ReadinessCheck>;
  /** SSE reconnection delay advertised to 2025 session clients (ms). @default 1000 */
  retryIntervalMs?: number;
  /** Session mode: sessions without a request for this long are closed (0 keeps them). @default 1800000 (30 min) */
  sessionIdleTimeoutMs?: number;
}

/** What a running HTTP server gives back. */
export interface HttpServerHandle {
  /** URL of the MCP endpoint, e.g. `http://127.0.0.1:3000/mcp`. */
  url: string;
  port: number;
  host: string;
  /** This replica's id, when set. */
  replicaId?: string;
  /**
   * Stops accepting connections (the listener closes, so a balancer fails over on connect), marks
   * `/ready` 503, lets calls in flight finish (up to `drainTimeoutMs`), closes idle keep-alive
   * connections and answers with `Connection: close` meanwhile. Sessions stay open.
   */
  drain(): Promise<void>;
  /** Drains, then closes sessions and every connection. */
  close(): Promise<void>;
}
