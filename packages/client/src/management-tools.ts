/**
 * Tools an agent calls to manage its own MCP servers: connect, disconnect, list tools and call one.
 * Connecting a server nobody configured runs a program (or reaches a URL) of the agent's choosing,
 * so it is refused unless the caller names the commands and URLs it accepts.
 */

import { isModelFacing, type JsonSchema, type RegisteredTool, type ToolAnnotations } from '@switchboard/core';
import { ClientError, ClientErrorCode } from './client-error.js';
import type { ServerEntry } from './config/server-entry.js';
import type { McpConnection } from './connect-mcp.js';

/** Anything that ranks tools for a query (a `ToolSelector` of @switchboard/tool-selection fits). */
export interface ManagementToolSelector {
  select(query: string, options: { k: number }): Promise<Array<{ name: string; score?: number }>>;
}

/** Which servers `mcp_connect` may add that are not configured. */
export interface NewServerPolicy {
  /** Commands (exactly as written in the call, e.g. `node` or `/usr/local/bin/my-server`) a new stdio server may run. @default [] */
  commands?: string[];
  /** URL prefixes (e.g. `https://mcp.example.com/`) a new HTTP server may have. @default [] */
  urlPrefixes?: string[];
}

/** Options of {@link createManagementTools}. */
export interface ManagementToolsOptions {
  /** Configured servers `mcp_connect` may (re)connect by name, including ones not connected now. @default {} */
  servers?: Record<string, ServerEntry>;
  /** Lets `mcp_connect` add servers that are not configured. @default undefined (refused: it runs programs) */
  allowNewServers?: NewServerPolicy;
  /** Ranks tools for `mcp_list_tools` with a `query`; without it the query matches words of names and descriptions. */
  selector?: ManagementToolSelector;
  /** Most tools `mcp_list_tools` returns. @default 50 */
  maxListedTools?: number;
}

/** A management tool: registry-ready (`registry.registerMany('switchboard', tools)`) and callable. */
export interface ManagementTool {
  name: 'mcp_connect' | 'mcp_disconnect' | 'mcp_list_tools' | 'mcp_call_tool';
  description: string;
  inputSchema: JsonSchema;
  annotations: ToolAnnotations;
  execute(args: Record<string, unknown>): Promise<unknown>;
}

/** Creates `mcp_connect`, `mcp_disconnect`, `mcp_list_tools` and `mcp_call_tool` over a connection. */
export function createManagementTools(
  connection: McpConnection,
  options: ManagementToolsOptions = {},
): ManagementTool[] {
  const configured = new Map(Object.entries(options.servers ?? {}));
  const maxListed = options.maxListedTools ?? 50;
  const commands = new Set(options.allowNewServers?.commands ?? []);
  const urlPrefixes = options.allowNewServers?.urlPrefixes ?? [];

  const summary = (server: string) => {
    const status = connection.status()[server];
    return {
      server,
      state: status?.state ?? 'idle',
      tools: connection.registry.list({ server, modelFacing: true }).map((tool) => tool.name),
    };
  };

  const newEntry = (server: string, args: Record<string, unknown>): ServerEntry => {
    const command = optionalString(args, 'command', 'mcp_connect');
    const url = optionalString(args, 'url', 'mcp_connect');
    if (command === undefined && url === undefined) {
      throw refusal(
        ClientErrorCode.ServerNotFound,
        `mcp_connect: no configured server named "${server}". Configured: ${[...new Set([...connection.servers, ...configured.keys()])].join(', ') || 'none'}. To add a new one, pass "command" (with "args") or "url".`,
        { server },
      );
    }
    if (!options.allowNewServers) {
      throw refusal(
        ClientErrorCode.NewServerNotAllowed,
        `mcp_connect: adding server "${server}" that is not configured is turned off (it would run a program or reach a URL). The application can allow it with createManagementTools(connection, { allowNewServers: { commands: [...], urlPrefixes: [...] } }).`,
        { server },
      );
    }
    if (command !== undefined) {
      if (!commands.has(command)) {
        throw refusal(
          ClientErrorCode.CommandNotAllowed,
          `mcp_connect: command "${command}" is not in the allowed list (${[...commands].join(', ') || 'empty'}); server "${server}" was not started.`,
          { server, command },
        );
      }
      const commandArgs = args.args;
      if (
        commandArgs !== undefined &&
        (!Array.isArray(commandArgs) || commandArgs.some((item) => typeof item !== 'string'))
      ) {
        throw refusal(ClientErrorCode.ValidationFailed, 'mcp_connect: "args" must be an array of strings.', {
          server,
        });
      }
      return { command, ...(commandArgs === undefined ? {} : { args: commandArgs as string[] }) };
    }
    const target = url as string;
    if (!urlPrefixes.some((prefix) => target.startsWith(prefix))) {
      throw refusal(
        ClientErrorCode.UrlNotAllowed,
        `mcp_connect: URL "${target}" does not start with an allowed prefix (${urlPrefixes.join(', ') || 'none'}); server "${server}" was not connected.`,
        { server },
      );
    }
    return { url: target };
  };

  const connect = async (args: Record<string, unknown>) => {
    const server = requiredString(args, 'server', 'mcp_connect');
    if (connection.servers.includes(server)) {
      if (args.command !== undefined || args.url !== undefined) {
        throw refusal(
          ClientErrorCode.ServerExists,
          `mcp_connect: server "${server}" exists already; call it by name without "command"/"url", or pick another name.`,
          { server },
        );
      }
      await connection.connect(server);
      return summary(server);
    }
    const entry = configured.get(server) ?? newEntry(server, args);
    await connection.addServer(server, entry);
    return summary(server);
  };

  const disconnect = async (args: Record<string, unknown>) => {
    const server = requiredString(args, 'server', 'mcp_disconnect');
    const removed = await connection.removeServer(server);
    if (!removed) {
      throw refusal(
        ClientErrorCode.ServerNotFound,
        `mcp_disconnect: no connected server named "${server}". Connected: ${connection.servers.join(', ') || 'none'}.`,
        { server },
      );
    }
    return { server, disconnected: true };
  };

  const listTools = async (args: Record<string, unknown>) => {
    const query = optionalString(args, 'query', 'mcp_list_tools');
    const server = optionalString(args, 'server', 'mcp_list_tools');
    const limit =
      typeof args.limit === 'number' && args.limit > 0 ? Math.min(args.limit, maxListed) : maxListed;
    const candidates = Object.values(connection.tools).filter(
      (tool) => (server === undefined || tool.server === server) && isModelFacing(tool),
    );
    let chosen: RegisteredTool[];
    if (query === undefined || query.trim() === '') chosen = candidates.slice(0, limit);
    else if (options.selector) {
      const byName = new Map(candidates.map((tool) => [tool.name, tool]));
      const ranked = await options.selector.select(query, { k: limit });
      chosen = ranked.flatMap((hit) => byName.get(hit.name) ?? []);
    } else chosen = matchWords(candidates, query).slice(0, limit);
    return {
      tools: chosen.map((tool) => ({
        name: tool.name,
        server: tool.server,
        description: tool.description,
        inputSchema: tool.inputSchema,
      })),
      total: candidates.length,
    };
  };

  const callTool = async (args: Record<string, unknown>) => {
    const name = requiredString(args, 'name', 'mcp_call_tool');
    const toolArguments = args.arguments ?? {};
    if (typeof toolArguments !== 'object' || toolArguments === null || Array.isArray(toolArguments)) {
      throw refusal(ClientErrorCode.ValidationFailed, 'mcp_call_tool: "arguments" must be an object.', {
        tool: name,
      });
    }
    const tool = connection.tools[name];
    if (tool !== undefined && !isModelFacing(tool)) {
      // The model calls through this tool: one it may not see is not its to call (an app calls it).
      throw refusal(
        ClientErrorCode.ToolNotForModel,
        `mcp_call_tool: "${name}" is an MCP App's own tool (visibility ["app"]); only its app calls it. See mcp_list_tools for the tools you can call.`,
        { tool: name },
      );
    }
    // The same path as a direct call: validation, approval, supervision and wrapping all apply.
    return connection.callTool(name, toolArguments as Record<string, unknown>);
  };

  return [
    {
      name: 'mcp_connect',
      description:
        'Connect an MCP server by its configured name (or add a new one by command or URL, when the application allows it). Returns its state and tool names.',
      inputSchema: {
        type: 'object',
        properties: {
          server: { type: 'string', description: 'Server name.' },
          command: {
            type: 'string',
            description: 'New stdio server only: program to run (must be allowed).',
          },
          args: {
            type: 'array',
            items: { type: 'string' },
            description: 'New stdio server only: its arguments.',
          },
          url: { type: 'string', description: 'New HTTP server only: its URL (must be allowed).' },
        },
        required: ['server'],
        additionalProperties: false,
      },
      annotations: {
        title: 'Connect MCP server',
        readOnlyHint: false,
        destructiveHint: false,
        openWorldHint: true,
      },
      execute: connect,
    },
    {
      name: 'mcp_disconnect',
      description: 'Disconnect an MCP server and remove its tools.',
      inputSchema: {
        type: 'object',
        properties: { server: { type: 'string', description: 'Server name.' } },
        required: ['server'],
        additionalProperties: false,
      },
      annotations: {
        title: 'Disconnect MCP server',
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
      },
      execute: disconnect,
    },
    {
      name: 'mcp_list_tools',
      description:
        'List tools of the connected MCP servers, optionally only those relevant to a query or of one server.',
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'What you want to do; the most relevant tools come first.' },
          server: { type: 'string', description: 'Only tools of this server.' },
          limit: {
            type: 'integer',
            minimum: 1,
            description: `At most this many tools (up to ${maxListed}).`,
          },
        },
        additionalProperties: false,
      },
      annotations: { title: 'List MCP tools', readOnlyHint: true },
      execute: listTools,
    },
    {
      name: 'mcp_call_tool',
      description: 'Call a tool of a connected MCP server by its public name with arguments.',
      inputSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'Public tool name, as mcp_list_tools gives it.' },
          arguments: { type: 'object', description: 'Arguments of the tool.' },
        },
        required: ['name'],
        additionalProperties: false,
      },
      annotations: { title: 'Call MCP tool', readOnlyHint: false, openWorldHint: true },
      execute: callTool,
    },
  ];
}

function matchWords(tools: RegisteredTool[], query: string): RegisteredTool[] {
  const words = query
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 1);
  const scored = tools
    .map((tool) => {
      const text = `${tool.name} ${tool.description}`.toLowerCase();
      return { tool, score: words.filter((word) => text.includes(word)).length };
    })
    .filter((entry) => entry.score > 0);
  scored.sort((left, right) => right.score - left.score);
  return scored.map((entry) => entry.tool);
}

function requiredString(args: Record<string, unknown>, key: string, tool: string): string {
  const value = args[key];
  if (typeof value !== 'string' || value === '') {
    throw refusal(ClientErrorCode.ValidationFailed, `${tool}: "${key}" must be a non-empty string.`, {
      tool,
    });
  }
  return value;
}

function optionalString(args: Record<string, unknown>, key: string, tool: string): string | undefined {
  const value = args[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') {
    throw refusal(ClientErrorCode.ValidationFailed, `${tool}: "${key}" must be a string.`, { tool });
  }
  return value;
}

/** A refusal of a management tool: a `ClientError` with a code of the client's table. */
function refusal(code: ClientErrorCode, message: string, context: Record<string, unknown>): ClientError {
  return new ClientError({ code, message, context });
}
