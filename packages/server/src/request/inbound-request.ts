/**
 * What every transport hands the dispatcher: one JSON-RPC request, the era it was classified
 * into, the envelope (modern) or session (2025 sessions), and the channel its notifications go
 * out on. HTTP (stateless, sessions) and stdio build the same shape, so one path serves them all.
 * `request/` sits below the folders that read a request (tools/, catalog/, tasks/, telemetry/) and
 * the dispatcher above them, so that the server's folders import one way.
 */
import type { RequestId } from '@modelcontextprotocol/server';
import type { CallAbort } from '../cancellation/call-abort.js';
import type { ProtocolEra } from '../protocol/protocol-versions.js';
import type { RequestEnvelope } from '../protocol/request-envelope.js';
import type { LegacySession } from '../session/legacy-session.js';
import type { RequestAuth } from './request-auth.js';
import type { RequestChannel } from './request-channel.js';

/** One request as the dispatcher receives it. */
export interface InboundRequest {
  readonly id: RequestId;
  readonly method: string;
  readonly params: Record<string, unknown> | undefined;
  /**
   * `modern`: 2026-07-28, stateless, `_meta` envelope; `legacy`: the 2025 family. A request that
   * came through no MCP protocol (see `entry`) is served by the 2025 rules: a plain result, and no
   * round trips to the client.
   */
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
   * How a request that is not an MCP message entered: the REST endpoint or `McpServer.callTool`
   * (an in-process call). Absent for MCP requests. Such a caller cannot be asked for input.
   */
  readonly entry?: 'rest' | 'in-process';
  /**
   * The OpenTelemetry `Context` of the request's server span, set by the dispatcher while
   * tracing: what the handler calls out (a gateway's upstream call) is its child.
   */
  readonly traceContext?: unknown;
}
