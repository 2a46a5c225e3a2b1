/**
 * `createGateway`: the tools of many upstream MCP servers (a `@switchboard/client` `connectMcp`
 * set) served as one MCP server, namespaced. Upstream `list_changed` flows through the registry;
 * progress and cancellation are forwarded per call; with a tool selector the gateway serves
 * `discover_tools` plus the tools discovered so far instead of everything. The upstreams'
 * resources, resource templates and prompts are served too (see gateway-catalog.ts).
 */
import { type ConnectMcpOptions, connectMcp, type McpServers } from '@switchboard/client';
import type { ApprovalMode, ApprovalPolicy, Logger, RegisteredTool, ToolRegistry } from '@switchboard/core';
import { createToolRegistry, SwitchboardError, silentLogger } from '@switchboard/core';
import type { ToolContext } from './define-tool.js';
import { createGatewayCatalog, type GatewayUpstreamClient } from './gateway-catalog.js';
import { createMcpServer, type McpServer } from './mcp-server.js';
import { republishTool } from './republish-tool.js';

/** The part of a `connectMcp` result the gateway needs (so any compatible set works). */
export interface GatewayClients {
  readonly registry: ToolRegistry;
  status(): Record<string, unknown>;
  metrics(): unknown;
  close?(): Promise<void>;
  /** Names of the upstream servers (needed to serve their resources and prompts). */
  readonly servers?: readonly string[];
  /** The live client of an upstream server, if connected (needed to serve its resources and prompts). */
  client?(server: string): GatewayUpstreamClient | undefined;
}

/** A tool selector (e.g. `createToolSelector` of @switchboard/tool-selection). */
export interface GatewayToolSelector {
  select(query: string, options?: { k?: number }): Promise<Array<{ name: string; score?: number }>>;
}

/** Options of {@link createGateway}. */
export interface GatewayOptions {
  /** An open `connectMcp` set (the gateway does not close it). */
  clients?: GatewayClients;
  /** Or a config (`{ mcpServers: {...} }` or a map of servers) to connect here (closed with the gateway). */
  config?: McpServers;
  /** Options for `connectMcp` when `config` is given. */
  connectOptions?: Omit<ConnectMcpOptions, 'rawResults'>;
  /** Server name. @default 'switchboard-gateway' */
  name?: string;
  /** @default '1.0.0' */
  version?: string;
  instructions?: string;
  /** Serve `discover_tools` plus the tools it found, instead of every tool. */
  selector?: GatewayToolSelector;
  /** Tools discovered per `discover_tools` call. @default 8 */
  discoverLimit?: number;
  /** Most discovered tools kept exposed (oldest dropped first). @default 32 */
  maxExposedTools?: number;
  /** Which upstream tools may be served: `ask` ones are hidden unless `allowApprovalTools`. @default 'annotations' */
  approval?: ApprovalPolicy | ApprovalMode;
  /** Serve tools that need a person's approval (they run without asking). @default false */
  allowApprovalTools?: boolean;
  /**
   * Serve the upstreams' resources and resource templates (URIs kept, or `<server>+<uri>` when two
   * upstreams list the same one). @default true
   */
  resources?: boolean;
  /** Serve the upstreams' prompts, namespaced like tools (`mcp__<server>__<prompt>`). @default true */
  prompts?: boolean;
  logger?: Logger;
  debug?: boolean;
}

/** A gateway: an MCP server (pass it to `serve`) plus its upstream set. */
export interface Gateway extends McpServer {
  readonly clients: GatewayClients;
  /** Closes sessions, and the upstream set when the gateway opened it. */
  close(): Promise<void>;
}

/** The execute options a gateway passes upstream: cancellation and progress forwarding. */
function upstreamOptions(options: Record<string, unknown> | undefined): Record<string, unknown> {
  const context = options?.toolContext as ToolContext | undefined;
  return {
    ...(options?.signal ? { signal: options.signal } : {}),
    ...(context
      ? {
          onProgress: (progress: { progress: number; total?: number; message?: string }) => {
            void context.progress(progress.progress, progress.total, progress.message);
          },
          resetTimeoutOnProgress: true,
        }
      : {}),
  };
}

/** Wraps an upstream tool so its calls forward progress and cancellation. */
function forwardingTool(tool: RegisteredTool): RegisteredTool {
  const execute = tool.execute;
  if (execute === undefined) return tool;
  return {
    ...tool,
    execute: (args, options) => execute(args, upstreamOptions(options as Record<string, unknown>)),
  };
}

/** Creates a gateway over many MCP servers. */
export async function createGateway(options: GatewayOptions): Promise<Gateway> {
  const logger = options.logger ?? silentLogger;
  let forwardLog: McpServer['log'] | undefined;
  let owned = false;
  let clients: GatewayClients;
  if (options.clients) {
    clients = options.clients;
  } else if (options.config) {
    // Raw results: the gateway passes upstream CallToolResults through unchanged.
    const userOnLog = options.connectOptions?.onLog;
    clients = await connectMcp(options.config, {
      logger,
      ...(options.allowApprovalTools ? { approve: async () => true } : {}),
      ...options.connectOptions,
      // Upstream log messages reach downstream clients, tagged with the upstream server's name.
      onLog: (upstreamName, message) => {
        userOnLog?.(upstreamName, message);
        void forwardLog?.(
          message.level,
          message.data,
          message.logger ? `${upstreamName}/${message.logger}` : upstreamName,
        );
      },
      rawResults: true,
    });
    owned = true;
  } else {
    throw new SwitchboardError({
      code: 'CONFIG_INVALID',
      message: 'createGateway: pass clients (a connectMcp result) or config ({ mcpServers: {...} }).',
    });
  }
  const upstream = clients.registry;
  const served = createToolRegistry({ logger });
  const exposed = new Map<string, RegisteredTool>();

  function expose(tool: RegisteredTool): void {
    const wrapped = forwardingTool(tool);
    served.register(republishTool(tool, wrapped.execute));
    exposed.set(tool.name, tool);
  }

  const selector = options.selector;
  const maxExposed = options.maxExposedTools ?? 32;
  if (selector === undefined) {
    for (const tool of upstream.list()) expose(tool);
  }
  // Mirror upstream changes (list_changed after reconnects, servers added or dropped).
  const unsubscribe = upstream.subscribe((event) => {
    if (event.type === 'removed') {
      if (exposed.delete(event.tool.name)) served.unregister(event.tool.name);
      return;
    }
    if (
      event.type === 'updated' &&
      event.previous.name !== event.tool.name &&
      exposed.delete(event.previous.name)
    ) {
      served.unregister(event.previous.name);
    }
    if (selector === undefined || exposed.has(event.tool.name)) expose(event.tool);
  });

  const catalog = createGatewayCatalog({
    source: clients,
    resources: options.resources ?? true,
    prompts: options.prompts ?? true,
    logger,
  });
  const server = createMcpServer({
    name: options.name ?? 'switchboard-gateway',
    version: options.version ?? '1.0.0',
    registry: served,
    approval: options.approval ?? 'annotations',
    allowApprovalTools: options.allowApprovalTools ?? false,
    logger,
    ...(options.instructions ? { instructions: options.instructions } : {}),
    ...(options.debug !== undefined ? { debug: options.debug } : {}),
    extendSession: (protocol, { stateless }) => catalog.attach(protocol, stateless),
  });

  if (selector !== undefined) {
    const limit = options.discoverLimit ?? 8;
    served.register({
      server: 'gateway',
      name: 'discover_tools',
      publicName: 'discover_tools',
      description:
        'Finds tools for a task among every connected MCP server and makes them callable. Describe the task in plain words; the matching tools are returned and added to your tool list.',
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'What you want to do.' },
          limit: {
            type: 'integer',
            minimum: 1,
            maximum: 50,
            description: `How many tools (default ${limit}).`,
          },
        },
        required: ['query'],
      },
      annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
      execute: async (args) => {
        const query = String(args.query);
        const k = typeof args.limit === 'number' ? args.limit : limit;
        const hits = (await selector.select(query, { k })).filter((hit) => hit.name !== 'discover_tools');
        const found: Array<{ name: string; description: string; inputSchema: unknown }> = [];
        for (const hit of hits) {
          const tool = upstream.get(hit.name);
          // A tool the gateway will not serve (it needs a person's approval) is not "found".
          if (tool === undefined || !server.isServed(tool)) continue;
          if (!exposed.has(tool.name)) expose(tool);
          found.push({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema });
        }
        // Keep the exposed set bounded: the oldest discoveries go first.
        while (exposed.size > maxExposed) {
          const oldest = exposed.keys().next().value as string;
          exposed.delete(oldest);
          served.unregister(oldest);
        }
        return {
          content: [
            {
              type: 'text',
              text: found.length
                ? `Found ${found.length} tool(s); they are now in your tool list:\n${JSON.stringify(found, null, 2)}`
                : `No tool matches "${query}". Try other words.`,
            },
          ],
          structuredContent: { tools: found },
        };
      },
    });
  }

  // Upstreams that reconnect, crash or are removed change their tools: look at the upstream set then.
  const unsubscribeCatalog = upstream.subscribe(() => catalog.sync());

  forwardLog = server.log;
  server.health = () => ({ upstreams: clients.status(), metrics: clients.metrics() });
  const closeServer = server.close;
  const gateway = Object.assign(server, {
    clients,
    async close() {
      unsubscribe();
      unsubscribeCatalog();
      catalog.close();
      await closeServer();
      if (owned) await clients.close?.();
    },
  }) as Gateway;
  return gateway;
}
