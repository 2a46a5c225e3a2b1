/**
 * Many MCP servers at once: connect them in parallel, supervise each, and keep their tools —
 * namespaced and ready to execute — in one core registry.
 */

import type {
  CallToolResult,
  GetPromptResult,
  LoggingMessageNotification,
  Progress,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplateType as ResourceTemplate,
  Tool,
} from '@modelcontextprotocol/client';
import {
  createToolChecker,
  createToolName,
  createToolRegistry,
  type Logger,
  loadOpenTelemetry,
  type RegisteredTool,
  type RegistryStore,
  silentLogger,
  type TelemetrySetting,
  type ToolNamingOptions,
  type ToolRegistry,
  type ToolRule,
  type ToolTrustPolicy,
  type ToolTrustStore,
  type WrapToolResultOptions,
} from '@switchboard/core';
import { followAppUriOwners } from './app-resource-uris.js';
import type { ApprovalSetting } from './approval-setting.js';
import { ClientError, ClientErrorCode } from './client-error.js';
import type { ServerEntry } from './config/server-entry.js';
import { type ConnectionTrust, createConnectionTrust } from './connection-trust.js';
import { createSharedValidator } from './core-tool-steps.js';
import { createCrossServerCatalog } from './cross-server-catalog.js';
import { createFallbackTrustStore } from './fallback-trust-store.js';
import type { McpClient } from './mcp-client.js';
import type { CallToolOptions, McpClientOptions } from './mcp-client-options.js';
import type { ApproveCallback, McpToolExecuteOptions } from './mcp-tool.js';
import { createMetricsRecorder, type McpMetrics } from './metrics-recorder.js';
import type { ProtocolMessageEvent } from './protocol-message-tap.js';
import type { ClientAuthOptions } from './server-auth.js';
import type { ServerStatus, SupervisionOptions } from './server-connection.js';
import { createServerRecord, type ServerRecord, type SharedServerSettings } from './server-record.js';
import type { ElicitationHandler, RootsProvider, SamplingHandler } from './server-request-answers.js';
import type { OpenTelemetryApi } from './telemetry/open-telemetry-api.js';
import { createTrustReviewTracer } from './telemetry/trust-tracing.js';
import { type AfterToolCallHook, createStoreRecorder, type StoreRecorder } from './tool-call-hooks.js';
import { createTrustGate } from './trust-gate.js';

/** Servers to connect: a name → entry map, or a loaded config (`{ mcpServers }`). */
export type McpServers = Record<string, ServerEntry> | { mcpServers: Record<string, ServerEntry> };

/** Options of {@link connectMcp}. */
export interface ConnectMcpOptions {
  /** OAuth of remote servers: token store and sign-in URL opener (none by default: a server wanting a sign-in is `needs-auth`). */
  auth?: ClientAuthOptions;
  /** Registry to register tools in. @default a new registry */
  registry?: ToolRegistry;
  /** Naming of a registry created here (ignored when `registry` is given). @default core's default */
  naming?: ToolNamingOptions;
  /** A server that fails to connect: `'throw'` closes the rest and rejects; `'skip'` warns and keeps the rest. @default 'throw' */
  onError?: 'throw' | 'skip';
  /** Do not respawn dead servers in the background; reconnect on the next use instead. @default false */
  lazy?: boolean;
  /** Where logs go (pino-compatible). @default silentLogger */
  logger?: Logger;
  /** Asked before a tool whose approval policy says `ask`; without it such tools are refused with `APPROVAL_REQUIRED`. */
  approve?: ApproveCallback;
  /** Approval policy of servers whose config sets none. @default 'annotations' */
  approval?: ApprovalSetting;
  /** `execute` returns the raw `CallToolResult` instead of core's wrapped shape. @default false */
  rawResults?: boolean;
  /** Options of core's `wrapToolResult` (output budget, instruction, binary attachments). */
  wrap?: Omit<WrapToolResultOptions, 'toolName' | 'shape'>;
  /** Respawn, backoff and circuit-breaker settings. */
  supervision?: SupervisionOptions;
  /** How this client introduces itself. */
  clientInfo?: McpClientOptions['clientInfo'];
  /** Connect + initialize deadline per server (a server's `timeouts.connectMs` wins). @default 30000 */
  initializeTimeoutMs?: number;
  /** Default request deadline (a server's `timeouts.callMs` wins). @default 60000 */
  requestTimeoutMs?: number;
  /** Hard deadline of a tool call that keeps reporting progress (a server's `timeouts.maxTotalMs` wins). @default none */
  maxTotalTimeoutMs?: number;
  /**
   * Receives the progress of every tool call that has no `onProgress` of its own. With it every
   * call sends a progress token, and each progress restarts the call's deadline.
   */
  onProgress?: (server: string, tool: string, progress: Progress) => void;
  /**
   * Hides tools: `false` keeps a tool out of the registry (so out of selectors, gateways and
   * models), on top of each server's `includeTools` / `excludeTools`.
   */
  toolFilter?: (tool: { server: string; name: string }) => boolean;
  /** Quiet period before refreshing tools after `list_changed`. @default 100 */
  listChangedDebounceMs?: number;
  /** Roots offered to every server. */
  roots?: RootsProvider;
  /** Sampling handler for every server. */
  sampling?: SamplingHandler;
  /** Elicitation handler for every server. */
  elicitation?: ElicitationHandler;
  /**
   * Fill the fields the user left out of an elicitation answer from the requested schema's
   * defaults (SEP-1034), and tell servers so. A relay that passes answers on unchanged turns it off.
   * @default true
   */
  applyElicitationDefaults?: boolean;
  /** Receives every server's log messages. */
  onLog?: (server: string, message: LoggingMessageNotification['params']) => void;
  /**
   * Receives a redacted copy of every JSON-RPC message to and from every server (the version
   * probe and `initialize` included), for protocol logs and inspectors. Costs nothing when unset.
   */
  onMessage?: (server: string, event: ProtocolMessageEvent) => void;
  /** Called after a server's tools changed in the registry. */
  onToolsChanged?: (server: string, tools: RegisteredTool[]) => void;
  /** Runs after every tool call that reached a server (ok or not) with its duration; what it throws is logged, never passed on. */
  afterToolCall?: AfterToolCallHook;
  /**
   * Remembers servers, tools and usage across sessions. Tools known from an earlier run (same server
   * config) are registered before their server connects, marked `meta.restored`, and replaced once it
   * does. A store that fails is logged once and the connection goes on without it.
   */
  store?: RegistryStore;
  /**
   * Tracing and metrics of tool calls (OpenTelemetry semantic conventions for MCP; W3C trace
   * context in `params._meta`): the providers given here, or `false` for none.
   * @default the globally registered providers (nothing at all while none is, or without `@opentelemetry/api`)
   */
  telemetry?: TelemetrySetting;
  /**
   * Tool trust (pinning on first use, checks of what the model reads): a tool whose definition
   * changed, a new or renamed tool of a known server, and a tool with a blocking finding are
   * quarantined — hidden from every model-facing list and refused with `TOOL_QUARANTINED` — until
   * approved (`connection.trust`, `switchboard tools approve`). A server's own `trust` goes over this.
   * Decisions live in `store.trustStore` (SQLite, PostgreSQL: shared by replicas), else `trust.store`,
   * else in memory for this connection. @default { pin: 'block', newServers: 'trust', quarantineAt: 'high' }
   */
  trust?: ConnectionTrustSetting;
}

/** The connection's trust policy, plus the rules and where decisions live. */
export interface ConnectionTrustSetting extends ToolTrustPolicy {
  /** The checks run on every listed tool. @default core's `defaultToolRules` */
  rules?: readonly ToolRule[];
  /** Where decisions live when the registry store has no `trustStore`. @default in memory */
  store?: ToolTrustStore;
}

/** What {@link connectMcp} returns. */
export interface McpConnection {
  /** Tools of the connected servers by public (namespaced) name; kept up to date. */
  readonly tools: Readonly<Record<string, RegisteredTool>>;
  /** The registry holding them (the one passed in, or a new one). */
  readonly registry: ToolRegistry;
  /** Names of the servers this connection manages (skipped ones included). */
  readonly servers: string[];
  /** Per server: state, last error, circuit breaker, respawns. */
  status(): Record<string, ServerStatus>;
  /** Calls, errors and latency percentiles per server and per tool. */
  metrics(): McpMetrics;
  /** The live client of a server (resources, prompts, completion...), if connected. */
  client(server: string): McpClient | undefined;
  /** Connects a server now if it is not (lazy, failed or skipped), and returns its client. */
  connect(server: string): Promise<McpClient>;
  /** Drops a server's session and connects again. */
  reconnect(server: string): Promise<void>;
  /** Re-reads tool lists (one server, or all). */
  refreshTools(server?: string): Promise<void>;
  /** Runs a tool by its public name. */
  callTool(
    publicName: string,
    args?: Record<string, unknown>,
    options?: McpToolExecuteOptions,
  ): Promise<unknown>;
  /**
   * Calls a tool of one server by its name there and returns the server's `CallToolResult` as it
   * came, counted like every call (metrics, the store's usage, `afterToolCall`) and supervised
   * (reconnect, circuit breaker): for relays such as a gateway, which serve results unchanged
   * and apply their own approval. No argument or output checks, no approval, no wrapping.
   */
  relayTool(
    server: string,
    tool: string,
    args?: Record<string, unknown>,
    options?: CallToolOptions,
  ): Promise<CallToolResult>;
  /** Resources of every connected server; URIs kept unless two servers list one (then `<server>+<uri>`), each with `_meta["switchboard/server"]`. */
  listResources(): Promise<Resource[]>;
  /** Resource templates of every connected server, named as `listResources` names URIs. */
  listResourceTemplates(): Promise<ResourceTemplate[]>;
  /** Reads a resource by a listed URI (or `<server>+<uri>`, or a URI one server's template matches). */
  readResource(uri: string): Promise<ReadResourceResult>;
  /** Prompts of every connected server, namespaced like tools (`mcp__<server>__<prompt>`). */
  listPrompts(): Promise<Prompt[]>;
  /** Gets a prompt by its listed (namespaced) name. */
  getPrompt(name: string, args?: Record<string, string>): Promise<GetPromptResult>;
  /** Adds a server at run time and connects it; rejects (and keeps nothing) when it cannot connect. */
  addServer(name: string, entry: ServerEntry): Promise<McpClient>;
  /** Closes a server and removes its tools; false when there is no such server. */
  removeServer(name: string): Promise<boolean>;
  /** Closes every server and removes their tools from the registry. */
  close(): Promise<void>;
  /** Tool trust: what is quarantined and why, diffs, approve and reject, events. */
  readonly trust: ConnectionTrust;
}

/** The entries of a config as `connectMcp` takes it: a bare map or one under `mcpServers`. */
export function normaliseServers(servers: McpServers): Record<string, ServerEntry> {
  const maybe = (servers as { mcpServers?: unknown }).mcpServers;
  if (typeof maybe === 'object' && maybe !== null && !('command' in maybe) && !('url' in maybe)) {
    return maybe as Record<string, ServerEntry>;
  }
  return servers as Record<string, ServerEntry>;
}

/** The client options every server of a connection gets. */
function clientOptionsOf(options: ConnectMcpOptions, logger: Logger): McpClientOptions {
  const clientOptions: McpClientOptions = { logger };
  if (options.clientInfo) clientOptions.clientInfo = options.clientInfo;
  if (options.initializeTimeoutMs !== undefined)
    clientOptions.initializeTimeoutMs = options.initializeTimeoutMs;
  if (options.requestTimeoutMs !== undefined) clientOptions.requestTimeoutMs = options.requestTimeoutMs;
  if (options.maxTotalTimeoutMs !== undefined) clientOptions.maxTotalTimeoutMs = options.maxTotalTimeoutMs;
  if (options.listChangedDebounceMs !== undefined)
    clientOptions.listChangedDebounceMs = options.listChangedDebounceMs;
  if (options.roots) clientOptions.roots = options.roots;
  if (options.sampling) clientOptions.sampling = options.sampling;
  if (options.elicitation) clientOptions.elicitation = options.elicitation;
  if (options.applyElicitationDefaults !== undefined)
    clientOptions.applyElicitationDefaults = options.applyElicitationDefaults;
  if (options.auth) clientOptions.auth = options.auth;
  if (options.telemetry !== undefined) clientOptions.telemetry = options.telemetry;
  return clientOptions;
}

/** The client options of one server: the shared ones plus the callbacks that name the server. */
function serverClientOptions(
  name: string,
  entry: ServerEntry,
  base: McpClientOptions,
  options: ConnectMcpOptions,
): McpClientOptions {
  const timeouts = entry.timeouts;
  const ownTimeouts =
    timeouts?.connectMs !== undefined || timeouts?.callMs !== undefined || timeouts?.maxTotalMs !== undefined;
  if (!options.onLog && !options.onProgress && !options.onMessage && !ownTimeouts) return base;
  const own: McpClientOptions = { ...base };
  // The connection's deadlines are defaults: a server's own `timeouts` win.
  if (timeouts?.connectMs !== undefined) own.initializeTimeoutMs = timeouts.connectMs;
  if (timeouts?.callMs !== undefined) own.requestTimeoutMs = timeouts.callMs;
  if (timeouts?.maxTotalMs !== undefined) own.maxTotalTimeoutMs = timeouts.maxTotalMs;
  const { onLog, onProgress, onMessage } = options;
  if (onLog) own.onLog = (message: LoggingMessageNotification['params']) => onLog(name, message);
  if (onMessage) own.onMessage = (event) => onMessage(name, event);
  if (onProgress) own.onProgress = (tool, progress) => onProgress(name, tool, progress);
  return own;
}

/** Connects many MCP servers in parallel and registers their tools. */
export async function connectMcp(
  servers: McpServers,
  options: ConnectMcpOptions = {},
): Promise<McpConnection> {
  const logger = options.logger ?? silentLogger;
  const registry =
    options.registry ?? createToolRegistry({ ...(options.naming ? { naming: options.naming } : {}), logger });
  const entries = Object.entries(normaliseServers(servers)).filter(([, entry]) => entry.enabled !== false);
  for (const [name, entry] of entries) checkServerEntry(name, entry);

  const metrics = createMetricsRecorder();
  const recorder = createStoreRecorder(options.store, logger);
  const { rules, store: trustStore, ...trustPolicy } = options.trust ?? {};
  const serverEntries = new Map<string, ServerEntry>(entries);
  const persistentTrust = options.store?.trustStore ?? trustStore;
  const trust = createConnectionTrust({
    // A store that fails (corrupt, unwritable, down) leaves the pins in memory, with one warning.
    store: persistentTrust === undefined ? undefined : createFallbackTrustStore(persistentTrust, logger),
    policy: trustPolicy,
    serverPolicy: (server) => serverEntries.get(server)?.trust,
    checker: rules === undefined ? undefined : createToolChecker({ rules }),
    logger,
    // Each listing's review is a span with its findings as events, where telemetry is on.
    traceReview: createTrustReviewTracer(
      options.telemetry === false ? undefined : loadOpenTelemetry<OpenTelemetryApi>(),
      options.telemetry,
    ),
  });
  const gate = createTrustGate(trust.engine);
  const baseClientOptions = clientOptionsOf(options, logger);
  const shared = (name: string, entry: ServerEntry): SharedServerSettings => ({
    registry,
    validator,
    metrics,
    recorder,
    logger,
    clientOptions: serverClientOptions(name, entry, baseClientOptions, options),
    supervision: { respawn: options.lazy !== true, ...options.supervision },
    approval: options.approval ?? 'annotations',
    ...(options.approve ? { approve: options.approve } : {}),
    rawResults: options.rawResults === true,
    ...(options.wrap ? { wrap: options.wrap } : {}),
    ...(options.afterToolCall ? { afterToolCall: options.afterToolCall } : {}),
    ...(options.toolFilter ? { toolFilter: options.toolFilter } : {}),
    ...(options.onToolsChanged ? { onToolsChanged: options.onToolsChanged } : {}),
    trust: trust.engine,
    gate,
  });
  const validator = createSharedValidator();

  /** The servers of this connection by name: one record each. */
  const records = new Map<string, ServerRecord>();
  for (const [name, entry] of entries)
    records.set(name, createServerRecord(name, entry, shared(name, entry)));

  const tools: Record<string, RegisteredTool> = {};
  const unsubscribe = registry.subscribe((event) => {
    if (!records.has(event.tool.server)) return;
    if (event.type === 'removed') delete tools[event.tool.name];
    else {
      if (event.type === 'updated') delete tools[event.previous.name];
      tools[event.tool.name] = event.tool;
    }
  });

  /** The quarantined tool a public name would have (its server's prefix and its name), if any. */
  const quarantinedByName = (publicName: string) =>
    trust.engine.verdicts().find(
      (verdict) =>
        !verdict.usable &&
        records.has(verdict.server) &&
        createToolName(
          {
            server: verdict.server,
            tool: verdict.tool,
            ...(records.get(verdict.server)?.entry.prefix === undefined
              ? {}
              : { prefix: records.get(verdict.server)?.entry.prefix as string }),
          },
          options.naming ?? {},
        ) === publicName,
    );

  const recordOf = (server: string): ServerRecord => {
    const record = records.get(server);
    if (!record) {
      throw new ClientError({
        code: ClientErrorCode.ServerNotFound,
        message: `No MCP server named "${server}" in this connection; known: ${[...records.keys()].join(', ') || 'none'}.`,
        context: { server },
      });
    }
    return record;
  };

  const drop = async (record: ServerRecord): Promise<void> => {
    record.stopTrust();
    trust.engine.forget(record.name);
    await record.connection.close();
    // While the record is still there, so `tools` follows the removals.
    registry.unregisterServer(record.name);
    records.delete(record.name);
  };

  // Whose `ui://` app resources are whose, from the tools (servers may not list them).
  const appUris = followAppUriOwners(registry);
  const close = async (): Promise<void> => {
    unsubscribe();
    appUris.stop();
    for (const record of records.values()) record.stopTrust();
    trust.engine.close();
    await Promise.all([...records.values()].map((record) => record.connection.close()));
    for (const name of records.keys()) registry.unregisterServer(name);
    for (const key of Object.keys(tools)) delete tools[key];
    await recorder.flush();
  };

  // Known tools go into the registry before any server is up, so tool selection can index them now.
  if (recorder.active)
    await Promise.all([...records.values()].map((record) => restoreTools(record, recorder)));

  const results = await Promise.allSettled(
    [...records.values()].map((record) => record.connection.ensureConnected()),
  );
  for (const record of records.values()) {
    recorder.recordConnect(record.name, record.entry, record.connection.status());
  }
  // Reviews that one server's tools started on the others' (shadowing, look-alike names).
  await trust.engine.settled();
  const failures: Array<{ server: string; error: ClientError }> = [];
  results.forEach((result, index) => {
    if (result.status === 'rejected') {
      const server = entries[index]?.[0] ?? '?';
      failures.push({ server, error: result.reason as ClientError });
    }
  });
  if (failures.length > 0) {
    if (options.onError === 'skip') {
      for (const { server, error } of failures) {
        logger.warn({ server, code: error.code }, `skipping MCP server "${server}": ${error.message}`);
      }
    } else {
      await close();
      const [first] = failures;
      if (failures.length === 1 && first) throw first.error;
      throw new ClientError({
        code: ClientErrorCode.ConnectionFailed,
        message: `${failures.length} of ${entries.length} MCP servers failed to connect:\n${failures
          .map(({ server, error }) => `- ${server}: ${error.message}`)
          .join('\n')}\nPass onError: 'skip' to keep the others.`,
        context: { servers: failures.map(({ server, error }) => ({ server, code: error.code })) },
        cause: first?.error,
      });
    }
  }

  const catalog = createCrossServerCatalog(
    {
      appUris,
      get servers() {
        return [...records.keys()];
      },
      client: (server) => {
        const client = records.get(server)?.connection.client();
        return client?.connected === true ? client : undefined;
      },
    },
    { logger, ...(options.naming ? { naming: options.naming } : {}) },
  );

  return {
    tools,
    registry,
    trust: trust.api,
    listResources: () => catalog.listResources(),
    listResourceTemplates: () => catalog.listResourceTemplates(),
    readResource: (uri) => catalog.readResource(uri),
    listPrompts: () => catalog.listPrompts(),
    getPrompt: (name, args) => catalog.getPrompt(name, args),
    get servers() {
      return [...records.keys()];
    },
    status() {
      const result: Record<string, ServerStatus> = {};
      for (const [name, record] of records) result[name] = record.connection.status();
      return result;
    },
    metrics: () => metrics.snapshot(),
    client: (server) => recordOf(server).connection.client(),
    connect: (server) => recordOf(server).connection.ensureConnected(),
    async reconnect(server) {
      await recordOf(server).connection.reconnect();
    },
    async refreshTools(server) {
      const targets = server === undefined ? [...records.values()] : [recordOf(server)];
      await Promise.all(
        targets.map(async (record) => {
          const client = record.connection.client();
          if (!client) return;
          // The same path as list_changed, so the registry and `tools` stay in step.
          await record.applyTools(await client.listTools({ refresh: true }));
        }),
      );
      await trust.engine.settled();
    },
    async callTool(publicName, args = {}, callOptions = {}) {
      const tool = registry.get(publicName);
      if (!tool?.execute || !records.has(tool.server)) {
        // A quarantined tool is not in the registry: say so rather than that it does not exist.
        const blocked = quarantinedByName(publicName);
        if (blocked !== undefined) gate.check(blocked.server, blocked.tool);
        throw new ClientError({
          code: ClientErrorCode.ToolNotFound,
          message: `No tool "${publicName}" from these MCP servers. Known tools: ${Object.keys(tools).slice(0, 20).join(', ')}${Object.keys(tools).length > 20 ? ', …' : ''}.`,
          context: { tool: publicName },
        });
      }
      return tool.execute(args, callOptions);
    },
    relayTool: async (server, tool, args = {}, callOptions = {}) =>
      recordOf(server).relay(tool, args, callOptions),
    async addServer(name, entry) {
      if (records.has(name)) {
        throw new ClientError({
          code: ClientErrorCode.ServerExists,
          message: `MCP server "${name}" is already part of this connection; remove it first or pick another name.`,
          context: { server: name },
        });
      }
      checkServerEntry(name, entry);
      const record = createServerRecord(name, entry, shared(name, entry));
      records.set(name, record);
      serverEntries.set(name, entry);
      try {
        const client = await record.connection.ensureConnected();
        recorder.recordConnect(name, entry, record.connection.status());
        return client;
      } catch (error) {
        recorder.recordConnect(name, entry, record.connection.status());
        await drop(record);
        throw error;
      }
    },
    async removeServer(name) {
      const record = records.get(name);
      if (!record) return false;
      await drop(record);
      options.onToolsChanged?.(name, []);
      return true;
    },
    close,
  };
}

/** Registers the tools the store remembers for a server whose config is unchanged. */
async function restoreTools(record: ServerRecord, recorder: StoreRecorder): Promise<void> {
  const known = await recorder.knownTools(record.name, record.entry);
  if (known.length === 0) return;
  await record.applyTools(
    known.map((stored) => ({
      name: stored.originalName,
      description: stored.description,
      inputSchema: stored.inputSchema as Tool['inputSchema'],
      ...(stored.title === undefined ? {} : { title: stored.title }),
      ...(stored.annotations === undefined ? {} : { annotations: stored.annotations }),
    })),
    true,
  );
}

function checkServerEntry(name: string, entry: ServerEntry): void {
  if (
    typeof entry !== 'object' ||
    entry === null ||
    (typeof entry.command !== 'string' && typeof entry.url !== 'string')
  ) {
    throw new ClientError({
      code: ClientErrorCode.ConfigInvalid,
      message: `MCP server "${name}": needs "command" (a stdio server) or "url" (an HTTP server).`,
      context: { server: name },
    });
  }
}
