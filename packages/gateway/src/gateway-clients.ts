/**
 * What the gateway needs of its upstream set: a registry, status and metrics, and per upstream the
 * live client and a counted relay. Its own file because the relay of one call (`relay-tool-call.ts`)
 * uses it as much as the gateway does, and must not import the gateway that imports it.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { CallToolOptions, ConnectionTrust } from '@switchboard/client';
import type { ToolRegistry } from '@switchboard/core';
import type { GatewayUpstreamClient } from './gateway-catalog.js';

/** The part of a `connectMcp` result the gateway needs (so any compatible set works). */
export interface GatewayClients {
  readonly registry: ToolRegistry;
  status(): Record<string, unknown>;
  metrics(): unknown;
  close?(): Promise<void>;
  /**
   * Tool trust of the set (a `connectMcp` set has it): its registry holds only trusted tools, so
   * the gateway serves only those, and an approval (here, by the CLI, or by another replica on the
   * shared store) registers the tool, which the gateway announces downstream with
   * `notifications/tools/list_changed`. Review quarantined tools through it.
   */
  readonly trust?: ConnectionTrust;
  /** Names of the upstream servers (needed to serve their resources and prompts). */
  readonly servers?: readonly string[];
  /**
   * The live client of an upstream server, if connected: tool calls go to it directly (results
   * relayed unchanged), and it serves the upstream's resources and prompts.
   */
  client?(server: string): GatewayUpstreamClient | undefined;
  /**
   * Calls a tool of one upstream by its name there, returning its `CallToolResult` unchanged and
   * counting the call as the set counts every call (a `connectMcp` set: metrics, store usage,
   * `afterToolCall`). Without it, calls go to `client(server).callTool` uncounted.
   */
  relayTool?(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    options: CallToolOptions,
  ): Promise<CallToolResult>;
}
