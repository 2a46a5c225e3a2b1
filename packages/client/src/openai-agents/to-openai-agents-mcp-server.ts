/**
 * A Switchboard connection as an Agents SDK MCP server, for `new Agent({ mcpServers: [server] })`:
 * one "server" to the SDK, behind which are all the connection's servers with their namespaced
 * tools, supervision and policies. The connection is already connected and is read anew on every
 * listing, so `cacheToolsList` is off and `connect`/`invalidateToolsCache` have nothing to do.
 *
 * Approvals: the SDK's MCP server interface has no approval hook (only hosted MCP tools have
 * `requireApproval`), so a tool whose policy says `ask` goes to the `approve` callback given to
 * `connectMcp`, and without one it is refused (`APPROVAL_REQUIRED`, which the model reads). For
 * approvals through the SDK's interruptions use `toOpenAIAgentsTools` instead.
 */

import type {
  Agent,
  CallToolResultContent,
  MCPCallToolOptions,
  MCPServer,
  MCPToolFilterContext,
  RunContext,
} from '@openai/agents';
import type { RegisteredTool } from '@switchboard/core';
import { ClientError, ClientErrorCode } from '../client-error.js';
import {
  type AdapterTool,
  type AdapterToolOptions,
  toAdapterTool,
} from '../framework-adapter/adapter-tool.js';
import {
  type AdapterSelectOptions,
  type ToolSource,
  type ToolSourceOptions,
  toolsOf,
} from '../framework-adapter/tool-source.js';
import { toOpenAIAgentsOutput } from './to-openai-agents-output.js';
import { toolErrorText } from './to-openai-agents-tools.js';
import { createTurnSelection } from './turn-selection.js';

/** A tool as the SDK's MCP server interface lists it (the SDK does not export the type by name). */
type MCPTool = Awaited<ReturnType<MCPServer['listTools']>>[number];

/** Options of {@link toOpenAIAgentsMcpServer}. */
export interface OpenAIAgentsMcpServerOptions
  extends Omit<AdapterToolOptions, 'approvals'>,
    ToolSourceOptions {
  /** The server's name in the SDK's traces and errors. @default 'switchboard' */
  name?: string;
  /**
   * Offer per run only the tools a selector picks for the latest user input, through the
   * server's `toolFilter`; the agent must be wrapped with `withOpenAIAgentsToolSelection`.
   */
  select?: AdapterSelectOptions;
  /** Let `close()` close the source (a connection): for servers handed to `connectMcpServers`. @default false */
  closeSource?: boolean;
}

/** The tool list the SDK reads: JSON Schema objects with `required` and `additionalProperties` set. */
function toMcpTool(adapter: AdapterTool): MCPTool {
  const schema = adapter.inputSchema as Record<string, unknown>;
  return {
    name: adapter.name,
    description: adapter.description,
    inputSchema: {
      ...schema,
      type: 'object',
      properties: (schema.properties as Record<string, unknown>) ?? {},
      required: Array.isArray(schema.required) ? (schema.required as string[]) : [],
      // `true` would make the SDK try (and warn about) a strict conversion; with `false` it takes
      // its non-strict path, which sends the schema with `additionalProperties: true` anyway.
      additionalProperties: false,
    },
  } as MCPTool;
}

/** A Switchboard source as an Agents SDK `MCPServer`. */
export function toOpenAIAgentsMcpServer(
  source: ToolSource,
  options: OpenAIAgentsMcpServerOptions = {},
): MCPServer {
  // Approvals stay with the client: there is no way to ask through the SDK here.
  const adapterOptions: AdapterToolOptions = { ...options, approvals: 'client' };
  // One adapter per registered tool, made once: the source is read on every list and call (it
  // follows list_changed), but a call should not rebuild every tool's adapter to find its own.
  const made = new WeakMap<RegisteredTool, AdapterTool>();
  const adapterOf = (registered: RegisteredTool): AdapterTool => {
    let adapter = made.get(registered);
    if (adapter === undefined) {
      adapter = toAdapterTool(registered, adapterOptions);
      made.set(registered, adapter);
    }
    return adapter;
  };
  const adapters = (): Map<string, AdapterTool> =>
    new Map(
      toolsOf(source, options).map((registered) => {
        const adapter = adapterOf(registered);
        return [adapter.name, adapter];
      }),
    );
  const selection =
    options.select === undefined
      ? undefined
      : createTurnSelection(() => toolsOf(source, options), options.select);
  const name = options.name ?? 'switchboard';
  const server: MCPServer = {
    name,
    cacheToolsList: false,
    errorFunction: ({ error }) => toolErrorText(error),
    async connect() {},
    async close() {
      if (options.closeSource === true && 'close' in source && typeof source.close === 'function') {
        await (source.close as () => Promise<void>)();
      }
    },
    async listTools() {
      return [...adapters().values()].map(toMcpTool);
    },
    async callTool(
      toolName: string,
      args: Record<string, unknown> | null,
      _meta?: unknown,
      callOptions?: MCPCallToolOptions,
    ) {
      const adapter = adapters().get(toolName);
      if (adapter === undefined) {
        throw new ClientError({
          code: ClientErrorCode.ToolNotFound,
          message: `No tool "${toolName}" on the Switchboard MCP server "${name}": it was removed since it was listed, or its policy denies it.`,
          context: { tool: toolName },
        });
      }
      const content = await adapter.call(
        args ?? {},
        callOptions?.signal === undefined ? {} : { signal: callOptions.signal },
      );
      const output = toOpenAIAgentsOutput(content);
      const items: CallToolResultContent = (
        typeof output === 'string' ? [{ type: 'text', text: output }] : output
      ) as CallToolResultContent;
      if (content.isError) items.isError = true;
      if (content.data !== undefined && typeof content.data === 'object' && content.data !== null) {
        items.structuredContent = content.data as Record<string, unknown>;
      }
      return items;
    },
    async invalidateToolsCache() {},
  };
  if (selection !== undefined) {
    const byPublicName = (): Map<string, string> =>
      new Map([...adapters().values()].map((adapter) => [adapter.name, adapter.tool.name]));
    server.toolFilter = async (context: MCPToolFilterContext, listed: MCPTool) =>
      selection.isSelected(
        context.runContext as RunContext<unknown>,
        context.agent as Agent<any, any>,
        byPublicName().get(listed.name) ?? listed.name,
      );
  }
  return server;
}
