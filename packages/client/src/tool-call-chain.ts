/**
 * A tool call as a chain of named links, each one step that can stop the call or pass it on (as
 * tRPC's links and the MCP SDK's `applyMiddlewares` compose): validate the arguments → approve →
 * observe (metrics, usage, the span: once per call) → check the output → supervise (reconnect,
 * retry, circuit breaker) → send (the connection's one request engine, with the call's deadline,
 * progress and cancellation). A registry tool runs the whole chain; a relay (a gateway) runs
 * observe → supervise → send; a bare `McpClient.callTool` observe → send. Chains are composed
 * once, so a call costs the links' own work and nothing for the composition.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { CallToolOptions } from './mcp-client-options.js';
import type { RequestTrace } from './telemetry/request-telemetry.js';

/** One tool call on its way through the links. */
export interface ToolCall {
  /** The server it goes to. */
  readonly server: string;
  /** The tool's name on the server. */
  readonly tool: string;
  /** The name the caller knows it by (namespaced in a registry; the server's name otherwise). */
  readonly publicName: string;
  readonly args: Record<string, unknown>;
  /** The caller's options, passed down unchanged (a registry's `execute` adds `approved`). */
  readonly options: CallToolOptions & { approved?: boolean };
  /** Re-running it after an unknown outcome does no harm (annotated read-only or idempotent). */
  readonly retrySafe: boolean;
  /** The caller takes a task (`startTool`): a 2025 server that runs the tool as a task is asked to. */
  asTask?: boolean;
  /** Set by the observe link: the send link then starts the call's span with its first request. */
  observed?: boolean;
  /** The call's span, started with its first request and ended by the observe link. */
  trace?: RequestTrace | undefined;
}

/** The rest of the chain after a link. */
export type ToolCallNext = (call: ToolCall) => Promise<CallToolResult>;

/** One step of a call: does its part and calls `next`, or stops the call by throwing. */
export type ToolCallLink = (call: ToolCall, next: ToolCallNext) => Promise<CallToolResult>;

/** Composes `links` in front of `last` (once; the result is called per call). */
export function chainLinks(links: readonly ToolCallLink[], last: ToolCallNext): ToolCallNext {
  return links.reduceRight<ToolCallNext>((next, link) => (call) => link(call, next), last);
}
