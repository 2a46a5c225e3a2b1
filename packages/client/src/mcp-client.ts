/**
 * One connected MCP server: the SDK `Client` plus what users expect around it — an initialize
 * timeout that leaves no process behind, a cached tool list refreshed on `list_changed`, calls with
 * cancellation and progress, and errors that say which server failed and what to try.
 */

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type CallToolResult,
  type ClientCapabilities,
  type CompleteRequest,
  type CompleteResult,
  type CreateMessageRequest,
  CreateMessageRequestSchema,
  type CreateMessageResult,
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
  type GetPromptResult,
  type Implementation,
  ListRootsRequestSchema,
  type LoggingLevel,
  type LoggingMessageNotification,
  LoggingMessageNotificationSchema,
  type Progress,
  type Prompt,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
  ResourceUpdatedNotificationSchema,
  type Root,
  type ServerCapabilities,
  type Tool,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { type Logger, SwitchboardError, silentLogger } from '@switchboard/core';
import { z } from 'zod';
import { describeUrl, type ErrorScene, toClientError } from './client-error.js';
import { type ClientTransportHandle, createClientTransport } from './client-transport.js';
import { checkProtocolVersion, createProtocolVersionTransport } from './protocol-version-transport.js';
import { createRedactingLogger } from './redacting-logger.js';
import { collectSecrets, createRedactor, type Redactor } from './redactor.js';
import { authSecrets, type ClientAuthOptions } from './server-auth.js';
import { isServerEntry, type ServerEntry } from './server-entry.js';

/** Context given to sampling and elicitation handlers. */
export interface ServerRequestContext {
  /** The server asking. */
  server: string;
  /** Aborted when the server cancels its request. */
  signal: AbortSignal;
}

/** Answers `sampling/createMessage` (the server asks the client's model for a completion). */
export type SamplingHandler = (
  params: CreateMessageRequest['params'],
  context: ServerRequestContext,
) => Promise<CreateMessageResult> | CreateMessageResult;

/** Answers `elicitation/create` (the server asks the user for input). */
export type ElicitationHandler = (
  params: ElicitRequest['params'],
  context: ServerRequestContext,
) => Promise<ElicitResult> | ElicitResult;

/** The roots offered to servers: a list, or a function asked each time. */
export type RootsProvider = Root[] | (() => Root[] | Promise<Root[]>);

/** Options of {@link createMcpClient}. */
export interface McpClientOptions {
  /** How this client introduces itself. @default { name: 'switchboard', version: '0.0.0' } */
  clientInfo?: Implementation;
  /** Where logs go. @default silentLogger */
  logger?: Logger;
  /** Connect + `initialize` deadline. @default entry.timeouts.connectMs ?? 30000 */
  initializeTimeoutMs?: number;
  /** Default deadline of each request. @default entry.timeouts.callMs ?? 60000 */
  requestTimeoutMs?: number;
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
  /** Receives the server's log messages (`notifications/message`). */
  onLog?: (message: LoggingMessageNotification['params']) => void;
  /** Receives `notifications/resources/updated` for subscribed resources. */
  onResourceUpdated?: (uri: string) => void;
  /** More strings to keep out of logs and errors (the entry's env and header values always are). */
  secrets?: string[];
  /** OAuth of a remote server: token store and how a sign-in URL is opened (none by default: `NEEDS_AUTH`). */
  auth?: ClientAuthOptions;
  /**
   * Protocol version offered at `initialize`, for a server that misbehaves (or is slower) at the
   * latest one. The server may still answer with another version it supports.
   * @default entry.protocolVersion ?? the SDK's latest
   */
  protocolVersion?: string;
}

/** Per-call options of {@link McpClient.callTool}. */
export interface CallToolOptions {
  /** Aborts the call; the server receives `notifications/cancelled`. */
  signal?: AbortSignal;
  /** Deadline for an answer. @default the client's requestTimeoutMs */
  timeoutMs?: number;
  /** Receives progress notifications. */
  onProgress?: (progress: Progress) => void;
  /** Each progress notification restarts the deadline. @default false */
  resetTimeoutOnProgress?: boolean;
  /** Hard deadline even with progress. */
  maxTotalTimeoutMs?: number;
}

/** A connected MCP server. */
export interface McpClient {
  /** The server's name (as configured). */
  readonly name: string;
  /** The underlying SDK client, for anything not wrapped here. */
  readonly sdkClient: Client;
  /** How the server is reached. */
  readonly transportKind: 'stdio' | 'http' | 'sse' | 'ws' | 'custom';
  /** The protocol version the server chose in `initialize`. */
  readonly protocolVersion: string | undefined;
  /** What the server said about itself in `initialize`. */
  readonly serverInfo: Implementation | undefined;
  readonly capabilities: ServerCapabilities | undefined;
  readonly instructions: string | undefined;
  /** False once the connection closed. */
  readonly connected: boolean;
  /** Process id of a stdio server (undefined for remote servers). */
  readonly pid: number | undefined;
  /** The server's tools; cached, refreshed on `list_changed` or when `refresh` is set. */
  listTools(options?: { refresh?: boolean }): Promise<Tool[]>;
  /** Calls a tool by its name on the server. */
  callTool(name: string, args?: Record<string, unknown>, options?: CallToolOptions): Promise<CallToolResult>;
  listResources(): Promise<Resource[]>;
  listResourceTemplates(): Promise<ResourceTemplate[]>;
  readResource(uri: string): Promise<ReadResourceResult>;
  subscribeResource(uri: string): Promise<void>;
  unsubscribeResource(uri: string): Promise<void>;
  listPrompts(): Promise<Prompt[]>;
  getPrompt(name: string, args?: Record<string, string>): Promise<GetPromptResult>;
  complete(params: CompleteRequest['params']): Promise<CompleteResult>;
  setLoggingLevel(level: LoggingLevel): Promise<void>;
  ping(): Promise<void>;
  /** Tells the server the roots changed (when roots were given). */
  notifyRootsChanged(): Promise<void>;
  /** Called with the new list after the server's tools changed. Returns the unsubscribe function. */
  onToolsChanged(listener: (tools: Tool[]) => void): () => void;
  /** Called once when the connection closes (not after `close()`). Returns the unsubscribe function. */
  onClose(listener: (error: SwitchboardError) => void): () => void;
  /** The last lines the server wrote to stderr (stdio only), redacted. */
  stderrTail(): string[];
  /** Ends the session and stops the server process. */
  close(): Promise<void>;
}

// The SDK validates every result with its full zod schema; a cheap shape check is enough here
// because results are wrapped (and checked) by core afterwards. This is on the hot path.
const callToolResultShape = z.custom<CallToolResult>(
  (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
  { message: 'tools/call result is not an object' },
);

const defaultClientInfo: Implementation = { name: 'switchboard', version: '0.0.0' };

/** Connects to one MCP server (a config entry or a ready SDK transport) and initializes the session. */
export async function createMcpClient(
  name: string,
  source: ServerEntry | Transport,
  options: McpClientOptions = {},
): Promise<McpClient> {
  const logger = options.logger ?? silentLogger;
  const entry = isServerEntry(source) ? source : undefined;
  const redactor = createRedactor([
    ...(entry ? collectSecrets(entry) : []),
    ...(entry ? authSecrets(entry) : []),
    ...(options.secrets ?? []),
  ]);
  const initializeTimeoutMs = options.initializeTimeoutMs ?? entry?.timeouts?.connectMs ?? 30_000;
  const requestTimeoutMs = options.requestTimeoutMs ?? entry?.timeouts?.callMs ?? 60_000;
  const target = entry
    ? entry.command
      ? `"${entry.command}"`
      : describeUrl(entry.url)
    : 'the given transport';

  const offeredVersion = options.protocolVersion ?? entry?.protocolVersion;
  // Checked before anything is spawned: a typo here should cost nothing.
  if (offeredVersion !== undefined) checkProtocolVersion(String(offeredVersion), `MCP server "${name}"`);
  const redactingLogger = createRedactingLogger(logger, redactor);
  let handle: ClientTransportHandle;
  if (entry) {
    try {
      handle = createClientTransport(entry, {
        name,
        logger: redactingLogger,
        redactor,
        ...(options.auth ? { auth: options.auth } : {}),
      });
    } catch (error) {
      throw toClientError(error, { server: name, operation: 'initialize', redactor });
    }
  } else {
    handle = { transport: source as Transport, kind: 'http', stderrTail: () => [], pid: () => undefined };
  }
  return tryConnect(name, handle, options, {
    logger: redactingLogger,
    redactor,
    initializeTimeoutMs,
    requestTimeoutMs,
    target,
    custom: entry === undefined,
    offeredVersion,
  });
}

interface ConnectSettings {
  logger: Logger;
  redactor: Redactor;
  initializeTimeoutMs: number;
  requestTimeoutMs: number;
  target: string;
  custom: boolean;
  offeredVersion: string | undefined;
}

async function tryConnect(
  name: string,
  handle: ClientTransportHandle,
  options: McpClientOptions,
  settings: ConnectSettings,
): Promise<McpClient> {
  const { logger, redactor } = settings;
  const capabilities: ClientCapabilities = {};
  if (options.roots) capabilities.roots = { listChanged: true };
  if (options.sampling) capabilities.sampling = {};
  if (options.elicitation) {
    capabilities.elicitation = {
      form: options.applyElicitationDefaults === false ? {} : { applyDefaults: true },
    };
  }
  const sdk = new Client(options.clientInfo ?? defaultClientInfo, { capabilities });
  const context = (signal: AbortSignal): ServerRequestContext => ({ server: name, signal });
  if (options.roots) {
    const roots = options.roots;
    sdk.setRequestHandler(ListRootsRequestSchema, async () => ({
      roots: typeof roots === 'function' ? await roots() : roots,
    }));
  }
  if (options.sampling) {
    const sampling = options.sampling;
    sdk.setRequestHandler(CreateMessageRequestSchema, (request, extra) =>
      sampling(request.params, context(extra.signal)),
    );
  }
  if (options.elicitation) {
    const elicitation = options.elicitation;
    sdk.setRequestHandler(ElicitRequestSchema, (request, extra) =>
      elicitation(request.params, context(extra.signal)),
    );
  }
  sdk.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    options.onLog?.(notification.params);
  });
  sdk.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
    options.onResourceUpdated?.(notification.params.uri);
  });

  // Transport-level problems (non-JSON lines on stdout, dropped streams) are logged and kept for the
  // error message; the SDK itself only reports them through `onerror`.
  const transportProblems: string[] = [];
  sdk.onerror = (error) => {
    const message = redactor.redact(error.message);
    if (transportProblems.length < 5) transportProblems.push(message);
    logger.debug({ server: name }, `transport: ${message}`);
  };

  const scene = (operation: string, tool?: string) => ({
    server: name,
    operation,
    ...(tool === undefined ? {} : { tool }),
    stderr: handle.stderrTail(),
    redactor,
    target: settings.target,
  });

  const transport = createProtocolVersionTransport(handle.transport, settings.offeredVersion);
  try {
    await sdk.connect(transport, {
      timeout: settings.initializeTimeoutMs,
      maxTotalTimeout: settings.initializeTimeoutMs,
    });
  } catch (error) {
    // Leave nothing running: the SDK closes on some failures but not all. A process that never
    // spawned has nothing to stop, so its close is not awaited (it would only wait out timeouts).
    const closing = sdk.close().catch(() => {});
    if (!(SwitchboardError.isInstance(error) && error.code === 'SPAWN_FAILED')) await closing;
    throw explainInitializeFailure(error, name, handle, settings, transportProblems, scene('initialize'));
  }
  logger.info({ server: name, transport: handle.kind }, 'connected');

  let connected = true;
  let closing = false;
  let toolsCache: Tool[] | undefined;
  let toolsLoading: Promise<Tool[]> | undefined;
  let debounce: NodeJS.Timeout | undefined;
  const toolListeners = new Set<(tools: Tool[]) => void>();
  const closeListeners = new Set<(error: SwitchboardError) => void>();

  const loadTools = async (): Promise<Tool[]> => {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await sdk.listTools(cursor === undefined ? {} : { cursor }, {
        timeout: settings.requestTimeoutMs,
      });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  };
  const listTools = async (refresh = false): Promise<Tool[]> => {
    if (!refresh && toolsCache) return toolsCache;
    if (!sdk.getServerCapabilities()?.tools) {
      toolsCache = [];
      return toolsCache;
    }
    if (!toolsLoading) {
      toolsLoading = loadTools()
        .then((tools) => {
          toolsCache = tools;
          return tools;
        })
        .catch((error) => {
          throw toClientError(error, scene('tools/list'));
        })
        .finally(() => {
          toolsLoading = undefined;
        });
    }
    return toolsLoading;
  };

  sdk.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    if (debounce) clearTimeout(debounce);
    debounce = setTimeout(() => {
      debounce = undefined;
      listTools(true).then(
        (tools) => {
          for (const listener of toolListeners) listener(tools);
        },
        (error: unknown) =>
          logger.warn({ server: name }, `refreshing tools failed: ${(error as Error).message}`),
      );
    }, options.listChangedDebounceMs ?? 100);
    debounce.unref?.();
  });

  sdk.onclose = () => {
    if (!connected) return;
    connected = false;
    if (debounce) clearTimeout(debounce);
    if (closing) return;
    const detail =
      transportProblems.length > 0 ? ` Last transport problem: ${transportProblems.at(-1)}.` : '';
    const error = new SwitchboardError({
      code: 'CONNECTION_CLOSED',
      message: redactor.redact(
        `MCP server "${name}" closed the connection unexpectedly.${detail}${formatStderr(handle.stderrTail())}`,
      ),
      context: { server: name },
    });
    logger.warn({ server: name }, error.message);
    for (const listener of closeListeners) listener(error);
  };

  const request = <T>(operation: string, run: () => Promise<T>): Promise<T> =>
    run().catch((error: unknown) => {
      throw toClientError(error, scene(operation));
    });
  const requestOptions = { timeout: settings.requestTimeoutMs };
  // Shared by every call without options: nothing is built per call on the common path.
  const defaultCallOptions = Object.freeze({ timeout: settings.requestTimeoutMs });

  const client: McpClient = {
    name,
    sdkClient: sdk,
    // A URL entry starts as Streamable HTTP; the transport may have fallen back to legacy SSE.
    transportKind: settings.custom
      ? 'custom'
      : (handle.transport as { usesSseFallback?: boolean }).usesSseFallback === true
        ? 'sse'
        : handle.kind,
    protocolVersion: transport.negotiatedProtocolVersion,
    serverInfo: sdk.getServerVersion(),
    capabilities: sdk.getServerCapabilities(),
    instructions: sdk.getInstructions(),
    get connected() {
      return connected;
    },
    get pid() {
      return handle.pid();
    },
    listTools: (listOptions) => listTools(listOptions?.refresh === true),
    callTool(toolName, args = {}, callOptions = {}) {
      return sdk
        .request(
          { method: 'tools/call', params: { name: toolName, arguments: args } },
          callToolResultShape,
          toRequestOptions(callOptions, defaultCallOptions),
        )
        .catch((error: unknown) => {
          throw toClientError(error, scene('tools/call', toolName));
        }) as Promise<CallToolResult>;
    },
    listResources: () =>
      request('resources/list', async () => {
        const resources: Resource[] = [];
        let cursor: string | undefined;
        do {
          const page = await sdk.listResources(cursor === undefined ? {} : { cursor }, requestOptions);
          resources.push(...page.resources);
          cursor = page.nextCursor;
        } while (cursor);
        return resources;
      }),
    listResourceTemplates: () =>
      request('resources/templates/list', async () => {
        const templates: ResourceTemplate[] = [];
        let cursor: string | undefined;
        do {
          const page = await sdk.listResourceTemplates(
            cursor === undefined ? {} : { cursor },
            requestOptions,
          );
          templates.push(...page.resourceTemplates);
          cursor = page.nextCursor;
        } while (cursor);
        return templates;
      }),
    readResource: (uri) => request('resources/read', () => sdk.readResource({ uri }, requestOptions)),
    subscribeResource: (uri) =>
      request('resources/subscribe', async () => {
        await sdk.subscribeResource({ uri }, requestOptions);
      }),
    unsubscribeResource: (uri) =>
      request('resources/unsubscribe', async () => {
        await sdk.unsubscribeResource({ uri }, requestOptions);
      }),
    listPrompts: () =>
      request('prompts/list', async () => {
        const prompts: Prompt[] = [];
        let cursor: string | undefined;
        do {
          const page = await sdk.listPrompts(cursor === undefined ? {} : { cursor }, requestOptions);
          prompts.push(...page.prompts);
          cursor = page.nextCursor;
        } while (cursor);
        return prompts;
      }),
    getPrompt: (promptName, args) =>
      request('prompts/get', () =>
        sdk.getPrompt(
          args === undefined ? { name: promptName } : { name: promptName, arguments: args },
          requestOptions,
        ),
      ),
    complete: (params) => request('completion/complete', () => sdk.complete(params, requestOptions)),
    setLoggingLevel: (level) =>
      request('logging/setLevel', async () => {
        await sdk.setLoggingLevel(level, requestOptions);
      }),
    ping: () =>
      request('ping', async () => {
        await sdk.ping(requestOptions);
      }),
    notifyRootsChanged: () => request('notifications/roots/list_changed', () => sdk.sendRootsListChanged()),
    onToolsChanged(listener) {
      toolListeners.add(listener);
      return () => toolListeners.delete(listener);
    },
    onClose(listener) {
      closeListeners.add(listener);
      return () => closeListeners.delete(listener);
    },
    stderrTail: () => handle.stderrTail(),
    async close() {
      closing = true;
      if (debounce) clearTimeout(debounce);
      toolListeners.clear();
      closeListeners.clear();
      await sdk.close().catch(() => {});
      connected = false;
    },
  };
  return client;
}

function toRequestOptions(options: CallToolOptions, defaults: { timeout: number }): RequestOptions {
  if (
    options.signal === undefined &&
    options.timeoutMs === undefined &&
    options.onProgress === undefined &&
    options.resetTimeoutOnProgress === undefined &&
    options.maxTotalTimeoutMs === undefined
  ) {
    return defaults;
  }
  const result: RequestOptions = { timeout: options.timeoutMs ?? defaults.timeout };
  if (options.signal) result.signal = options.signal;
  if (options.onProgress) result.onprogress = options.onProgress;
  if (options.resetTimeoutOnProgress) result.resetTimeoutOnProgress = true;
  if (options.maxTotalTimeoutMs !== undefined) result.maxTotalTimeout = options.maxTotalTimeoutMs;
  return result;
}

function formatStderr(lines: string[]): string {
  const shown = lines.filter((line) => line.trim().length > 0).slice(-5);
  return shown.length > 0 ? ` Its stderr ended with:\n  ${shown.join('\n  ')}` : '';
}

function explainInitializeFailure(
  error: unknown,
  name: string,
  handle: ClientTransportHandle,
  settings: ConnectSettings,
  transportProblems: string[],
  scene: ErrorScene,
): SwitchboardError {
  const base = toClientError(error, scene);
  const garbage =
    transportProblems.length > 0
      ? ` It wrote output that is not JSON-RPC (${transportProblems[0]}): a stdio server must write only protocol messages to stdout and send logs to stderr.`
      : '';
  if (base.code === 'TIMEOUT') {
    const hint =
      handle.kind === 'stdio'
        ? `Run ${settings.target} by hand to check it is an MCP server speaking stdio, or raise timeouts.connectMs.`
        : `Check ${settings.target} is an MCP endpoint, or raise timeouts.connectMs.`;
    return new SwitchboardError({
      code: 'TIMEOUT',
      message: settings.redactor.redact(
        `MCP server "${name}" did not answer initialize within ${settings.initializeTimeoutMs} ms.${garbage} ${hint}${formatStderr(handle.stderrTail())}`,
      ),
      context: { ...base.context, timeoutMs: settings.initializeTimeoutMs },
      cause: base,
    });
  }
  if (base.code === 'CONNECTION_CLOSED') {
    return new SwitchboardError({
      code: 'CONNECTION_FAILED',
      message: settings.redactor.redact(
        `MCP server "${name}" (${settings.target}) exited or closed the connection before answering initialize.${garbage}${formatStderr(handle.stderrTail())}`,
      ),
      context: base.context,
      cause: base,
    });
  }
  return base;
}
