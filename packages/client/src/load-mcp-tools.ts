/**
 * Tool records for an SDK (v2) `Client` the user connected themselves, in either era: the same namespaced, validated,
 * approval-checked and wrapped tools `connectMcp` gives, without Switchboard owning the connection
 * (so no respawn or reconnect: the connection is the user's).
 */

import type { CallToolResult, Client, Tool } from '@modelcontextprotocol/client';
import {
  createToolRegistry,
  type RegisteredTool,
  type ToolNamingOptions,
  type ToolRegistry,
  type WrapToolResultOptions,
} from '@switchboard/core';
import type { ApprovalSetting } from './approval-setting.js';
import { toClientError } from './client-error.js';
import { createCoreToolSteps, createSharedValidator } from './core-tool-steps.js';
import { type ApproveCallback, toToolInput } from './mcp-tool.js';
import { createMetricsRecorder, type McpMetrics } from './metrics-recorder.js';
import { createObserveLink } from './observe-link.js';
import { createRedactor } from './redactor.js';
import type { ToolCall } from './tool-call-chain.js';

/** Options of {@link loadMcpTools}. */
export interface LoadMcpToolsOptions {
  /** Registry to register the tools in. @default a new registry */
  registry?: ToolRegistry;
  /** Naming of a registry created here. @default core's default (`mcp__{server}__{tool}`) */
  naming?: ToolNamingOptions;
  /** Namespace prefix standing in for the server name. @default serverName */
  prefix?: string;
  /** Asked before a tool whose policy says `ask`; without it such tools are refused with `APPROVAL_REQUIRED`. */
  approve?: ApproveCallback;
  /** Approval policy of these tools. @default 'annotations' */
  approval?: ApprovalSetting;
  /** `execute` returns the raw `CallToolResult`. @default false */
  rawResults?: boolean;
  /** Options of core's `wrapToolResult`. */
  wrap?: Omit<WrapToolResultOptions, 'toolName' | 'shape'>;
  /** Default deadline of each call. @default 60000 */
  requestTimeoutMs?: number;
}

/** What {@link loadMcpTools} returns. */
export interface LoadedMcpTools {
  /** The tools by public (namespaced) name. */
  tools: Record<string, RegisteredTool>;
  registry: ToolRegistry;
  /** Re-reads the server's tool list and updates the registry. */
  refresh(): Promise<void>;
  /** Calls, errors and latencies of these tools. */
  metrics(): McpMetrics;
}

/** Loads the tools of an already connected SDK client into a registry. */
export async function loadMcpTools(
  client: Client,
  serverName: string,
  options: LoadMcpToolsOptions = {},
): Promise<LoadedMcpTools> {
  const registry = options.registry ?? createToolRegistry(options.naming ? { naming: options.naming } : {});
  const metrics = createMetricsRecorder();
  const redactor = createRedactor();
  const steps = createCoreToolSteps({
    server: serverName,
    approval: options.approval ?? 'annotations',
    validator: createSharedValidator(),
    ...(options.wrap ? { wrap: options.wrap } : {}),
  });
  const timeout = options.requestTimeoutMs ?? 60_000;
  // The send link is the user's client (no supervision: the connection is theirs).
  const send = (call: ToolCall) =>
    client
      .callTool(
        { name: call.tool, arguments: call.args },
        {
          timeout: call.options.timeoutMs ?? timeout,
          ...(call.options.signal ? { signal: call.options.signal } : {}),
        },
      )
      .catch((error: unknown) => {
        throw toClientError(error, {
          server: serverName,
          operation: 'tools/call',
          tool: call.tool,
          redactor,
        });
      }) as Promise<CallToolResult>;
  const observe = createObserveLink({ metrics });

  // Every page, as the SDK walks them (and keeps for the server's cache hint).
  const list = async (): Promise<Tool[]> => (await client.listTools(undefined, { timeout })).tools;

  const tools: Record<string, RegisteredTool> = {};
  const apply = (listed: Tool[]): void => {
    registry.replaceServer(
      serverName,
      listed.map((tool) =>
        toToolInput(tool, {
          server: serverName,
          ...(options.prefix === undefined ? {} : { prefix: options.prefix }),
          observe,
          supervise: send,
          steps,
          ...(options.approve ? { approve: options.approve } : {}),
          rawResults: options.rawResults === true,
          publicName: (originalName) => registry.getByOriginal(serverName, originalName)?.name,
        }),
      ),
    );
    for (const key of Object.keys(tools)) delete tools[key];
    for (const tool of registry.list({ server: serverName })) tools[tool.name] = tool;
  };
  apply(await list());
  return {
    tools,
    registry,
    refresh: async () => apply(await list()),
    metrics: () => metrics.snapshot(),
  };
}
