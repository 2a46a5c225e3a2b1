/**
 * `createGateway`: the tools of many upstream MCP servers (a `@switchboard/client` `connectMcp`
 * set) served as one MCP server, namespaced, in both protocol eras, to clients of both eras. Calls
 * are relayed to the upstream as they are (`relay-tool-call.ts`): the `CallToolResult` comes back
 * exactly as the upstream sent it (content blocks, `structuredContent`, `isError`, `_meta`),
 * whatever options the set was created with. What crosses the bridge per call, whatever the eras
 * on either side: cancellation, progress (`forward-progress.ts`), and the upstream's elicitation,
 * sampling and roots requests, asked of the downstream client (`forward-client-requests.ts`).
 * Upstream `list_changed` flows through the registry; with a tool selector the gateway serves
 * `discover_tools` plus the tools discovered so far. The upstreams' resources, resource templates
 * and prompts are served too (`gateway-catalog.ts`), and their skills, namespaced per upstream and
 * verified on read (`gateway-skills.ts`). An upstream's task reaches a downstream client that takes
 * tasks, under a gateway id naming its origin (`gateway-tasks.ts`). Their events are served
 * namespaced like tools, polled and streamed through the gateway (`gateway-events.ts`), and
 * delivered by webhooks the gateway signs, from any replica (`gateway-webhooks.ts`).
 */
import { InMemoryServerEventBus } from '@modelcontextprotocol/server';
import {
  type ConnectMcpOptions,
  connectMcp,
  type McpServers,
  type TelemetrySetting,
} from '@switchboard/client';
import type { ApprovalMode, ApprovalPolicy, Logger, RegisteredTool, ToolRegistry } from '@switchboard/core';
import {
  createApprovalPolicy,
  createToolRegistry,
  discoverToolsDefaults,
  silentLogger,
} from '@switchboard/core';
import {
  type ApprovalPrompt,
  type ClusterState,
  createMcpServer,
  createMemoryTaskOwnerIndex,
  type McpServer,
  type RequestStateOptions,
  republishTool,
  ServerError,
  ServerErrorCode,
  type SkillsOptions,
} from '@switchboard/server';
import { createDiscoverTool, type GatewayToolSelector } from './discover-tool.js';
import { createGatewayApps, type GatewayApps } from './gateway-apps.js';
import { GatewayCatalog } from './gateway-catalog.js';
import type { GatewayClients } from './gateway-clients.js';
import { gatewayConnectOptions } from './gateway-connect-options.js';
import { GatewayEvents } from './gateway-events.js';
import { GatewaySkills } from './gateway-skills.js';
import { GatewayTaskIds } from './gateway-task-ids.js';
import { GatewayTaskList } from './gateway-task-list.js';
import { GatewayTasks, type TaskIssuing } from './gateway-tasks.js';
import type { GatewayWebhookOptions } from './gateway-webhooks.js';
import { createMissingToolHint } from './missing-tool-hint.js';
import { relayingExecute } from './relay-tool-call.js';

// Named from here by the package entry; declared where the files that need them can import them one way.
export type { GatewayToolSelector } from './discover-tool.js';
export type { GatewayClients } from './gateway-clients.js';

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
  /** Instructions for the model. @default none */
  instructions?: string;
  /** Serve `discover_tools` plus the tools it found, instead of every tool. @default every tool */
  selector?: GatewayToolSelector;
  /** Tools discovered per `discover_tools` call that gives no `limit`. @default 8 (core's `discoverToolsDefaults.limit`) */
  discoverLimit?: number;
  /** Most discovered tools kept exposed (oldest dropped first). @default 32 */
  maxExposedTools?: number;
  /**
   * Which upstream tools are served and which need a person's yes: `deny` hides a tool, `ask` is
   * handled as `approvalPrompt` says.
   * @default each tool's decision in the upstream set (its server's `approval` setting in the config), else 'annotations'
   */
  approval?: ApprovalPolicy | ApprovalMode;
  /**
   * Where a person is asked about an `ask` tool, which is listed with its annotations (never
   * read-only): `'auto'` through an elicitation when the downstream client can answer one (either
   * era), else the call is relayed and the host's own per-call confirmation asks; `'elicit'` always
   * through an elicitation (a client that cannot answer one is refused); `'host'` never (relayed);
   * `'hide'` such tools are not served. @default 'auto'
   */
  approvalPrompt?: ApprovalPrompt;
  /**
   * Serve tools that need a person's approval, relayed without asking.
   * @deprecated such tools are served by default now (`approvalPrompt: 'auto'`); `true` is `approvalPrompt: 'host'`.
   */
  allowApprovalTools?: boolean;
  /**
   * Serve the upstreams' resources and resource templates (URIs kept, or `<server>+<uri>` when two
   * upstreams list the same one). @default true
   */
  resources?: boolean;
  /** Serve the upstreams' prompts, namespaced like tools (`mcp__<server>__<prompt>`). @default true */
  prompts?: boolean;
  /**
   * How long one upstream may take to answer a resource, template or prompt list before the
   * gateway answers without its items (logged), so one slow upstream cannot stall every list.
   * @default 5000
   */
  upstreamListTimeoutMs?: number;
  /**
   * Sealing of the `requestState` of 2026-07-28 calls that wait for the downstream client, and
   * how long such a call waits for its retry before the upstream call is cancelled. Its keys also
   * sign relayed task ids (bound to the client that started the task): replicas that answer for
   * each other's tasks need the same keys.
   * @default a random key per process, 600 s
   */
  requestState?: RequestStateOptions;
  /**
   * Also serve the skills of a folder (extension `io.modelcontextprotocol/skills`, SEP-2640) beside
   * the upstreams' tools, as `createMcpServer({ skills })` does. @default none
   */
  skills?: SkillsOptions;
  /**
   * Serve the upstreams' skills (SEP-2640) beside the folder's: each upstream's under its own
   * namespace (`skill://<server>/…`), entries and digests as the upstream published them, every
   * file verified against its entry when it is read through the gateway. @default true
   */
  upstreamSkills?: boolean;
  /**
   * Serve the upstreams' events (SEP-3415, 2026-07-28): their event types namespaced like tools,
   * polls and streams relayed, cursors any replica can resume (`gateway-events.ts`). @default true
   */
  upstreamEvents?: boolean;
  /**
   * Webhook delivery of the upstreams' events (`events/subscribe`): the gateway consumes the
   * upstream and signs and posts to the subscriber itself, from any replica sharing `cluster`
   * (`gateway-webhooks.ts`); `false` answers subscribes as unsupported. The callback URL policy
   * and the caller rule are the server's (`allowCallback`, `anonymousPrincipal`).
   * @default on, subscriptions kept in this process
   */
  webhooks?: GatewayWebhookOptions | false;
  /**
   * The cluster state the replicas share (the one given to `serve`): the owners of relayed 2025
   * tasks are kept in its `taskOwners`, so a client's `tasks/list` through any replica lists the
   * tasks it started through any other; webhook subscriptions too, unless `webhooks.cluster` names
   * another state. @default kept in this process
   */
  cluster?: ClusterState;
  /** Tasks per page of a 2025 client's `tasks/list`. @default 50 */
  taskListPageSize?: number;
  /** Where the gateway logs. @default silentLogger */
  logger?: Logger;
  /** Put stack traces of failing tools into results. @default false */
  debug?: boolean;
  /**
   * Tracing and metrics (OpenTelemetry semantic conventions for MCP): a SERVER span per downstream
   * request, the parent of the CLIENT span of its upstream call, which carries the trace on in
   * `params._meta`. The providers given here (for the upstream set too, when the gateway opens it
   * and `connectOptions` names none), or `false` for none.
   * @default the globally registered providers (nothing at all while none is, or without `@opentelemetry/api`)
   */
  telemetry?: TelemetrySetting;
}

/** A gateway: an MCP server (pass it to `serve`) plus its upstream set. */
export interface Gateway extends McpServer {
  readonly clients: GatewayClients;
  /** Closes sessions, and the upstream set when the gateway opened it. */
  close(): Promise<void>;
}

/**
 * The policy of a gateway given none: each upstream tool's own decision in the set (a `connectMcp`
 * set decides by its server's `approval` setting, so a config's allow and deny rules hold through
 * the gateway), else the annotations, as MCP reads them.
 */
function upstreamApprovalPolicy(clients: GatewayClients): ApprovalPolicy {
  const byAnnotations = createApprovalPolicy({ mode: 'annotations' });
  return {
    specificationVersion: 'v1',
    decide: (request) => clients.registry.get(request.name)?.approval?.() ?? byAnnotations.decide(request),
  };
}

/** The keys relayed task ids are signed with: the `requestState` keys, shared by replicas; `undefined` for a random one. */
function requestStateKeys(
  options: RequestStateOptions | undefined,
): ReadonlyArray<string | Uint8Array> | undefined {
  if (options?.keys !== undefined) return options.keys;
  return options?.key !== undefined ? [options.key] : undefined;
}

/** The `tasks/list` page size: a positive integer. */
function taskListPageSizeOf(size: number | undefined): number {
  if (size === undefined) return 50;
  if (Number.isInteger(size) && size > 0) return size;
  throw new ServerError({
    code: ServerErrorCode.ConfigInvalid,
    message: `createGateway: taskListPageSize must be a positive whole number of tasks per tasks/list page (got ${String(size)}).`,
  });
}

/** The webhook options, in the gateway's shared `cluster` unless they name their own. */
function webhookOptionsOf(options: GatewayOptions): GatewayWebhookOptions | false | undefined {
  const { webhooks, cluster } = options;
  if (webhooks === false || cluster === undefined || webhooks?.cluster !== undefined) return webhooks;
  return { ...webhooks, cluster };
}

/**
 * The server behind {@link createGateway}: a `createMcpServer` over the registry of served tools,
 * with the upstream set beside it (its status in `/health`, its changes mirrored), closed together.
 */
function createGatewayServer(
  clients: GatewayClients,
  owned: boolean,
  options: GatewayOptions,
  served: ToolRegistry,
  catalog: GatewayCatalog,
  bus: InMemoryServerEventBus,
  apps: GatewayApps,
): Gateway {
  const logger = options.logger ?? silentLogger;
  const webhooks = webhookOptionsOf(options);
  const events =
    (options.upstreamEvents ?? true)
      ? new GatewayEvents({ source: clients, logger, ...(webhooks !== undefined ? { webhooks } : {}) })
      : undefined;
  const taskIssuing: TaskIssuing = {
    ids: new GatewayTaskIds(requestStateKeys(options.requestState)),
    list: new GatewayTaskList({
      index: options.cluster?.taskOwners ?? createMemoryTaskOwnerIndex(),
      pageSize: taskListPageSizeOf(options.taskListPageSize),
      logger,
    }),
  };
  const upstreamSkills =
    (options.upstreamSkills ?? true)
      ? [
          new GatewaySkills({
            source: clients,
            logger,
            ...(options.skills !== undefined ? { local: options.skills } : {}),
            ...(options.upstreamListTimeoutMs !== undefined
              ? { listTimeoutMs: options.upstreamListTimeoutMs }
              : {}),
          }),
        ]
      : [];
  const server = createMcpServer({
    // An MCP App's own call, by its upstream's tool name: relayed to the upstream whose app it is.
    unlistedTool: (name) => {
      const tool = apps.appCallTarget(name);
      return tool === undefined
        ? undefined
        : { ...tool, ...apps.served(tool), execute: relayingExecute(tool, clients, logger, taskIssuing) };
    },
    name: options.name ?? 'switchboard-gateway',
    version: options.version ?? '1.0.0',
    registry: served,
    approval: options.approval ?? upstreamApprovalPolicy(clients),
    approvalPrompt: options.approvalPrompt ?? (options.allowApprovalTools === true ? 'host' : 'auto'),
    missingToolHint: createMissingToolHint(clients),
    logger,
    bus,
    ...(options.instructions ? { instructions: options.instructions } : {}),
    ...(options.debug !== undefined ? { debug: options.debug } : {}),
    ...(options.telemetry !== undefined ? { telemetry: options.telemetry } : {}),
    ...(options.requestState !== undefined ? { requestState: options.requestState } : {}),
    ...(options.skills !== undefined ? { skills: options.skills } : {}),
    skillProviders: upstreamSkills,
    taskRelay: new GatewayTasks(clients, taskIssuing),
    ...(events !== undefined ? { events } : {}),
    ...((options.resources ?? true) ? { resourceProviders: [catalog] } : {}),
    ...((options.prompts ?? true) ? { promptProviders: [catalog] } : {}),
  });
  const stops: Array<() => void> = [];
  server.health = () => ({ upstreams: clients.status(), metrics: clients.metrics() });
  stops.push(mirrorUpstreamTools(server, clients, options, served, apps, taskIssuing));
  stops.push(() => apps.stop());
  // Upstreams that reconnect, crash or are removed change their tools: look at the upstream set then.
  stops.push(clients.registry.subscribe(() => catalog.sync()));
  const closeServer = server.close.bind(server);
  return Object.assign(server, {
    clients,
    async close(): Promise<void> {
      for (const stop of stops) stop();
      catalog.close();
      await events?.close();
      await closeServer();
      if (owned) await clients.close?.();
    },
  });
}

/**
 * Serves the upstream set's tools from `served` under their public names (or, with a selector,
 * `discover_tools` and what it found), following the set's changes; returns the unsubscribe.
 */
function mirrorUpstreamTools(
  server: McpServer,
  clients: GatewayClients,
  options: GatewayOptions,
  served: ToolRegistry,
  apps: GatewayApps,
  taskIssuing: TaskIssuing,
): () => void {
  const upstream = clients.registry;
  const exposed = new Map<string, RegisteredTool>();
  const expose = (tool: RegisteredTool) => {
    served.register({
      ...republishTool(tool, relayingExecute(tool, clients, server.logger, taskIssuing)),
      ...apps.served(tool),
    });
    exposed.set(tool.name, tool);
  };
  // A ui:// URI gained or lost an owner: the served tools naming it are rewritten.
  const stopApps = apps.uris.onChange((uris) => {
    const changed = new Set(uris);
    for (const tool of [...exposed.values()]) {
      const uri = tool.app?.resourceUri;
      if (uri !== undefined && changed.has(uri)) expose(upstream.get(tool.name) ?? tool);
    }
  });
  const selector = options.selector;
  if (selector === undefined) for (const tool of upstream.list()) expose(tool);
  // Mirror upstream changes (list_changed after reconnects, servers added or dropped).
  const stop = upstream.subscribe((event) => {
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
  if (selector !== undefined) {
    served.register(
      createDiscoverTool({
        selector,
        upstream,
        exposed,
        expose,
        served,
        isServed: (tool) => server.isServed(tool),
        limit: options.discoverLimit ?? discoverToolsDefaults.limit,
        maxExposed: options.maxExposedTools ?? 32,
      }),
    );
  }
  return () => {
    stop();
    stopApps();
  };
}

/** Creates a gateway over many MCP servers. */
export async function createGateway(options: GatewayOptions): Promise<Gateway> {
  const logger = options.logger ?? silentLogger;
  let server: Gateway | undefined;
  let clients: GatewayClients;
  let owned = false;
  if (options.clients) {
    clients = options.clients;
  } else if (options.config) {
    const userOnLog = options.connectOptions?.onLog;
    clients = await connectMcp(options.config, {
      logger,
      // Upstreams may ask the downstream client for input: declared to them, answered per call.
      ...gatewayConnectOptions(),
      ...(options.allowApprovalTools ? { approve: async () => true } : {}),
      ...(options.telemetry !== undefined ? { telemetry: options.telemetry } : {}),
      ...options.connectOptions,
      // Upstream log messages reach downstream clients, tagged with the upstream server's name.
      onLog: (upstreamName, message) => {
        userOnLog?.(upstreamName, message);
        void server?.log(
          message.level,
          message.data,
          message.logger ? `${upstreamName}/${message.logger}` : upstreamName,
        );
      },
      rawResults: true,
    });
    owned = true;
  } else {
    throw new ServerError({
      code: ServerErrorCode.ConfigInvalid,
      message: 'createGateway: pass clients (a connectMcp result) or config ({ mcpServers: {...} }).',
    });
  }
  const bus = new InMemoryServerEventBus((error) =>
    logger.debug({ error: error.message }, 'gateway event listener failed'),
  );
  // Before the gateway follows the upstream registry itself: ownership of ui:// URIs is current
  // when a tool is mirrored.
  const apps = createGatewayApps(clients.registry);
  const catalog = new GatewayCatalog({
    source: clients,
    appUris: apps.uris,
    resources: options.resources ?? true,
    prompts: options.prompts ?? true,
    bus,
    logger,
    ...(options.upstreamListTimeoutMs !== undefined ? { listTimeoutMs: options.upstreamListTimeoutMs } : {}),
  });
  server = createGatewayServer(clients, owned, options, createToolRegistry({ logger }), catalog, bus, apps);
  return server;
}
