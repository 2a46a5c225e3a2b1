/**
 * `createMcpServer`: tools (from `defineTool` or a live core `ToolRegistry`), resources, resource
 * templates, prompts, completion and logging, served in both protocol eras through one dispatcher.
 * The factory returns the `McpServer` interface; `DefaultMcpServer` implements it, and is also
 * the `ServerScope` its request handlers see.
 */
import {
  type CallToolResult,
  type ClientCapabilities,
  type Implementation,
  InMemoryServerEventBus,
  type JSONRPCNotification,
  type LoggingLevel,
  type ServerCapabilities,
  type ServerEvent,
  type ServerEventBus,
  type Tool,
  type Transport,
} from '@modelcontextprotocol/server';
import type {
  ApprovalMode,
  ApprovalPolicy,
  ArgumentValidator,
  Logger,
  RegisteredTool,
  TelemetrySetting,
  ToolRegistry,
} from '@switchboard/core';
import {
  createApprovalPolicy,
  createArgumentValidator,
  createToolRegistry,
  mcpAppsExtensionId,
  silentLogger,
} from '@switchboard/core';
import { CallAbort } from '../cancellation/call-abort.js';
import { AppResources, checkToolApps, type ToolAppsContext } from '../catalog/app-resources.js';
import type { PromptProvider, ResourceProvider } from '../catalog/content-provider.js';
import { LocalPrompts } from '../catalog/local-prompts.js';
import { LocalResources } from '../catalog/local-resources.js';
import type { PromptDefinition } from '../catalog/prompt-definition.js';
import type { ResourceDefinition, ResourceTemplateDefinition } from '../catalog/resource-definition.js';
import { ResourceSubscriptions } from '../catalog/resource-subscriptions.js';
import { ToolCatalog } from '../catalog/tool-catalog.js';
import { type MethodRoute, methodTable } from '../dispatch/method-table.js';
import { RequestDispatcher } from '../dispatch/request-dispatcher.js';
import type { ServerScope } from '../dispatch/server-scope.js';
import { ServerError, ServerErrorCode } from '../errors/server-error.js';
import type { EventSource } from '../events/event-source.js';
import { eventsExtensionId } from '../events/event-type.js';
import { type EventsMethodsOptions, eventsRoutes } from '../events/events-methods.js';
import type { CacheHint } from '../protocol/encode-result.js';
import { passesLogLevel } from '../protocol/logging-levels.js';
import type { ProtocolEra } from '../protocol/protocol-versions.js';
import { silentChannel } from '../request/request-channel.js';
import { LegacySession, type SessionOutlet } from '../session/legacy-session.js';
import type { SkillProvider } from '../skills/skill-provider.js';
import { skillsRoutes } from '../skills/skills-methods.js';
import type { SkillsOptions } from '../skills/skills-provider.js';
import { SkillsProvider, skillsExtensionId } from '../skills/skills-provider.js';
import { type MessageConnection, serveMessageConnection } from '../stdio/message-connection.js';
import type { TaskRelay } from '../tasks/task-relay.js';
import { TaskStore, tasksExtensionId } from '../tasks/task-store.js';
import { createRequestTelemetry, type RequestTelemetry } from '../telemetry/request-telemetry.js';
import { type ApprovalPrompt, approvalPrompts } from '../tools/approval-prompt.js';
import type { DefinedTool } from '../tools/define-tool.js';
import { type RequestStateOptions, RequestStateSeal } from '../tools/request-state-seal.js';
import { SuspendedCalls } from '../tools/suspended-calls.js';

/** Options of {@link createMcpServer}. */
export interface McpServerOptions {
  /** Server name (in `initialize` results and the `serverInfo` of 2026-07-28 results). */
  name: string;
  /** Server version. */
  version: string;
  /** Human-readable title of the server. @default none */
  title?: string;
  /** Instructions for the model (`initialize`, `server/discover`). @default none */
  instructions?: string;
  /** Tools made with `defineTool`. @default none */
  tools?: DefinedTool[];
  /** A live registry to serve (tools added or removed later are announced with `list_changed`). @default a new registry */
  registry?: ToolRegistry;
  /** Resources at fixed URIs. @default none */
  resources?: ResourceDefinition[];
  /** Resources addressed by RFC 6570 templates. @default none */
  resourceTemplates?: ResourceTemplateDefinition[];
  /** Prompts. @default none */
  prompts?: PromptDefinition[];
  /** More sources of resources (served after the local ones): a gateway's upstreams, your own. @default none */
  resourceProviders?: ResourceProvider[];
  /** More sources of prompts (served after the local ones). @default none */
  promptProviders?: PromptProvider[];
  /**
   * Skills (SEP-2640) served from a folder of skill folders (each with a `SKILL.md`), as the
   * `io.modelcontextprotocol/skills` extension. @default none
   */
  skills?: SkillsOptions;
  /**
   * More sources of skills (served after the folder's, in one listing): a gateway's upstreams, your
   * own. Each serves its files through its `readResource`. @default none
   */
  skillProviders?: SkillProvider[];
  /**
   * Event types and their occurrences (SEP-3415, the `io.modelcontextprotocol/events` extension on
   * 2026-07-28): `events/list`, `events/poll`, `events/stream` and webhook `events/subscribe` over
   * the hub from `createEventHub` (or another `EventSource`: a gateway's upstreams). @default none
   */
  events?: EventSource;
  /** How the events methods answer (poll interval, page size, stream heartbeat). @default their defaults */
  eventDelivery?: EventsMethodsOptions;
  /**
   * Tasks held elsewhere: `tasks/get`, `tasks/update` and `tasks/cancel` of an id this server's own
   * store does not hold are asked of it (a gateway relays its upstreams' tasks). @default none
   */
  taskRelay?: TaskRelay;
  /**
   * Approval policy deciding which registry tools may be served and which need a person's yes:
   * `deny` hides a tool; `ask` is handled as `approvalPrompt` says. @default every tool is served
   */
  approval?: ApprovalPolicy | ApprovalMode;
  /**
   * Where a person is asked about a tool the policy says `ask` (such a tool is never advertised
   * `readOnlyHint: true`): `'auto'` through an elicitation when the client can answer one, else the
   * call runs and the host's own confirmation asks; `'elicit'` always through an elicitation (a
   * client that cannot answer one is refused); `'host'` never (the call runs); `'hide'` such tools
   * are not served. @default 'hide' (`'host'` with `allowApprovalTools: true`)
   */
  approvalPrompt?: ApprovalPrompt;
  /**
   * Serve tools the policy says need approval (they run without asking).
   * @deprecated use `approvalPrompt`: `true` is `'host'`, `false` is `'hide'`.
   */
  allowApprovalTools?: boolean;
  /**
   * Says why a tool name `tools/call` asked for is not served, when the server knows more than its
   * registry does (a gateway: an upstream tool its filters leave out, a name given without its
   * namespace); added to the `TOOL_NOT_FOUND` error's message. @default none
   */
  missingToolHint?: (name: string) => string | undefined | Promise<string | undefined>;
  /**
   * A tool callable by name though not listed, asked when `tools/call` names no listed tool (a
   * gateway answers an MCP App's own call, made with its upstream's tool name); the approval policy
   * applies as to listed tools. @default none
   */
  unlistedTool?: (name: string) => RegisteredTool | undefined;
  /** Argument validator (core's). @default createArgumentValidator() */
  validator?: ArgumentValidator;
  /** Where change events (list_changed, resource updates) go; put a shared bus here to fan out across processes. @default an in-memory bus */
  bus?: ServerEventBus;
  /** Sealing of multi-round `requestState` (2026-07-28): key and lifetime. @default a random key per process, 600 s */
  requestState?: RequestStateOptions;
  /** Cache hints (`ttlMs`, `cacheScope`) of list results and `resources/read` on 2026-07-28. @default { ttlMs: 0, cacheScope: 'private' } */
  cacheHint?: CacheHint;
  /** Where the server logs (never stdout). @default silentLogger */
  logger?: Logger;
  /** Put stack traces of failing tools into results. @default false */
  debug?: boolean;
  /**
   * Tracing and metrics of requests (OpenTelemetry semantic conventions for MCP; the caller's W3C
   * trace context read from `params._meta`): the providers given here, or `false` for none.
   * @default the globally registered providers (nothing at all while none is, or without `@opentelemetry/api`)
   */
  telemetry?: TelemetrySetting;
}

/**
 * Options of {@link McpServer.callTool}: a call made in-process, through no transport (the
 * client's `CallToolOptions` are those of a call to a server over MCP).
 */
export interface LocalCallToolOptions {
  /** Cancels the call. */
  signal?: AbortSignal;
}

/** @deprecated use `LocalCallToolOptions` (the client's `CallToolOptions` is another thing). Kept for one release. */
export type CallToolOptions = LocalCallToolOptions;

/** Options of {@link McpServer.createSession}. */
export interface CreateSessionOptions {
  /** The replica serving it (named in server→client request ids). @default none */
  replicaId?: string;
  /** What `initialize` settled, when another replica (or an earlier life of this one) answered it. */
  restored?: {
    protocolVersion: string;
    clientCapabilities: ClientCapabilities;
    clientInfo?: Implementation;
  };
}

/** A served message connection (stdio, an in-memory pair). */
export interface McpConnectionHandle {
  /** Ends the connection and its session. */
  close(): Promise<void>;
}

/** A Switchboard MCP server: definitions, catalogs, and the dispatcher every transport feeds. */
export interface McpServer {
  readonly name: string;
  readonly version: string;
  /** What the server says about itself (`serverInfo`: name, version, title). */
  readonly info: Implementation;
  /** Its instructions for the model, if any. */
  readonly instructions: string | undefined;
  /** The registry of served tools (local tools are under server `local`). */
  readonly registry: ToolRegistry;
  readonly logger: Logger;
  /** Change events of this server (tools/prompts/resources list changed, resource updated). */
  readonly bus: ServerEventBus;
  /** The one request path: transports hand it `InboundRequest`s. */
  readonly dispatcher: RequestDispatcher;
  /** The seal of multi-round `requestState` (HTTP reads which replica a retry's parked run is on). */
  readonly seal: RequestStateSeal;
  /** Adds (or replaces) a tool; clients get `notifications/tools/list_changed`. */
  addTool(tool: DefinedTool): void;
  /** Removes a tool by name; returns whether it existed. */
  removeTool(name: string): boolean;
  /** The tools as `tools/list` shows them (sorted by name). */
  listTools(): Tool[];
  /** One served tool as `tools/list` shows it, by public name. */
  getTool(name: string): Tool | undefined;
  /** Whether this server would serve `tool` (its approval policy and `approvalPrompt` allow it). */
  isServed(tool: RegisteredTool): boolean;
  /**
   * Calls a tool as `tools/call` would (validation, errors as `isError` results); an unknown tool
   * rejects with a `ServerError` of code `TOOL_NOT_FOUND`.
   */
  callTool(name: string, args: unknown, options?: LocalCallToolOptions): Promise<CallToolResult>;
  /** Tells subscribed clients that a resource changed. */
  notifyResourceUpdated(uri: string): Promise<void>;
  /** Sends a log message to every 2025 session (each filtered by the level its client set). */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void>;
  /** Serves a message connection (stdio, an in-memory pair): both eras, as stdio serving does. */
  connect(transport: Transport): Promise<McpConnectionHandle>;
  /**
   * Opens a 2025 session whose messages leave through `outlet` (HTTP sessions). With `restored`
   * (a sealed session another replica opened), the session starts initialized with that state.
   */
  createSession(outlet: SessionOutlet, id?: string, options?: CreateSessionOptions): LegacySession;
  /** Number of open (initialized) 2025 sessions. */
  readonly sessionCount: number;
  /** The capabilities this server declares in an era. */
  capabilities(era: ProtocolEra): ServerCapabilities;
  /** Extra facts for HTTP `/health` (set in gateway mode). */
  health?: () => Record<string, unknown>;
  /** Closes every session and connection; parked calls and tasks are abandoned. */
  close(): Promise<void>;
}

const methodNotification: Readonly<Record<ServerEvent['kind'], string>> = {
  tools_list_changed: 'notifications/tools/list_changed',
  prompts_list_changed: 'notifications/prompts/list_changed',
  resources_list_changed: 'notifications/resources/list_changed',
  resource_updated: 'notifications/resources/updated',
};

/** The approval prompt the options ask for (the deprecated `allowApprovalTools` read as one), checked. */
function approvalPromptOf(options: McpServerOptions): ApprovalPrompt {
  const prompt = options.approvalPrompt;
  if (prompt === undefined) return options.allowApprovalTools === true ? 'host' : 'hide';
  if (!approvalPrompts.includes(prompt)) {
    throw new ServerError({
      code: ServerErrorCode.ConfigInvalid,
      message: `createMcpServer: approvalPrompt must be one of ${approvalPrompts.map((name) => `'${name}'`).join(', ')}, not ${JSON.stringify(prompt)}.`,
    });
  }
  return prompt;
}

/** The server behind {@link createMcpServer}. */
export class DefaultMcpServer implements McpServer, ServerScope {
  readonly name: string;
  readonly version: string;
  readonly info: Implementation;
  readonly instructions: string | undefined;
  readonly logger: Logger;
  readonly debug: boolean;
  readonly registry: ToolRegistry;
  readonly tools: ToolCatalog;
  readonly approvalPrompt: ApprovalPrompt;
  readonly missingToolHint: McpServerOptions['missingToolHint'];
  readonly validator: ArgumentValidator;
  readonly resourceProviders: readonly ResourceProvider[];
  readonly promptProviders: readonly PromptProvider[];
  readonly subscriptions: ResourceSubscriptions;
  readonly seal: RequestStateSeal;
  readonly suspended: SuspendedCalls;
  readonly tasks = new TaskStore();
  readonly taskRelay: TaskRelay | undefined;
  readonly cacheHint: CacheHint | undefined;
  readonly bus: ServerEventBus;
  readonly telemetry: RequestTelemetry;
  readonly dispatcher: RequestDispatcher;
  health?: () => Record<string, unknown>;
  readonly #sessions = new Set<LegacySession>();
  readonly #connections = new Set<MessageConnection>();
  readonly #skills: readonly SkillProvider[];
  readonly #events: EventSource | undefined;
  readonly #appResources: AppResources;
  readonly #appsContext: ToolAppsContext;
  readonly #stopBus: () => void;

  constructor(options: McpServerOptions) {
    if (typeof options?.name !== 'string' || typeof options.version !== 'string') {
      throw new ServerError({
        code: ServerErrorCode.ConfigInvalid,
        message: 'createMcpServer: pass { name, version } (strings) so clients can identify the server.',
      });
    }
    this.name = options.name;
    this.version = options.version;
    this.info = {
      name: options.name,
      version: options.version,
      ...(options.title ? { title: options.title } : {}),
    };
    this.instructions = options.instructions;
    this.logger = options.logger ?? silentLogger;
    this.debug = options.debug ?? false;
    this.validator = options.validator ?? createArgumentValidator();
    this.cacheHint = options.cacheHint;
    this.taskRelay = options.taskRelay;
    this.bus =
      options.bus ??
      new InMemoryServerEventBus((error) =>
        this.logger.debug({ error: error.message }, 'event listener failed'),
      );
    this.telemetry = createRequestTelemetry(options.telemetry);
    this.seal = new RequestStateSeal(options.requestState);
    this.suspended = new SuspendedCalls(this.seal.ttlMs);
    this.registry = options.registry ?? createToolRegistry({ logger: this.logger });
    this.approvalPrompt = approvalPromptOf(options);
    this.missingToolHint = options.missingToolHint;
    this.tools = new ToolCatalog({
      registry: this.registry,
      ...(options.approval !== undefined ? { approval: toPolicy(options.approval) } : {}),
      approvalPrompt: this.approvalPrompt,
      ...(options.unlistedTool !== undefined ? { unlisted: options.unlistedTool } : {}),
      onChange: () => this.bus.publish({ kind: 'tools_list_changed' }),
    });
    for (const tool of options.tools ?? []) this.tools.addLocal(tool);
    this.#skills = [
      ...(options.skills === undefined ? [] : [new SkillsProvider(options.skills, this.logger)]),
      ...(options.skillProviders ?? []),
    ];
    const localResources = new LocalResources(options.resources ?? [], options.resourceTemplates ?? []);
    const localPrompts = new LocalPrompts(options.prompts ?? []);
    this.#appResources = new AppResources(() => this.tools.appResources());
    this.#appsContext = {
      servesLocally: (uri) => localResources.serves(uri),
      hasOtherProviders: this.#skills.length > 0 || (options.resourceProviders ?? []).length > 0,
    };
    checkToolApps(this.tools.localDefinitions(), this.#appsContext);
    this.resourceProviders = [
      ...(localResources.empty ? [] : [localResources]),
      this.#appResources,
      ...this.#skills,
      ...(options.resourceProviders ?? []),
    ];
    this.promptProviders = [
      ...(localPrompts.empty ? [] : [localPrompts]),
      ...(options.promptProviders ?? []),
    ];
    this.subscriptions = new ResourceSubscriptions(this.resourceProviders);
    const routes = new Map<string, MethodRoute>(methodTable);
    if (this.#skills.length > 0) {
      const routesOfSkills = skillsRoutes(this.#skills, {
        pageSize: options.skills?.pageSize ?? 100,
        cacheHint: options.skills?.cacheHint ?? { ttlMs: 0, cacheScope: 'private' },
      });
      for (const [method, route] of routesOfSkills) routes.set(method, route);
    }
    this.#events = options.events;
    if (options.events !== undefined) {
      for (const [method, route] of eventsRoutes(options.events, options.eventDelivery))
        routes.set(method, route);
    }
    this.dispatcher = new RequestDispatcher(this, routes);
    this.#stopBus = this.bus.subscribe((event) => this.#deliverToSessions(event));
  }

  capabilities(era: ProtocolEra): ServerCapabilities {
    const capabilities: ServerCapabilities = { tools: { listChanged: true }, completions: {}, logging: {} };
    // App resources and skill sources count only while they serve something (a gateway without
    // upstream skills and with its resources off declares no resources).
    const skills = new Set<unknown>(this.#skills);
    const resourceProviders = this.resourceProviders.filter((provider) =>
      provider === this.#appResources
        ? !this.#appResources.empty
        : !skills.has(provider) || (provider as SkillProvider).servesSkills(),
    );
    if (resourceProviders.length > 0) {
      capabilities.resources = {
        subscribe: resourceProviders.some((provider) => provider.subscribable),
        listChanged: true,
      };
    }
    if (this.promptProviders.length > 0) capabilities.prompts = { listChanged: true };
    // 2025-11-25 tasks only through a relay that answers them (a gateway's upstream tasks), with
    // `list` when the relay can tell whose each task is.
    if (era === 'legacy' && this.taskRelay?.legacyTasks === true) {
      (capabilities as { tasks?: object }).tasks = {
        ...(this.taskRelay.list !== undefined ? { list: {} } : {}),
        cancel: {},
        requests: { tools: { call: {} } },
      };
    }
    const extensions: Record<string, object> = {};
    if (era === 'modern') extensions[tasksExtensionId] = {};
    // Events only on 2026-07-28: the extension is defined for that revision on.
    if (era === 'modern' && this.#events !== undefined && (this.#events.offersEvents?.() ?? true)) {
      extensions[eventsExtensionId] = {};
    }
    // Skills in both eras, as the SDK's own extension declares them: a 2025 client lists them too.
    // `resources/directory/read` is answered from the entries of every source (`skill-directory.ts`).
    if (this.#skills.some((provider) => provider.servesSkills()))
      extensions[skillsExtensionId] = { directoryRead: true };
    // MCP Apps in both eras: a server with app tools says so (SEP-1724's extension declaration).
    if (this.tools.servesApps()) extensions[mcpAppsExtensionId] = {};
    if (Object.keys(extensions).length > 0) {
      (capabilities as { extensions?: Record<string, object> }).extensions = extensions;
    }
    return capabilities;
  }

  addTool(tool: DefinedTool): void {
    const others = this.tools.localDefinitions().filter((defined) => defined.name !== tool.name);
    checkToolApps([...others, tool], this.#appsContext);
    this.tools.addLocal(tool);
  }

  removeTool(name: string): boolean {
    return this.registry.unregister(name);
  }

  listTools(): Tool[] {
    return this.tools.list();
  }

  getTool(name: string): Tool | undefined {
    return this.tools.get(name)?.listed;
  }

  isServed(tool: RegisteredTool): boolean {
    return this.tools.isServed(tool);
  }

  async callTool(name: string, args: unknown, options: LocalCallToolOptions = {}): Promise<CallToolResult> {
    // The dispatcher's `tools/call`, without the wire: traced, and a local error keeps its code.
    return (await this.dispatcher.invoke({
      id: 0,
      method: 'tools/call',
      params: { name, arguments: (args ?? {}) as Record<string, unknown> },
      era: 'legacy',
      entry: 'in-process',
      channel: silentChannel,
      abort: new CallAbort(options.signal),
    })) as CallToolResult;
  }

  async notifyResourceUpdated(uri: string): Promise<void> {
    this.bus.publish({ kind: 'resource_updated', uri });
  }

  async log(level: LoggingLevel, data: unknown, logger?: string): Promise<void> {
    const notification: JSONRPCNotification = {
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { level, data, ...(logger !== undefined ? { logger } : {}) },
    };
    for (const session of this.#sessions) {
      if (passesLogLevel(level, session.logLevel)) session.notify(notification);
    }
  }

  async connect(transport: Transport): Promise<McpConnectionHandle> {
    const connection = await serveMessageConnection(this, transport);
    this.#connections.add(connection);
    connection.onClose(() => this.#connections.delete(connection));
    return { close: () => connection.close() };
  }

  createSession(outlet: SessionOutlet, id?: string, options: CreateSessionOptions = {}): LegacySession {
    const session = new LegacySession(
      outlet,
      id,
      options.replicaId !== undefined ? { replicaId: options.replicaId } : {},
    );
    const restored = options.restored;
    if (restored !== undefined) {
      session.protocolVersion = restored.protocolVersion;
      session.clientCapabilities = restored.clientCapabilities;
      session.clientInfo = restored.clientInfo;
      session.initialized = true;
      this.attachSession(session);
    }
    return session;
  }

  attachSession(session: LegacySession): void {
    if (this.#sessions.has(session)) return;
    this.#sessions.add(session);
    // Subscriptions made through another replica count here as if made here (see HttpSessions).
    session.subscriptions.onApply = (uri, subscribed) => {
      if (subscribed) this.subscriptions.add(uri).catch(() => {});
      else void this.subscriptions.remove(uri);
    };
    session.onClose(() => {
      this.#sessions.delete(session);
      for (const uri of session.subscriptions) void this.subscriptions.remove(uri);
      session.subscriptions.clear();
    });
  }

  get sessionCount(): number {
    return this.#sessions.size;
  }

  async close(): Promise<void> {
    await Promise.all([...this.#connections].map((connection) => connection.close().catch(() => {})));
    for (const session of [...this.#sessions]) session.close('The server is shutting down.');
    this.suspended.close();
    this.tasks.close();
  }

  /** Change events reach every initialized 2025 session (resource updates only its subscribers). */
  #deliverToSessions(event: ServerEvent): void {
    const notification: JSONRPCNotification =
      event.kind === 'resource_updated'
        ? { jsonrpc: '2.0', method: methodNotification[event.kind], params: { uri: event.uri } }
        : { jsonrpc: '2.0', method: methodNotification[event.kind] };
    for (const session of this.#sessions) {
      if (event.kind === 'resource_updated' && !session.subscriptions.has(event.uri)) continue;
      session.notify(notification);
    }
  }

  /** Stops listening to the bus (for tests of a server that is dropped). */
  detach(): void {
    this.#stopBus();
  }
}

function toPolicy(approval: ApprovalPolicy | ApprovalMode): ApprovalPolicy {
  return typeof approval === 'object' ? approval : createApprovalPolicy({ mode: approval });
}

/** Creates an MCP server from tools, a registry, resources, prompts and providers. */
export function createMcpServer(options: McpServerOptions): McpServer {
  return new DefaultMcpServer(options);
}
