/**
 * What a server's supervision tells about it (`status()`): its state, how it is reached, its last
 * error, the circuit breaker, respawns, its tools and what it said about itself.
 */

import type { TransportType } from '@switchboard/transports';
import type { CircuitState } from './circuit-breaker.js';
import type { ProtocolEra } from './protocol-version.js';

/** Lifecycle state of a server. */
export type ServerState = 'idle' | 'connecting' | 'connected' | 'failed' | 'needs-auth';

/** What `status()` tells about one server. */
export interface ServerStatus {
  state: ServerState;
  /** How it is reached. */
  transport: TransportType;
  /** The last error (code and redacted message), if the last attempt failed. */
  lastError?: { code: string; message: string; at: string };
  /** Circuit breaker state: `open` means calls fail fast until `circuitRetryAt`. */
  circuit: CircuitState;
  /** When an open circuit lets the next trial through (ISO time). */
  circuitRetryAt?: string;
  /** Consecutive connection failures. */
  consecutiveFailures: number;
  /** How many times the server was respawned (or reconnected) after dying. */
  respawns: number;
  /** Number of tools the server currently offers. */
  toolCount: number;
  /** Server name and version (`server/discover` or `initialize`). */
  serverInfo?: { name: string; version: string };
  /** The era of the connection: `modern` (2026-07-28, no `initialize`) or `legacy` (2025 handshake). */
  era?: ProtocolEra;
  /** The negotiated protocol version. */
  protocolVersion?: string;
}
