/**
 * The execute of an upstream tool a gateway serves: the call goes to the upstream server with the
 * downstream call's cancellation, progress and client requests (`forward-progress.ts`,
 * `forward-client-requests.ts`), counted by the upstream set where it can (`relayTool`: metrics,
 * store usage, `afterToolCall`), and the upstream's `CallToolResult` comes back exactly as it was
 * sent. An upstream's JSON-RPC error is relayed with its own code; a call that failed because the
 * downstream client could not answer the upstream's request fails as a tool failure saying so.
 */
import { ProtocolError } from '@modelcontextprotocol/server';
import type { CallToolOptions } from '@switchboard/client';
import { type Logger, type RegisteredTool, SwitchboardError } from '@switchboard/core';
import type { ToolContext } from '@switchboard/server';
import {
  type DownstreamRefusal,
  forwardClientRequests,
  type RelayedTool,
} from './forward-client-requests.js';
import { forwardProgress } from './forward-progress.js';
import type { GatewayUpstreamClient } from './gateway-catalog.js';
import type { GatewayClients } from './gateway-clients.js';
import {
  acceptsTasks,
  asksLegacyTask,
  relayedStart,
  type TaskIssuing,
  type TasksClientPart,
  taskOwnerOf,
} from './gateway-tasks.js';

/** The options of the upstream call: the downstream call's signal, trace, progress and client requests. */
function upstreamCallOptions(
  options: Record<string, unknown> | undefined,
  relayed: RelayedTool,
  logger: Logger,
  refused: DownstreamRefusal,
): CallToolOptions {
  const context = options?.toolContext as ToolContext | undefined;
  const signal = options?.signal as AbortSignal | undefined;
  const traceContext = options?.traceContext;
  return {
    ...(signal !== undefined ? { signal } : {}),
    // The upstream call's span is a child of the downstream request's (one trace end to end).
    ...(traceContext !== undefined ? { traceContext } : {}),
    ...(context !== undefined
      ? {
          onProgress: forwardProgress(context, relayed, logger),
          // A long upstream call that reports progress is alive: its deadline starts again.
          resetTimeoutOnProgress: true,
          // A downstream that takes no task is not given one: a tool that requires one is refused
          // upstream (-32021), as the spec says, rather than run as a task the gateway polls.
          ...(acceptsTasks(context) || asksLegacyTask(context) ? {} : { tasks: false }),
          ...forwardClientRequests(context, relayed, refused),
        }
      : {}),
  };
}

function toolContextOf(options: unknown): ToolContext | undefined {
  return (options as { toolContext?: ToolContext } | undefined)?.toolContext;
}

/** An upstream's JSON-RPC error, relayed with its own code; other failures stay tool failures. */
function relayedError(tool: RegisteredTool, error: unknown): unknown {
  const context = SwitchboardError.isInstance(error) ? error.context : undefined;
  const wireCode = context?.jsonRpcCode;
  if (typeof wireCode !== 'number') return error;
  // A missing capability says which (the spec's error data for -32021).
  const required = context?.requiredCapabilities;
  return new ProtocolError(
    wireCode,
    `${error instanceof Error ? error.message : String(error)} (upstream MCP server "${tool.server}", tool "${tool.originalName}")`,
    required !== undefined ? { requiredCapabilities: required } : undefined,
  );
}

/** The relaying execute of one upstream tool. */
export function relayingExecute(
  tool: RegisteredTool,
  clients: GatewayClients,
  logger: Logger,
  taskIssuing: TaskIssuing,
): NonNullable<RegisteredTool['execute']> {
  const relayed: RelayedTool = { server: tool.server, tool: tool.originalName };
  return async (args, options) => {
    let refusal: Error | undefined;
    const callOptions = upstreamCallOptions(
      options as Record<string, unknown> | undefined,
      relayed,
      logger,
      (error) => {
        refusal ??= error;
      },
    );
    try {
      // A downstream that takes tasks gets the upstream's task, if it answers with one (relayed
      // under a gateway id by `gateway-tasks.ts`); otherwise the task would be polled here.
      const context = toolContextOf(options);
      const legacyTask = asksLegacyTask(context);
      if (legacyTask || acceptsTasks(context)) {
        const upstream = clients.client?.(tool.server) as
          | (GatewayUpstreamClient & TasksClientPart)
          | undefined;
        if (upstream?.startTool !== undefined)
          return await relayedStart(
            taskIssuing,
            tool.server,
            await upstream.startTool(tool.originalName, args, callOptions),
            taskOwnerOf(context),
            legacyTask,
          );
      }
      // Counted like every call of the set, the upstream's own answer unchanged.
      if (clients.relayTool !== undefined)
        return await clients.relayTool(tool.server, tool.originalName, args, callOptions);
      // A set without relayTool: its client directly (its registry tools may wrap results for models).
      const client = clients.client?.(tool.server);
      if (client?.callTool !== undefined) return await client.callTool(tool.originalName, args, callOptions);
      if (tool.execute === undefined)
        throw new Error(`Upstream tool "${tool.name}" cannot be run (it has no execute).`);
      return await tool.execute(args, callOptions as Record<string, unknown>);
    } catch (error) {
      // The downstream could not answer what the upstream asked: that is why the call failed.
      throw refusal ?? relayedError(tool, error);
    }
  };
}
