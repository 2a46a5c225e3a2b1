/**
 * One connected MCP server, in either era: the SDK v2 `Client` (version negotiation: modern first,
 * then the 2025 `initialize`) plus what users expect around it — a connect deadline that leaves no
 * process behind, a cached tool list refreshed on `list_changed` (cache hints honoured), calls with
 * cancellation, progress, tasks and handlers of their own, and errors that say which server failed
 * and what to try.
 */

import {
  type CallToolResult,
  type ClientCapabilities,
  type CompleteRequest,
  type CompleteResult,
  type GetPromptResult,
  type Implementation,
  type LoggingLevel,
  type LoggingMessageNotification,
  type McpSubscription,
  type Progress,
  type Prompt,
  ProtocolError,
  type ReadResourceResult,
  type RequestOptions,
  type Resource,
  type ResourceTemplateType as ResourceTemplate,
  type ServerCapabilities,
  type SubscriptionFilter,
  type Tool,
  type Transport,
} from '@modelcontextprotocol/client';
import {
  type Skill,
  type SkillFile,
  SkillsClient,
  SkillVerificationError,
} from '@modelcontextprotocol/client/ext/skills';
import {
  type Logger,
  loadOpenTelemetry,
  networkTransportOf,
  type SwitchboardError,
  silentLogger,
  type TelemetrySetting,
} from '@switchboard/core';
import { JsonRpcErrorCode, TransportErrorCode, type TransportType } from '@switchboard/transports';
import { z } from 'zod';
import { ClientError, ClientErrorCode, describeUrl, type ErrorScene, toClientError } from './client-error.js';
import { type ClientTransportHandle, createClientTransport } from './client-transport.js';
import { isServerEntry, type ServerEntry } from './config/server-entry.js';
import { withHelperHeaders } from './headers-helper.js';
import { ProtocolClient, withCallRoute } from './protocol-client.js';
import { type ProtocolMessageListener, tapProtocolMessages } from './protocol-message-tap.js';
import { checkProtocolVersion, eraOf, negotiationFor, type ProtocolEra } from './protocol-version.js';
import { createRedactingLogger } from './redacting-logger.js';
import { createRedactor, type Redactor } from './redactor.js';
import type { ClientAuthOptions } from './server-auth.js';
import {
  type CallServerRequestHandlers,
  type ElicitationHandler,
  type RootsProvider,
  type SamplingHandler,
  ServerRequestRouter,
} from './server-request-router.js';
import { serverSecrets } from './server-secrets.js';
import type { OpenTelemetryApi } from './telemetry/open-telemetry-api.js';
import {
  type ConnectionFacts,
  createRequestTelemetry,
  type RequestTelemetry,
  type RequestTrace,
} from './telemetry/request-telemetry.js';
import { withTraceContext } from './telemetry/trace-context-option.js';
import { PolledToolTask, type TaskWaitOptions, type ToolTask, toTaskState } from './tool-task.js';

/** The identifier of the tasks extension (SEP-2663). */
const tasksExtension = 'io.modelcontextprotocol/tasks';

/** Options of {@link createMcpClient}. */
export interface McpClientOptions {
  /** How this client introduces itself. @default { name: 'switchboard', version: '0.0.0' } */
  clientInfo?: Implementation;
  /** Where logs go. @default silentLogger */
  logger?: Logger;
  /** Connect deadline: the version probe and `initialize` together. @default entry.timeouts.connectMs ?? 30000 */
  initializeTimeoutMs?: number;
  /**
   * How long the version probe (`server/discover`) may take. Over stdio a silent server is a legacy
   * one and the client falls back to `initialize`; over HTTP silence is an outage and fails.
   * @default half the connect deadline over stdio, all of it over HTTP
   */
  probeTimeoutMs?: number;
  /** Default deadline of each request. @default entry.timeouts.callMs ?? 60000 */
  requestTimeoutMs?: number;
  /**
   * Hard deadline of a tool call that keeps reporting progress (progress restarts `requestTimeoutMs`).
   * @default entry.timeouts.maxTotalMs ?? none
   */
  maxTotalTimeoutMs?: number;
  /**
   * Receives the progress of every tool call that has no `onProgress` of its own; with it, every
   * call sends a progress token, so long-running tools report and keep their deadline alive.
   */
  onProgress?: (tool: string, progress: Progress) => void;
  /** Quiet period before refreshing tools after `notifications/tools/list_changed`. @default 100 */
  listChangedDebounceMs?: number;
  /** Roots offered to the server; the `roots` capability is declared only when given. */
  roots?: RootsProvider;
  /** Sampling handler; the `sampling` capability is declared only when given. */
  sampling?: SamplingHandler;
  /** Elicitation handler; the `elicitation` capability is declared only when given. */
  elicitation?: ElicitationHandler;
  /** Fill fields the user left out from the requested schema's defaults (SEP-1034). @default true */
  applyElicitationDefaults?: boolean;
  /** Accept tasks (extension `io.modelcontextprotocol/tasks`): a server may answer a call with one. @default true */
  tasks?: boolean;
  /** Receives the server's log messages (`notifications/message`). */
  onLog?: (message: LoggingMessageNotification['params']) => void;
  /** Receives `notifications/resources/updated` for subscribed resources. */
  onResourceUpdated?: (uri: string) => void;
  /**
   * Receives a redacted copy of every JSON-RPC message sent to and received from the server, the
   * version probe and `initialize` included (protocol logs, inspectors). Costs nothing when unset.
   */
  onMessage?: ProtocolMessageListener;
  /** More strings to keep out of logs and errors (the entry's env and header values always are). */
  secrets?: string[];
  /** OAuth of a remote server: token store and how a sign-in URL is opened (none by default: `NEEDS_AUTH`). */
  auth?: ClientAuthOptions;
  /**
   * Pins the protocol version: `2026-07-28` speaks only the modern era (no fallback); a 2025
   * version runs `initialize` offering it (the server may answer with another 2025 version).
   * @default entry.protocolVersion ?? negotiate (modern first, then `initialize`)
   */
  protocolVersion?: string;
  /**
   * Tracing and metrics of every request (OpenTelemetry semantic conventions for MCP, trace
   * context in `params._meta`): the providers given here, or `false` for none.
   * @default the globally registered providers (nothing at all while none is, or without `@opentelemetry/api`)
   */
  telemetry?: TelemetrySetting;
}

/** Per-call options of {@link McpClient.callTool}: one type from the registry's `execute` down to here. */
export interface CallToolOptions extends CallServerRequestHandlers {
  /** Aborts the call; the server receives the cancellation (a task is cancelled too). */
  signal?: AbortSignal;
  /** Deadline for an answer (per request; a task's polling is bounded by `maxTotalTimeoutMs`). @default the client's requestTimeoutMs */
  timeoutMs?: number;
  /** Receives progress notifications (and, for a task, each change of its status). */
  onProgress?: (progress: Progress) => void;
  /** Each progress notification restarts the deadline (when there is a progress callback). @default true */
  resetTimeoutOnProgress?: boolean;
  /** Hard deadline even with progress (and for a task's whole run). */
  maxTotalTimeoutMs?: number;
  /** Told when the server answered with a task (before it is polled to its result). */
  onTask?: (task: ToolTask) => void;
  /**
   * The OpenTelemetry `Context` the call's span is a child of (a gateway passes the context of its
   * server span). Typed `unknown` so these types need no `@opentelemetry/api`.
   * @default the active context
   */
  traceContext?: unknown;
}

/** Per-request options of the requests other than tool calls ({@link McpClient.readResource}, …). */
export interface McpRequestOptions {
  /**
   * The OpenTelemetry `Context` the request's span is a child of (a gateway passes the context of
   * its server span). Typed `unknown` so these types need no `@opentelemetry/api`.
   * @default the active context
   */
  traceContext?: unknown;
}

/** What {@link McpClient.startTool} resolves with: the result, or the task the server created. */
export type ToolStart = { result: CallToolResult; task?: undefined } | { task: ToolTask; result?: undefined };

/** A connected MCP server. */
export interface McpClient {
  /** The server's name (as configured). */
  readonly name: string;
  /** The underlying SDK (v2) client, for anything not wrapped here. */
  readonly sdkClient: ProtocolClient;
  /** How the server is reached. */
  readonly transportKind: TransportType | 'custom';
  /** The era the connection speaks: `modern` (2026-07-28, per-request `_meta`) or `legacy` (2025 `initialize`). */
  readonly era: ProtocolEra;
  /** The negotiated protocol version (`server/discover` or `initialize`). */
  readonly protocolVersion: string | undefined;
  /** What the server said about itself. */
  readonly serverInfo: Implementation | undefined;
  readonly capabilities: ServerCapabilities | undefined;
  readonly instructions: string | undefined;
  /** False once the connection closed. */
  readonly connected: boolean;
  /** Process id of a stdio server (undefined for remote servers). */
  readonly pid: number | undefined;
  /** The server's tools; cached, refreshed on `list_changed` or when `refresh` is set (a fresh cache hint is honoured). */
  listTools(options?: { refresh?: boolean }): Promise<Tool[]>;
  /** Calls a tool and returns the server's result as it came (a task is polled to its result). */
  callTool(name: string, args?: Record<string, unknown>, options?: CallToolOptions): Promise<CallToolResult>;
  /** Calls a tool; resolves with the result, or with the task when the server created one. */
  startTool(name: string, args?: Record<string, unknown>, options?: CallToolOptions): Promise<ToolStart>;
  /** A task of this server by id (to resume one after a restart), with its current state. */
  getTask(taskId: string, tool?: string): Promise<ToolTask>;
  listResources(options?: McpRequestOptions): Promise<Resource[]>;
  listResourceTemplates(options?: McpRequestOptions): Promise<ResourceTemplate[]>;
  readResource(uri: string, options?: McpRequestOptions): Promise<ReadResourceResult>;
  subscribeResource(uri: string): Promise<void>;
  unsubscribeResource(uri: string): Promise<void>;
  listPrompts(options?: McpRequestOptions): Promise<Prompt[]>;
  getPrompt(
    name: string,
    args?: Record<string, string>,
    options?: McpRequestOptions,
  ): Promise<GetPromptResult>;
  complete(params: CompleteRequest['params'], options?: McpRequestOptions): Promise<CompleteResult>;
  /** The server's skills (extension `io.modelcontextprotocol/skills`); empty when it declares none. Files are not fetched. */
  listSkills(): Promise<Skill[]>;
  /** Reads one file of a skill (its `SKILL.md` by default) and verifies it against the skill's entry. */
  readSkill(skill: Skill, ref?: string): Promise<SkillFile>;
  /** Asks for log messages of `level` and above (2025: `logging/setLevel`; modern: on every request). */
  setLoggingLevel(level: LoggingLevel): Promise<void>;
  /** Checks the server answers (`ping`; `server/discover` on a modern connection). */
  ping(): Promise<void>;
  /** Tells the server the roots changed (2025 era; a modern server asks for them in each call). */
  notifyRootsChanged(): Promise<void>;
  /** Called with the new list after the server's tools changed. Returns the unsubscribe function. */
  onToolsChanged(listener: (tools: Tool[]) => void): () => void;
  /**
   * Called after the server's resources or resource templates changed (`list_changed`: a 2025
   * notification, or on the modern `subscriptions/listen` stream). Returns the unsubscribe function.
   */
  onResourcesChanged(listener: () => void): () => void;
  /** Called after the server's prompts changed (`list_changed`, either era). Returns the unsubscribe function. */
  onPromptsChanged(listener: () => void): () => void;
  /**
   * Called with the URI of a subscribed resource that changed (`notifications/resources/updated`,
   * either era; see `subscribeResource`). Returns the unsubscribe function.
   */
  onResourceUpdated(listener: (uri: string) => void): () => void;
  /** Called once when the connection closes (not after `close()`). Returns the unsubscribe function. */
  onClose(listener: (error: SwitchboardError) => void): () => void;
  /** The last lines the server wrote to stderr (stdio only), redacted. */
  stderrTail(): string[];
  /** Ends the session and stops the server process. */
  close(): Promise<void>;
}

// A cheap shape check instead of the full result schema on the 2025 path: results are checked by
// the tool layer (output schema) and wrapped by core afterwards, and this is the hot path.
const callToolResultShape = z.custom<CallToolResult>(
  (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
  { message: 'tools/call result is not an object' },
);
const objectResult = z.custom<Record<string, unknown>>(
  (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
  { message: 'the result is not an object' },
);

const defaultClientInfo: Implementation = { name: 'switchboard', version: '0.0.0' };
/** The longest wait for a server to acknowledge the change-notification stream at connect. */
const listenAckTimeoutMs = 10_000;
const noCallOptions: CallToolOptions = Object.freeze({});

/** What a connection was set up with (the settings step). */
interface ConnectSettings {
  name: string;
  logger: Logger;
  redactor: Redactor;
  initializeTimeoutMs: number;
  requestTimeoutMs: number;
  maxTotalTimeoutMs: number | undefined;
  onProgress: ((tool: string, progress: Progress) => void) | undefined;
  target: string;
  custom: boolean;
  pin: string | undefined;
}

/** Connects to one MCP server (a config entry or a ready SDK transport), negotiating the era. */
export async function createMcpClient(
  name: string,
  source: ServerEntry | Transport,
  options: McpClientOptions = {},
): Promise<McpClient> {
  const settings = connectSettings(name, source, options);
  // A headersHelper runs at every connect (tokens it mints are short-lived), before the transport is made.
  const entry = isServerEntry(source) ? await withHelperHeaders(name, source, settings.redactor) : source;
  const handle = transportHandle(name, entry, options, settings);
  // Before the SDK sees the transport: the version probe is the first message.
  if (options.onMessage) tapProtocolMessages(handle.transport, options.onMessage, settings.redactor);
  const router = new ServerRequestRouter(
    name,
    {
      ...(options.elicitation ? { elicitation: options.elicitation } : {}),
      ...(options.sampling ? { sampling: options.sampling } : {}),
      ...(options.roots ? { roots: options.roots } : {}),
    },
    () => protocol.getProtocolEra() === 'modern',
  );
  const protocol = createProtocolClient(options, settings, handle, router);
  // Loaded while connecting (once per process; undefined when not installed or not wanted).
  const openTelemetry = options.telemetry === false ? undefined : loadOpenTelemetry<OpenTelemetryApi>();
  // Transport-level problems (non-JSON lines on stdout, dropped streams) are logged and kept for the
  // error message. Set on the transport, not the SDK client: the version probe runs before the SDK
  // attaches its own handler, and it keeps (and chains) one set beforehand.
  const transportProblems: string[] = [];
  handle.transport.onerror = (error) => {
    const message = settings.redactor.redact(error.message);
    if (transportProblems.length < 5) transportProblems.push(message);
    settings.logger.debug({ server: name }, `transport: ${message}`);
  };
  await connectWithDeadline(protocol, handle, settings, transportProblems);
  const telemetry = createRequestTelemetry(
    await openTelemetry,
    options.telemetry,
    connectionFacts(source, handle, protocol, settings),
  );
  protocol.traceRequests(telemetry);
  const client = new ConnectedMcpClient(
    protocol,
    handle,
    router,
    settings,
    options,
    transportProblems,
    telemetry,
  );
  await client.listenForChanges();
  settings.logger.info(
    { server: name, transport: handle.kind, era: client.era, protocolVersion: client.protocolVersion },
    'connected',
  );
  return client;
}

/** Step 1: timeouts, redaction, the version pin (checked before anything is spawned: a typo costs nothing). */
function connectSettings(
  name: string,
  source: ServerEntry | Transport,
  options: McpClientOptions,
): ConnectSettings {
  const entry = isServerEntry(source) ? source : undefined;
  const redactor = createRedactor([...(entry ? serverSecrets(entry) : []), ...(options.secrets ?? [])]);
  const pin = options.protocolVersion ?? entry?.protocolVersion;
  if (pin !== undefined) checkProtocolVersion(String(pin), `MCP server "${name}"`);
  return {
    name,
    logger: createRedactingLogger(options.logger ?? silentLogger, redactor),
    redactor,
    initializeTimeoutMs: options.initializeTimeoutMs ?? entry?.timeouts?.connectMs ?? 30_000,
    requestTimeoutMs: options.requestTimeoutMs ?? entry?.timeouts?.callMs ?? 60_000,
    maxTotalTimeoutMs: options.maxTotalTimeoutMs ?? entry?.timeouts?.maxTotalMs,
    onProgress: options.onProgress,
    target: entry ? (entry.command ? `"${entry.command}"` : describeUrl(entry.url)) : 'the given transport',
    custom: entry === undefined,
    pin: pin === undefined ? undefined : String(pin),
  };
}

/** Step 2: the transport of the entry (or the one given). */
function transportHandle(
  name: string,
  source: ServerEntry | Transport,
  options: McpClientOptions,
  settings: ConnectSettings,
): ClientTransportHandle {
  if (!isServerEntry(source)) {
    return { transport: source, kind: 'http', stderrTail: () => [], pid: () => undefined };
  }
  try {
    return createClientTransport(source, {
      name,
      logger: settings.logger,
      redactor: settings.redactor,
      ...(options.auth ? { auth: options.auth } : {}),
    });
  } catch (error) {
    throw toClientError(error, { server: name, operation: 'initialize', redactor: settings.redactor });
  }
}

/** Step 3: the SDK client with its capabilities, negotiation, and the handlers of server requests. */
function createProtocolClient(
  options: McpClientOptions,
  settings: ConnectSettings,
  handle: ClientTransportHandle,
  router: ServerRequestRouter,
): ProtocolClient {
  const capabilities: ClientCapabilities = {};
  if (options.roots) capabilities.roots = { listChanged: true };
  if (options.sampling) capabilities.sampling = {};
  if (options.elicitation) {
    capabilities.elicitation = {
      form: options.applyElicitationDefaults === false ? {} : { applyDefaults: true },
    };
  }
  if (options.tasks !== false) capabilities.extensions = { [tasksExtension]: {} };
  const probeTimeoutMs =
    options.probeTimeoutMs ??
    (handle.kind === 'stdio' ? Math.ceil(settings.initializeTimeoutMs / 2) : settings.initializeTimeoutMs);
  const negotiation = negotiationFor(settings.pin, probeTimeoutMs);
  const protocol = new ProtocolClient(
    options.clientInfo ?? defaultClientInfo,
    {
      capabilities,
      versionNegotiation: negotiation.versionNegotiation,
      ...(negotiation.supportedProtocolVersions
        ? { supportedProtocolVersions: negotiation.supportedProtocolVersions }
        : {}),
    },
    router,
  );
  if (options.roots) {
    protocol.setRequestHandler('roots/list', (request, ctx) =>
      router.listRoots(request as never, protocol.originOf(ctx), ctx.mcpReq.signal),
    );
  }
  if (options.sampling) {
    protocol.setRequestHandler(
      'sampling/createMessage',
      (request, ctx) => router.sample(request as never, protocol.originOf(ctx), ctx.mcpReq.signal) as never,
    );
  }
  if (options.elicitation) {
    protocol.setRequestHandler('elicitation/create', (request, ctx) =>
      router.elicit(request as never, protocol.originOf(ctx), ctx.mcpReq.signal),
    );
  }
  protocol.setNotificationHandler('notifications/message', (notification) => {
    options.onLog?.(notification.params);
  });
  return protocol;
}

/** What a request's span says about the connection (read once connected: the negotiated version). */
function connectionFacts(
  source: ServerEntry | Transport,
  handle: ClientTransportHandle,
  protocol: ProtocolClient,
  settings: ConnectSettings,
): ConnectionFacts {
  const url = isServerEntry(source) && handle.kind !== 'stdio' ? parseUrl(source.url) : undefined;
  return {
    protocolVersion: protocol.getNegotiatedProtocolVersion(),
    networkTransport: settings.custom ? undefined : networkTransportOf(handle.kind),
    ...(url === undefined
      ? {}
      : {
          serverAddress: url.hostname,
          serverPort: Number(url.port) || (url.protocol === 'https:' || url.protocol === 'wss:' ? 443 : 80),
        }),
    sessionId: () => handle.transport.sessionId,
    redact: (text) => settings.redactor.redact(text),
  };
}

function parseUrl(url: string | undefined): URL | undefined {
  if (url === undefined) return undefined;
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/**
 * Step 4: negotiate and connect within the deadline. Leaves nothing running on failure: the SDK
 * closes on some failures but not all. A process that never spawned has nothing to stop, so its
 * close is not awaited (it would only wait out timeouts).
 */
async function connectWithDeadline(
  protocol: ProtocolClient,
  handle: ClientTransportHandle,
  settings: ConnectSettings,
  transportProblems: string[],
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(connectTimeout), settings.initializeTimeoutMs);
  });
  try {
    await Promise.race([
      protocol.connect(handle.transport, {
        timeout: settings.initializeTimeoutMs,
        maxTotalTimeout: settings.initializeTimeoutMs,
      }),
      deadline,
    ]);
  } catch (error) {
    const closing = protocol.close().catch(() => {});
    if (!isSpawnFailure(error)) await closing;
    throw explainConnectFailure(error, handle, settings, transportProblems);
  } finally {
    clearTimeout(timer);
  }
}

const connectTimeout = Symbol('connect deadline');

function isSpawnFailure(error: unknown): boolean {
  return (error as { code?: unknown } | undefined)?.code === TransportErrorCode.SpawnFailed;
}

function formatStderr(lines: string[]): string {
  const shown = lines.filter((line) => line.trim().length > 0).slice(-5);
  return shown.length > 0 ? ` Its stderr ended with:\n  ${shown.join('\n  ')}` : '';
}

function explainConnectFailure(
  error: unknown,
  handle: ClientTransportHandle,
  settings: ConnectSettings,
  transportProblems: string[],
): SwitchboardError {
  const scene: ErrorScene = {
    server: settings.name,
    operation: 'initialize',
    stderr: handle.stderrTail(),
    redactor: settings.redactor,
    target: settings.target,
  };
  const garbage =
    transportProblems.length > 0
      ? ` It wrote output that is not JSON-RPC (${transportProblems[0]}): a stdio server must write only protocol messages to stdout and send logs to stderr.`
      : '';
  const base = error === connectTimeout ? undefined : toClientError(error, scene);
  if (base === undefined || base.code === ClientErrorCode.Timeout) {
    const hint =
      handle.kind === 'stdio'
        ? `Run ${settings.target} by hand to check it is an MCP server speaking stdio, or raise timeouts.connectMs.`
        : `Check ${settings.target} is an MCP endpoint, or raise timeouts.connectMs.`;
    return new ClientError({
      code: ClientErrorCode.Timeout,
      message: settings.redactor.redact(
        `MCP server "${settings.name}" did not answer initialize within ${settings.initializeTimeoutMs} ms (the version probe, then initialize).${garbage} ${hint}${formatStderr(handle.stderrTail())}`,
      ),
      context: { server: settings.name, operation: 'initialize', timeoutMs: settings.initializeTimeoutMs },
      ...(base ? { cause: base } : {}),
    });
  }
  if (base.code === ClientErrorCode.ConnectionClosed) {
    return new ClientError({
      code: ClientErrorCode.ConnectionFailed,
      message: settings.redactor.redact(
        `MCP server "${settings.name}" (${settings.target}) exited or closed the connection before answering initialize.${garbage}${formatStderr(handle.stderrTail())}`,
      ),
      context: base.context,
      cause: base,
    });
  }
  return base;
}

/** The {@link McpClient} of one live connection. */
class ConnectedMcpClient implements McpClient {
  readonly name: string;
  readonly transportKind: McpClient['transportKind'];
  readonly era: ProtocolEra;
  readonly protocolVersion: string | undefined;
  readonly serverInfo: Implementation | undefined;
  readonly capabilities: ServerCapabilities | undefined;
  readonly instructions: string | undefined;
  private live = true;
  private closing = false;
  private toolsCache: Tool[] | undefined;
  private toolsLoading: Promise<Tool[]> | undefined;
  /** Tools that declare x-mcp-header parameters, as definitions without outputSchema. */
  private readonly headerDefinitions = new Map<string, Tool>();
  private debounce: NodeJS.Timeout | undefined;
  private readonly toolListeners = new Set<(tools: Tool[]) => void>();
  private readonly closeListeners = new Set<(error: SwitchboardError) => void>();
  private readonly resourcesListeners = new Set<() => void>();
  private readonly promptsListeners = new Set<() => void>();
  private readonly resourceUpdateListeners = new Set<(uri: string) => void>();
  private changeSubscription: McpSubscription | undefined;
  private resourceSubscription: McpSubscription | undefined;
  private readonly subscribedResources = new Set<string>();
  private skills: SkillsClient | undefined;
  /** Shared by every request without options: nothing is built per call on the common path. */
  private readonly defaultRequestOptions: RequestOptions;

  constructor(
    readonly sdkClient: ProtocolClient,
    private readonly handle: ClientTransportHandle,
    private readonly router: ServerRequestRouter,
    private readonly settings: ConnectSettings,
    private readonly options: McpClientOptions,
    private readonly transportProblems: string[],
    private readonly telemetry: RequestTelemetry,
  ) {
    const protocol = sdkClient;
    this.name = settings.name;
    this.protocolVersion = protocol.getNegotiatedProtocolVersion();
    this.era = protocol.getProtocolEra() ?? eraOf(this.protocolVersion ?? '');
    // A URL entry starts as Streamable HTTP; the transport may have fallen back to legacy SSE.
    this.transportKind = settings.custom
      ? 'custom'
      : (handle.transport as { usesSseFallback?: boolean }).usesSseFallback === true
        ? 'sse'
        : handle.kind;
    this.serverInfo = protocol.getServerVersion();
    this.capabilities = protocol.getServerCapabilities();
    this.instructions = protocol.getInstructions();
    this.defaultRequestOptions = Object.freeze({ timeout: settings.requestTimeoutMs });
    protocol.setNotificationHandler('notifications/tools/list_changed', () => this.toolsChanged());
    // The SDK dispatches these the same way in both eras: 2025 notifications, or the modern
    // `subscriptions/listen` streams opened by `listenForChanges` and `subscribeResource`.
    protocol.setNotificationHandler('notifications/resources/list_changed', () => {
      for (const listener of this.resourcesListeners) listener();
    });
    protocol.setNotificationHandler('notifications/prompts/list_changed', () => {
      for (const listener of this.promptsListeners) listener();
    });
    protocol.setNotificationHandler('notifications/resources/updated', (notification) => {
      const uri = notification.params.uri;
      options.onResourceUpdated?.(uri);
      for (const listener of this.resourceUpdateListeners) listener(uri);
    });
    protocol.onclose = () => this.connectionClosed();
  }

  get connected(): boolean {
    return this.live;
  }

  get pid(): number | undefined {
    return this.handle.pid();
  }

  private scene(operation: string, tool?: string, signal?: AbortSignal): ErrorScene {
    return {
      server: this.name,
      operation,
      ...(tool === undefined ? {} : { tool }),
      stderr: this.handle.stderrTail(),
      redactor: this.settings.redactor,
      target: this.settings.target,
      signal,
    };
  }

  private request<T>(operation: string, run: () => Promise<T>): Promise<T> {
    return run().catch((error: unknown) => {
      throw toClientError(error, this.scene(operation));
    });
  }

  /** On a modern connection, change notifications come on a `subscriptions/listen` stream. */
  async listenForChanges(): Promise<void> {
    if (this.era !== 'modern') return;
    const capabilities = this.capabilities;
    const filter: SubscriptionFilter = {
      ...(capabilities?.tools?.listChanged ? { toolsListChanged: true } : {}),
      ...(capabilities?.prompts?.listChanged ? { promptsListChanged: true } : {}),
      ...(capabilities?.resources?.listChanged ? { resourcesListChanged: true } : {}),
    };
    if (Object.keys(filter).length === 0) return;
    try {
      // Bounded: a server that never acknowledges must not hold the connect up for a whole request timeout.
      this.changeSubscription = await this.sdkClient.listen(filter, {
        timeout: Math.min(this.settings.requestTimeoutMs, listenAckTimeoutMs),
      });
    } catch (error) {
      // The connection works without it; list_changed just does not arrive.
      this.settings.logger.warn(
        { server: this.name },
        `subscriptions/listen failed: ${toClientError(error, this.scene('subscriptions/listen')).message}`,
      );
    }
  }

  private toolsChanged(): void {
    if (this.debounce) clearTimeout(this.debounce);
    this.debounce = setTimeout(() => {
      this.debounce = undefined;
      this.listTools({ refresh: true }).then(
        (tools) => {
          for (const listener of this.toolListeners) listener(tools);
        },
        (error: unknown) =>
          this.settings.logger.warn(
            { server: this.name },
            `refreshing tools failed: ${(error as Error).message}`,
          ),
      );
    }, this.options.listChangedDebounceMs ?? 100);
    this.debounce.unref?.();
  }

  private connectionClosed(): void {
    if (!this.live) return;
    this.live = false;
    if (this.debounce) clearTimeout(this.debounce);
    if (this.closing) return;
    const detail =
      this.transportProblems.length > 0 ? ` Last transport problem: ${this.transportProblems.at(-1)}.` : '';
    const error = new ClientError({
      code: ClientErrorCode.ConnectionClosed,
      message: this.settings.redactor.redact(
        `MCP server "${this.name}" closed the connection unexpectedly.${detail}${formatStderr(this.handle.stderrTail())}`,
      ),
      context: { server: this.name },
    });
    this.settings.logger.warn({ server: this.name }, error.message);
    for (const listener of this.closeListeners) listener(error);
  }

  async listTools(listOptions?: { refresh?: boolean }): Promise<Tool[]> {
    if (listOptions?.refresh !== true && this.toolsCache) return this.toolsCache;
    if (!this.capabilities?.tools) {
      this.toolsCache = [];
      return this.toolsCache;
    }
    this.toolsLoading ??= this.sdkClient
      // The SDK walks the pages, keeps the result for its `ttlMs` (a list_changed evicts it) and
      // drops tools whose x-mcp-header declarations are invalid.
      .listTools(undefined, { timeout: this.settings.requestTimeoutMs, cacheMode: 'use' })
      .then((page) => {
        this.toolsCache = page.tools;
        this.headerDefinitions.clear();
        for (const tool of page.tools) {
          if (JSON.stringify(tool.inputSchema).includes('"x-mcp-header"')) {
            this.headerDefinitions.set(tool.name, { name: tool.name, inputSchema: tool.inputSchema });
          }
        }
        return page.tools;
      })
      .catch((error: unknown) => {
        throw toClientError(error, this.scene('tools/list'));
      })
      .finally(() => {
        this.toolsLoading = undefined;
      });
    return this.toolsLoading;
  }

  callTool(
    toolName: string,
    args: Record<string, unknown> = {},
    callOptions: CallToolOptions = noCallOptions,
  ): Promise<CallToolResult> {
    return this.sendToolCall(toolName, args, callOptions).catch(async (error: unknown) => {
      const task = this.taskOf(error, toolName, callOptions);
      if (!task) throw toClientError(error, this.scene('tools/call', toolName, callOptions.signal));
      callOptions.onTask?.(task);
      return task.result(this.waitOptions(callOptions));
    });
  }

  async startTool(
    toolName: string,
    args: Record<string, unknown> = {},
    callOptions: CallToolOptions = noCallOptions,
  ): Promise<ToolStart> {
    try {
      return { result: await this.sendToolCall(toolName, args, callOptions) };
    } catch (error) {
      const task = this.taskOf(error, toolName, callOptions);
      if (!task) throw toClientError(error, this.scene('tools/call', toolName, callOptions.signal));
      callOptions.onTask?.(task);
      return { task };
    }
  }

  async getTask(taskId: string, tool = 'unknown'): Promise<ToolTask> {
    const task = new PolledToolTask(this.taskChannel(tool, noCallOptions), tool, {
      taskId,
      status: 'working',
    });
    await task.refresh();
    return task;
  }

  /** The one translation of the call options into the SDK's request options. */
  private requestOptions(callOptions: CallToolOptions, toolName?: string): RequestOptions {
    const { onProgress: defaultProgress, maxTotalTimeoutMs: defaultMaxTotal } = this.settings;
    if (
      callOptions.signal === undefined &&
      callOptions.timeoutMs === undefined &&
      callOptions.onProgress === undefined &&
      callOptions.resetTimeoutOnProgress === undefined &&
      callOptions.maxTotalTimeoutMs === undefined &&
      (defaultProgress === undefined || toolName === undefined) &&
      defaultMaxTotal === undefined
    ) {
      return this.defaultRequestOptions;
    }
    const result: RequestOptions = { timeout: callOptions.timeoutMs ?? this.settings.requestTimeoutMs };
    if (callOptions.signal) result.signal = callOptions.signal;
    const onProgress =
      callOptions.onProgress ??
      (defaultProgress === undefined || toolName === undefined
        ? undefined
        : (progress: Progress) => defaultProgress(toolName, progress));
    // A progress token is sent only with a progress callback (the SDK's rule); progress then
    // restarts the deadline unless the caller said not to: a tool that reports is alive.
    if (onProgress) {
      result.onprogress = onProgress;
      if (callOptions.resetTimeoutOnProgress !== false) result.resetTimeoutOnProgress = true;
    }
    const maxTotal = callOptions.maxTotalTimeoutMs ?? defaultMaxTotal;
    if (maxTotal !== undefined) result.maxTotalTimeout = maxTotal;
    return result;
  }

  private waitOptions(callOptions: CallToolOptions): TaskWaitOptions {
    return {
      ...(callOptions.signal ? { signal: callOptions.signal } : {}),
      ...(callOptions.onProgress ? { onProgress: callOptions.onProgress } : {}),
      ...(callOptions.maxTotalTimeoutMs === undefined
        ? {}
        : { maxTotalTimeoutMs: callOptions.maxTotalTimeoutMs }),
    };
  }

  /** Sends `tools/call`, traced when a tracer or meter provider is registered (`telemetry/`). */
  private sendToolCall(
    toolName: string,
    args: Record<string, unknown>,
    callOptions: CallToolOptions,
  ): Promise<CallToolResult> {
    const trace = this.telemetry.startToolCall(toolName, callOptions.traceContext);
    if (trace === undefined) return this.sendRouted(toolName, args, callOptions, undefined);
    this.sdkClient.watchRequestIds();
    return this.sendRouted(toolName, args, callOptions, trace).then(
      (result) => {
        trace.end(result);
        return result;
      },
      (error: unknown) => {
        // A task is an answer: the call itself went well.
        if (this.sdkClient.isTaskAnswer(error)) trace.end(undefined);
        else trace.fail(error);
        throw error;
      },
    );
  }

  /** Sends `tools/call` (through the call's own route when it has handlers of its own). */
  private sendRouted(
    toolName: string,
    args: Record<string, unknown>,
    callOptions: CallToolOptions,
    trace: RequestTrace | undefined,
  ): Promise<CallToolResult> {
    if (!callOptions.onElicitation && !callOptions.onSampling && !callOptions.onListRoots) {
      return this.sendOnce(toolName, args, this.requestOptions(callOptions, toolName), true, false, trace);
    }
    // A fresh arguments object: its identity links a 2025-era server request to this call.
    const routedArgs = { ...args };
    const route = this.router.begin(toolName, callOptions, routedArgs);
    const requestOptions = withCallRoute({ ...this.requestOptions(callOptions, toolName) }, route);
    return this.sendOnce(toolName, routedArgs, requestOptions, true, true, trace).finally(() =>
      this.router.end(route),
    );
  }

  private async sendOnce(
    toolName: string,
    args: Record<string, unknown>,
    requestOptions: RequestOptions,
    mayRetry: boolean,
    routed: boolean,
    trace: RequestTrace | undefined,
  ): Promise<CallToolResult> {
    // The trace context rides in `_meta`, merged with what the SDK or the direct lane adds there.
    const meta = trace?.meta;
    const params =
      meta === undefined
        ? { name: toolName, arguments: args }
        : { name: toolName, arguments: args, _meta: meta };
    const definition = this.era === 'modern' ? this.headerDefinitions.get(toolName) : undefined;
    try {
      if (definition === undefined) {
        // Nothing to mirror into headers (a 2025-era call, or a tool without x-mcp-header): the
        // direct lane (direct-tool-calls.ts), with a cheap shape check on any further leg (the
        // tool layer checks the output schema). A routed call keeps the SDK's funnel, whose
        // hooks link the server requests of a 2025-era call to it.
        return await (routed
          ? this.sdkClient.request({ method: 'tools/call', params }, callToolResultShape, requestOptions)
          : this.sdkClient.callToolDirect(params, requestOptions, callToolResultShape));
      }
      // The SDK mirrors x-mcp-header parameters into Mcp-Param-* headers from the definition; the
      // definition carries no outputSchema, so the result comes back as the server sent it (the
      // tool layer checks structured output itself, with the error that names the tool).
      return await this.sdkClient.callTool(params, { ...requestOptions, toolDefinition: definition });
    } catch (error) {
      if (!mayRetry || !(error instanceof ProtocolError) || error.code !== JsonRpcErrorCode.HeaderMismatch)
        throw error;
      // The tool's schema changed under us: read it again and retry once, as the spec says.
      await this.listTools({ refresh: true });
      return this.sendOnce(toolName, args, requestOptions, false, routed, trace);
    }
  }

  /** The task a call was answered with, as a handle that answers its input with the call's handlers. */
  private taskOf(error: unknown, toolName: string, callOptions: CallToolOptions): ToolTask | undefined {
    const created = this.sdkClient.takeTask(error);
    if (!created) return undefined;
    return new PolledToolTask(
      this.taskChannel(toolName, callOptions),
      toolName,
      toTaskState(created, this.name),
    );
  }

  private taskChannel(toolName: string, callOptions: CallToolOptions) {
    const routed = callOptions.onElicitation || callOptions.onSampling || callOptions.onListRoots;
    const requestOptions = { timeout: callOptions.timeoutMs ?? this.settings.requestTimeoutMs };
    return {
      server: this.name,
      request: (method: 'tasks/get' | 'tasks/update' | 'tasks/cancel', params: Record<string, unknown>) =>
        this.sdkClient.request({ method, params }, objectResult, requestOptions).catch((error: unknown) => {
          throw toClientError(error, this.scene(method, toolName));
        }),
      answer: (key: string, entry: Record<string, unknown>, signal: AbortSignal) => {
        const route = routed ? this.router.begin(toolName, callOptions, {}) : undefined;
        return this.sdkClient
          .answerInputRequest(key, entry, route, signal)
          .finally(() => route && this.router.end(route));
      },
    };
  }

  /** The SDK's options of a request: the shared defaults, or a copy carrying the parent trace context. */
  private sdkOptions(options: McpRequestOptions | undefined): RequestOptions {
    const traceContext = options?.traceContext;
    return traceContext === undefined
      ? this.defaultRequestOptions
      : withTraceContext({ ...this.defaultRequestOptions }, traceContext);
  }

  listResources(options?: McpRequestOptions): Promise<Resource[]> {
    return this.request(
      'resources/list',
      async () => (await this.sdkClient.listResources(undefined, this.sdkOptions(options))).resources,
    );
  }

  listResourceTemplates(options?: McpRequestOptions): Promise<ResourceTemplate[]> {
    return this.request(
      'resources/templates/list',
      async () =>
        (await this.sdkClient.listResourceTemplates(undefined, this.sdkOptions(options))).resourceTemplates,
    );
  }

  readResource(uri: string, options?: McpRequestOptions): Promise<ReadResourceResult> {
    return this.request('resources/read', () =>
      this.sdkClient.readResource({ uri }, this.sdkOptions(options)),
    );
  }

  subscribeResource(uri: string): Promise<void> {
    return this.request('resources/subscribe', async () => {
      if (this.era === 'legacy') {
        await this.sdkClient.subscribeResource({ uri }, this.defaultRequestOptions);
        return;
      }
      this.subscribedResources.add(uri);
      await this.listenForResources();
    });
  }

  unsubscribeResource(uri: string): Promise<void> {
    return this.request('resources/unsubscribe', async () => {
      if (this.era === 'legacy') {
        await this.sdkClient.unsubscribeResource({ uri }, this.defaultRequestOptions);
        return;
      }
      this.subscribedResources.delete(uri);
      await this.listenForResources();
    });
  }

  /** Modern: one `subscriptions/listen` stream carries the updates of every subscribed resource. */
  private async listenForResources(): Promise<void> {
    const previous = this.resourceSubscription;
    this.resourceSubscription = undefined;
    if (this.subscribedResources.size > 0) {
      const wanted = [...this.subscribedResources];
      const subscription = await this.sdkClient.listen(
        { resourceSubscriptions: wanted },
        { timeout: this.settings.requestTimeoutMs },
      );
      const honored = new Set(subscription.honoredFilter.resourceSubscriptions ?? []);
      const refused = wanted.filter((uri) => !honored.has(uri));
      if (refused.length > 0) {
        await subscription.close();
        for (const uri of refused) this.subscribedResources.delete(uri);
        // The stream before this one still carries the others.
        this.resourceSubscription = previous;
        throw new ClientError({
          code: ClientErrorCode.ServerError,
          message: `MCP server "${this.name}" did not agree to send updates for ${refused.join(', ')} (it acknowledged the subscription without them: it may not support resource subscriptions). Read the resource again when you need it.`,
          context: { server: this.name, refused },
        });
      }
      this.resourceSubscription = subscription;
    }
    await previous?.close();
  }

  listPrompts(options?: McpRequestOptions): Promise<Prompt[]> {
    return this.request(
      'prompts/list',
      async () => (await this.sdkClient.listPrompts(undefined, this.sdkOptions(options))).prompts,
    );
  }

  getPrompt(
    promptName: string,
    args?: Record<string, string>,
    options?: McpRequestOptions,
  ): Promise<GetPromptResult> {
    return this.request('prompts/get', () =>
      this.sdkClient.getPrompt(
        args === undefined ? { name: promptName } : { name: promptName, arguments: args },
        this.sdkOptions(options),
      ),
    );
  }

  complete(params: CompleteRequest['params'], options?: McpRequestOptions): Promise<CompleteResult> {
    return this.request('completion/complete', () =>
      this.sdkClient.complete(params, this.sdkOptions(options)),
    );
  }

  private skillsClient(): SkillsClient {
    this.skills ??= new SkillsClient(this.sdkClient);
    return this.skills;
  }

  listSkills(): Promise<Skill[]> {
    return this.request(
      'skills/list',
      async () => (await this.skillsClient().list(undefined, this.defaultRequestOptions)).skills,
    );
  }

  async readSkill(skill: Skill, ref?: string): Promise<SkillFile> {
    try {
      return await this.skillsClient().read(skill, ref, this.defaultRequestOptions);
    } catch (error) {
      if (error instanceof SkillVerificationError) {
        throw new ClientError({
          code: ClientErrorCode.SkillInvalid,
          message: this.settings.redactor.redact(
            `MCP server "${this.name}": skill file ${error.uri} failed verification (${error.reason}): ${error.message}. It was not loaded.`,
          ),
          context: {
            server: this.name,
            uri: error.uri,
            reason: error.reason,
            differences: error.differences,
          },
        });
      }
      throw toClientError(error, this.scene('resources/read'));
    }
  }

  setLoggingLevel(level: LoggingLevel): Promise<void> {
    return this.request('logging/setLevel', async () => {
      if (this.era === 'modern') {
        this.sdkClient.logLevel = level;
        return;
      }
      await this.sdkClient.setLoggingLevel(level, this.defaultRequestOptions);
    });
  }

  ping(): Promise<void> {
    return this.request('ping', async () => {
      if (this.era === 'modern') await this.sdkClient.discover(this.defaultRequestOptions);
      else await this.sdkClient.ping(this.defaultRequestOptions);
    });
  }

  notifyRootsChanged(): Promise<void> {
    return this.request('notifications/roots/list_changed', async () => {
      if (this.era === 'legacy') await this.sdkClient.sendRootsListChanged();
    });
  }

  onToolsChanged(listener: (tools: Tool[]) => void): () => void {
    this.toolListeners.add(listener);
    return () => this.toolListeners.delete(listener);
  }

  onResourcesChanged(listener: () => void): () => void {
    this.resourcesListeners.add(listener);
    return () => this.resourcesListeners.delete(listener);
  }

  onPromptsChanged(listener: () => void): () => void {
    this.promptsListeners.add(listener);
    return () => this.promptsListeners.delete(listener);
  }

  onResourceUpdated(listener: (uri: string) => void): () => void {
    this.resourceUpdateListeners.add(listener);
    return () => this.resourceUpdateListeners.delete(listener);
  }

  onClose(listener: (error: SwitchboardError) => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  stderrTail(): string[] {
    return this.handle.stderrTail();
  }

  async close(): Promise<void> {
    this.closing = true;
    if (this.debounce) clearTimeout(this.debounce);
    this.toolListeners.clear();
    this.closeListeners.clear();
    this.resourcesListeners.clear();
    this.promptsListeners.clear();
    this.resourceUpdateListeners.clear();
    await this.changeSubscription?.close().catch(() => {});
    await this.resourceSubscription?.close().catch(() => {});
    await this.sdkClient.close().catch(() => {});
    this.live = false;
  }
}
