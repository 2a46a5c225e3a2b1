/**
 * `createMcpServer`: tools (from `defineTool` or a core `ToolRegistry`), resources, resource
 * templates, prompts, completion and logging, served by the official SDK.
 *
 * Built on the SDK's low-level `Server`, not `McpServer`: `McpServer` owns its tool table and
 * converts zod itself, while we serve a live `ToolRegistry` (tools come and go at run time, from
 * many upstream servers in gateway mode), validate with core's validator so that errors carry
 * schema context, and need one protocol instance per session sharing one set of handlers.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import type {
  CallToolResult,
  GetPromptResult,
  JSONRPCMessage,
  LoggingLevel,
  MessageExtraInfo,
  ReadResourceResult,
  ServerCapabilities,
  Tool,
} from '@modelcontextprotocol/sdk/types.js';
import {
  type CallToolRequestSchema,
  CompleteRequestSchema,
  CreateMessageResultSchema,
  ElicitResultSchema,
  ErrorCode,
  GetPromptRequestSchema,
  InitializeRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  LoggingLevelSchema,
  McpError,
  PingRequestSchema,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type {
  ApprovalMode,
  ApprovalPolicy,
  ArgumentValidator,
  Logger,
  RegisteredTool,
  ToolRegistry,
} from '@switchboard/core';
import {
  createApprovalPolicy,
  createArgumentValidator,
  createToolRegistry,
  SwitchboardError,
  silentLogger,
} from '@switchboard/core';
import { z } from 'zod';
import { CallAbort, CallSignalCarrier } from './call-abort.js';
import type { DefinedTool, ToolContext, ToolReturnValue } from './define-tool.js';
import type { PromptDefinition } from './prompt-definition.js';
import type {
  ResourceDefinition,
  ResourceReadValue,
  ResourceTemplateDefinition,
} from './resource-definition.js';

/** The registry group local tools are registered under. */
export const localToolServer = 'local';

/** Options of {@link createMcpServer}. */
export interface McpServerOptions {
  /** Server name sent in `initialize`. */
  name: string;
  /** Server version sent in `initialize`. */
  version: string;
  /** Instructions for the model, sent in `initialize`. */
  instructions?: string;
  /** Tools made with `defineTool`. */
  tools?: DefinedTool[];
  /** A live registry to serve (tools added or removed later are announced with `list_changed`). */
  registry?: ToolRegistry;
  resources?: ResourceDefinition[];
  resourceTemplates?: ResourceTemplateDefinition[];
  prompts?: PromptDefinition[];
  /**
   * Approval policy deciding which registry tools may be served: `deny` hides a tool, `ask` hides
   * it unless `allowApprovalTools` (a person cannot approve over MCP). @default every tool is served
   */
  approval?: ApprovalPolicy | ApprovalMode;
  /** Serve tools the policy says need approval (never advertised `readOnlyHint: true`). @default false */
  allowApprovalTools?: boolean;
  /** Argument validator (core's). @default createArgumentValidator() */
  validator?: ArgumentValidator;
  /** Where the server logs (never stdout). @default silentLogger */
  logger?: Logger;
  /** Put stack traces of failing tools into results. @default false */
  debug?: boolean;
  /**
   * Called for every new session (and the stateless endpoint) before it connects, after the
   * server's own handlers: the place to add capabilities and handlers of one's own (the gateway
   * serves upstream resources and prompts this way).
   */
  extendSession?: (protocol: Server, info: { stateless: boolean }) => void;
}

/** One protocol endpoint (an SDK `Server`) of a {@link McpServer}: a session, or the shared stateless one. */
export interface McpSession {
  /** The SDK protocol object (connect it to a transport). */
  readonly protocol: Server;
  /** Connects the session to a transport. */
  connect(transport: Transport): Promise<void>;
  /** Closes the session and its transport. */
  close(): Promise<void>;
}

/**
 * Internal: the session's fast lane for the hot methods (`tools/call`, `tools/list`, `ping`). It
 * answers them without the SDK protocol layer, whose per-message schema parsing costs several
 * times the call itself; anything unusual (bad params, task requests) goes the SDK way.
 */
export const fastLaneKey = Symbol.for('switchboard.server.fastLane');

/** Sends a message on the session's transport (notifications name the request they belong to). */
export type FastLaneSend = (message: JSONRPCMessage, options?: TransportSendOptions) => Promise<void>;

/**
 * A fast-lane answer: the response itself when the work finished synchronously (no promise to
 * wait for), else a promise of it (`undefined` when the call was cancelled).
 */
export type FastLaneAnswer = JSONRPCMessage | Promise<JSONRPCMessage | undefined>;

/** Handles a request in the fast lane; `undefined` when the SDK path must take it. */
export interface FastLane {
  handle(
    message: { id: string | number; method: string; params?: Record<string, unknown> },
    send: FastLaneSend,
    extra?: MessageExtraInfo,
  ): FastLaneAnswer | undefined;
  /** Aborts a fast-lane call (from `notifications/cancelled`); false when it is not one. */
  cancel(requestId: string | number, reason: unknown): boolean;
}

/** Wraps a transport so the session's fast lane sees each message first. */
export function withFastLane(transport: Transport, lane: FastLane): Transport {
  const wrapper: Transport = {
    start: () => transport.start(),
    close: () => transport.close(),
    send: (message, options) => transport.send(message, options),
  };
  const send: FastLaneSend = (message, options) => transport.send(message, options);
  transport.onclose = () => wrapper.onclose?.();
  transport.onerror = (error) => wrapper.onerror?.(error);
  transport.onmessage = (message, extra) => {
    if ('method' in message) {
      if ('id' in message) {
        const answer = lane.handle(message as never, send, extra);
        if (answer !== undefined) {
          // Sent a turn later even when ready now: SDK transports expect answers after onmessage returns.
          Promise.resolve(answer).then(
            (response) => {
              if (response !== undefined) return transport.send(response, { relatedRequestId: message.id });
            },
            (error: unknown) => wrapper.onerror?.(error as Error),
          );
          return;
        }
      } else if (message.method === 'notifications/cancelled') {
        const params = message.params as { requestId?: string | number; reason?: unknown } | undefined;
        if (params?.requestId !== undefined && lane.cancel(params.requestId, params.reason)) return;
      }
    }
    wrapper.onmessage?.(message, extra);
  };
  Object.defineProperty(wrapper, 'sessionId', { get: () => transport.sessionId });
  if (transport.setProtocolVersion) {
    wrapper.setProtocolVersion = (version) => transport.setProtocolVersion?.(version);
  }
  return wrapper;
}

/** Options of {@link McpServer.createSession}. */
export interface McpSessionOptions {
  /**
   * Stateless sessions are shared by unrelated clients: list-changed and resource-updated
   * notifications are not sent on them (they have no channel to a client). @default false
   */
  stateless?: boolean;
}

/** Options of {@link McpServer.callTool}. */
export interface CallToolOptions {
  signal?: AbortSignal;
}

/** A Switchboard MCP server: shared definitions plus any number of protocol sessions. */
export interface McpServer {
  readonly name: string;
  readonly version: string;
  /** The registry of served tools (local tools are under server `local`). */
  readonly registry: ToolRegistry;
  readonly logger: Logger;
  /** Adds (or replaces) a tool; connected clients get `notifications/tools/list_changed`. */
  addTool(tool: DefinedTool): void;
  /** Removes a tool by name; returns whether it existed. */
  removeTool(name: string): boolean;
  /** The tools as `tools/list` shows them. */
  listTools(): Tool[];
  /** Whether this server would serve `tool` (its approval policy and `allowApprovalTools` allow it). */
  isServed(tool: RegisteredTool): boolean;
  /** Calls a tool as `tools/call` would (validation, errors as `isError` results). */
  callTool(name: string, args: unknown, options?: CallToolOptions): Promise<CallToolResult>;
  /** Tells subscribed clients that a resource changed. */
  notifyResourceUpdated(uri: string): Promise<void>;
  /** Sends a log message to every connected session (each filtered by the level its client set). */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void>;
  /** Creates a protocol session; connect it to a transport. */
  createSession(options?: McpSessionOptions): McpSession;
  /** Connects a new session to a transport (e.g. an SDK transport or an in-memory pair). */
  connect(transport: Transport): Promise<McpSession>;
  /** Number of open sessions. */
  readonly sessionCount: number;
  /** Extra facts for HTTP `/health` (set in gateway mode). */
  health?: () => Record<string, unknown>;
  /** Closes every session. */
  close(): Promise<void>;
}

const loggingLevels = LoggingLevelSchema.options;

interface SessionState {
  protocol: Server;
  stateless: boolean;
  logLevel: LoggingLevel | undefined;
  subscriptions: Set<string>;
  initialized: boolean;
}

/** A lenient request schema: only the method is checked by the SDK; params are checked here, to answer -32602. */
export function lenient<M extends string>(method: M) {
  return z.looseObject({ method: z.literal(method) });
}

function invalidParams(method: string, error: z.ZodError): McpError {
  const problems = error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : 'params'}: ${issue.message}`)
    .join('; ');
  return new McpError(ErrorCode.InvalidParams, `Invalid params for "${method}": ${problems}`);
}

/** Parses a request's params with `schema`; a failure becomes a -32602 error naming the method. */
export function parseParams<T extends z.ZodType>(schema: T, request: unknown, method: string): z.output<T> {
  const result = schema.safeParse(request);
  if (!result.success) throw invalidParams(method, result.error);
  return result.data;
}

/** Execute options of a registry tool: the call's signal (made only if read) and the context. */
class ToolExecuteOptions extends CallSignalCarrier {
  readonly toolContext: ToolContext | undefined;
  [key: string]: unknown;

  constructor(abort: CallAbort, toolContext: ToolContext | undefined) {
    super(abort);
    this.toolContext = toolContext;
  }
}

/**
 * The context of a fast-lane tool call. A class, not an object literal: a literal with a
 * `signal` getter costs more than the whole call of a simple tool. Its channels are own arrow
 * functions, so a tool may destructure them.
 */
class LaneToolContext extends CallSignalCarrier implements ToolContext {
  readonly requestId: string | number;
  sessionId?: string;
  readonly progress: ToolContext['progress'];
  readonly log: ToolContext['log'];
  readonly sample: ToolContext['sample'];
  readonly elicit: ToolContext['elicit'];
  readonly closeResponseStream: () => void;

  constructor(
    abort: CallAbort,
    id: string | number,
    progressToken: string | number | undefined,
    send: FastLaneSend,
    state: SessionState,
    extra: MessageExtraInfo | undefined,
  ) {
    super(abort);
    this.requestId = id;
    const sessionId = state.protocol.transport?.sessionId;
    if (sessionId !== undefined) this.sessionId = sessionId;
    const related = { relatedRequestId: id };
    this.progress = async (progress, total, progressMessage) => {
      if (progressToken === undefined || abort.aborted) return;
      await send(
        {
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: {
            progressToken,
            progress,
            ...(total !== undefined ? { total } : {}),
            ...(progressMessage !== undefined ? { message: progressMessage } : {}),
          },
        },
        related,
      );
    };
    this.log = async (level, data, loggerName) => {
      if (abort.aborted) return;
      if (
        state.logLevel !== undefined &&
        loggingLevels.indexOf(level) < loggingLevels.indexOf(state.logLevel)
      ) {
        return;
      }
      await send(
        {
          jsonrpc: '2.0',
          method: 'notifications/message',
          params: { level, data, ...(loggerName !== undefined ? { logger: loggerName } : {}) },
        },
        related,
      );
    };
    this.sample = (requestParams) =>
      state.protocol.request(
        { method: 'sampling/createMessage', params: requestParams },
        CreateMessageResultSchema,
        { relatedRequestId: id, signal: abort.signal },
      ) as never;
    this.elicit = (requestParams) =>
      state.protocol.request({ method: 'elicitation/create', params: requestParams }, ElicitResultSchema, {
        relatedRequestId: id,
        signal: abort.signal,
      }) as never;
    this.closeResponseStream = () => extra?.closeSSEStream?.();
  }
}

const isPromiseLike = (value: unknown): value is PromiseLike<unknown> =>
  typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';

const isCallToolResult = (value: unknown): value is CallToolResult =>
  typeof value === 'object' && value !== null && Array.isArray((value as { content?: unknown }).content);

/** Turns whatever a tool returned into a `CallToolResult`. */
export function toCallToolResult(value: ToolReturnValue, structured: boolean): CallToolResult {
  if (isCallToolResult(value)) return value;
  if (value === undefined) return { content: [] };
  if (typeof value === 'string') return { content: [{ type: 'text', text: value }] };
  const text = JSON.stringify(value) ?? String(value);
  const result: CallToolResult = { content: [{ type: 'text', text }] };
  if (structured && typeof value === 'object' && value !== null && !Array.isArray(value)) {
    result.structuredContent = value as Record<string, unknown>;
  }
  return result;
}

/** An `isError` result for a failure: the message, plus the stack only in debug mode. */
export function toErrorResult(error: unknown, debug: boolean): CallToolResult {
  const message = error instanceof Error ? error.message : String(error);
  const text = debug && error instanceof Error && error.stack ? error.stack : message;
  return { isError: true, content: [{ type: 'text', text: text || 'The tool failed without a message.' }] };
}

function toReadResult(
  uri: string,
  mimeType: string | undefined,
  value: ResourceReadValue,
): ReadResourceResult {
  if (typeof value === 'string') {
    return { contents: [{ uri, text: value, ...(mimeType ? { mimeType } : {}) }] };
  }
  if (value instanceof Uint8Array) {
    return {
      contents: [{ uri, blob: Buffer.from(value).toString('base64'), ...(mimeType ? { mimeType } : {}) }],
    };
  }
  return value;
}

const noopContext = (signal: AbortSignal): ToolContext => ({
  signal,
  progress: async () => {},
  log: async () => {},
  sample: async () => {
    throw new SwitchboardError({ code: 'UNSUPPORTED', message: 'Sampling needs an MCP client session.' });
  },
  elicit: async () => {
    throw new SwitchboardError({ code: 'UNSUPPORTED', message: 'Elicitation needs an MCP client session.' });
  },
  closeResponseStream: () => {},
  requestId: 0,
});

/** Creates an MCP server from tools, a registry, resources and prompts. */
export function createMcpServer(options: McpServerOptions): McpServer {
  if (typeof options?.name !== 'string' || typeof options.version !== 'string') {
    throw new SwitchboardError({
      code: 'INVALID_ARGUMENT',
      message: 'createMcpServer: pass { name, version } (strings) so clients can identify the server.',
    });
  }
  const logger = options.logger ?? silentLogger;
  const debug = options.debug ?? false;
  const registry = options.registry ?? createToolRegistry({ logger });
  const validator = options.validator ?? createArgumentValidator();
  const policy: ApprovalPolicy | undefined =
    options.approval === undefined
      ? undefined
      : typeof options.approval === 'object'
        ? options.approval
        : createApprovalPolicy({ mode: options.approval });
  const allowApprovalTools = options.allowApprovalTools ?? false;
  const resources = new Map((options.resources ?? []).map((resource) => [resource.uri, resource]));
  const templates = (options.resourceTemplates ?? []).map((definition) => ({
    definition,
    template: new UriTemplate(definition.uriTemplate),
  }));
  const prompts = new Map((options.prompts ?? []).map((prompt) => [prompt.name, prompt]));
  const sessions = new Set<SessionState>();

  // The registry holds a wrapper per local tool; runTool calls the tool itself through this map,
  // so that a tool that answers synchronously is answered without a promise.
  const localTools = new WeakMap<NonNullable<RegisteredTool['execute']>, DefinedTool>();

  // tools/list is answered from a cache rebuilt only when the registry changes.
  let listCache: Tool[] | undefined;
  let exposedCache: Map<string, RegisteredTool> | undefined;

  function exposure(tool: RegisteredTool): { exposed: boolean; needsApproval: boolean } {
    if (policy === undefined) return { exposed: true, needsApproval: false };
    const { decision } = policy.decide({
      name: tool.name,
      server: tool.server,
      originalName: tool.originalName,
      ...(tool.annotations ? { annotations: tool.annotations } : {}),
    });
    if (decision === 'deny') return { exposed: false, needsApproval: false };
    if (decision === 'ask') return { exposed: allowApprovalTools, needsApproval: true };
    return { exposed: true, needsApproval: false };
  }

  function rebuild(): void {
    const list: Tool[] = [];
    const exposed = new Map<string, RegisteredTool>();
    for (const tool of registry.list()) {
      const { exposed: visible, needsApproval } = exposure(tool);
      if (!visible) continue;
      exposed.set(tool.name, tool);
      const listed: Tool = {
        name: tool.name,
        description: tool.description,
        inputSchema: tool.inputSchema as Tool['inputSchema'],
      };
      if (tool.title !== undefined) listed.title = tool.title;
      if (tool.outputSchema !== undefined) listed.outputSchema = tool.outputSchema as Tool['outputSchema'];
      if (tool.annotations !== undefined) {
        listed.annotations = needsApproval
          ? { ...tool.annotations, readOnlyHint: false }
          : (tool.annotations as Tool['annotations']);
      }
      list.push(listed);
    }
    listCache = list;
    exposedCache = exposed;
  }

  function exposedTools(): Map<string, RegisteredTool> {
    if (exposedCache === undefined) rebuild();
    return exposedCache as Map<string, RegisteredTool>;
  }

  registry.subscribe(() => {
    listCache = undefined;
    exposedCache = undefined;
    scheduleListChanged();
  });

  // Many registry events arrive together (a server's tools replaced): announce once per tick.
  let listChangedScheduled = false;
  function scheduleListChanged(): void {
    if (listChangedScheduled) return;
    listChangedScheduled = true;
    queueMicrotask(() => {
      listChangedScheduled = false;
      for (const session of sessions) {
        if (session.stateless || !session.initialized) continue;
        session.protocol.sendToolListChanged().catch((error: unknown) => {
          logger.debug({ error: String(error) }, 'could not send tools/list_changed');
        });
      }
    });
  }

  function registerLocal(tool: DefinedTool): void {
    const structured = tool.outputSchema !== undefined;
    const execute: NonNullable<RegisteredTool['execute']> = async (args, executeOptions) => {
      const context =
        (executeOptions?.toolContext as ToolContext | undefined) ??
        noopContext(executeOptions?.signal ?? new AbortController().signal);
      const parsed = tool.parse ? (tool.parse(args) as Record<string, unknown>) : args;
      return toCallToolResult(await tool.execute(parsed, context), structured);
    };
    localTools.set(execute, tool);
    registry.register({
      server: localToolServer,
      name: tool.name,
      publicName: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema,
      ...(tool.title !== undefined ? { title: tool.title } : {}),
      ...(tool.outputSchema !== undefined ? { outputSchema: tool.outputSchema } : {}),
      ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
      execute,
    });
  }
  for (const tool of options.tools ?? []) registerLocal(tool);

  /**
   * Runs a tool call: the result itself when the tool answered synchronously, else a promise.
   * Throws (or rejects) only for an unknown tool or a cancelled call.
   */
  function runTool(
    name: string,
    args: unknown,
    abort: CallAbort,
    context: ToolContext | undefined,
  ): CallToolResult | Promise<CallToolResult> {
    const tool = exposedTools().get(name);
    if (tool === undefined) {
      const known = [...exposedTools().keys()];
      const hint = known.length
        ? ` Available tools: ${known.slice(0, 20).join(', ')}${known.length > 20 ? ', …' : ''}.`
        : ' This server has no tools.';
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool "${name}".${hint}`);
    }
    const validation = validator.validate(tool, args);
    if (!validation.valid)
      return { isError: true, content: [{ type: 'text', text: validation.error.message }] };
    if (tool.execute === undefined) {
      return toErrorResult(
        new Error(`Tool "${name}" is listed but cannot be run here (it has no execute).`),
        false,
      );
    }
    const structured = tool.outputSchema !== undefined;
    const failed = (error: unknown): CallToolResult => {
      if (abort.aborted) throw error;
      logger.debug(
        { tool: name, error: error instanceof Error ? error.message : String(error) },
        'tool failed',
      );
      return toErrorResult(error, debug);
    };
    let value: unknown;
    try {
      const local = localTools.get(tool.execute);
      const input = (args ?? {}) as Record<string, unknown>;
      value =
        local !== undefined
          ? local.execute(
              local.parse ? (local.parse(input) as Record<string, unknown>) : input,
              context ?? noopContext(abort.signal),
            )
          : tool.execute(input, new ToolExecuteOptions(abort, context));
    } catch (error) {
      return failed(error);
    }
    if (isPromiseLike(value)) {
      return Promise.resolve(value).then(
        (settled) => toCallToolResult(settled as ToolReturnValue, structured),
        failed,
      );
    }
    return toCallToolResult(value as ToolReturnValue, structured);
  }

  function capabilities(): ServerCapabilities {
    const result: ServerCapabilities = {
      tools: { listChanged: true },
      logging: {},
      completions: {},
    };
    if (resources.size > 0 || templates.length > 0) result.resources = { subscribe: true, listChanged: true };
    if (prompts.size > 0) result.prompts = { listChanged: true };
    return result;
  }

  function createSession(sessionOptions: McpSessionOptions = {}): McpSession {
    const protocol = new Server(
      { name: options.name, version: options.version },
      {
        capabilities: capabilities(),
        ...(options.instructions ? { instructions: options.instructions } : {}),
      },
    );
    const state: SessionState = {
      protocol,
      stateless: sessionOptions.stateless ?? false,
      logLevel: undefined,
      subscriptions: new Set(),
      initialized: false,
    };
    const caps = capabilities();

    // The SDK registers initialize and ping with strict schemas, whose failures surface as
    // -32603; re-registered leniently so that bad params get -32602 like every other method.
    protocol.setRequestHandler(lenient('initialize'), (request) => {
      const parsed = parseParams(InitializeRequestSchema, request, 'initialize');
      return (protocol as unknown as { _oninitialize(request: unknown): Promise<unknown> })._oninitialize(
        parsed,
      ) as never;
    });
    protocol.oninitialized = () => {
      state.initialized = true;
    };
    protocol.setRequestHandler(lenient('ping'), (request) => {
      parseParams(PingRequestSchema, request, 'ping');
      return {};
    });
    protocol.setRequestHandler(lenient('logging/setLevel'), (request) => {
      const { params } = parseParams(SetLevelRequestSchema, request, 'logging/setLevel');
      // A stateless session is shared by unrelated clients: one client's level must not mute another's.
      if (!state.stateless) state.logLevel = params.level;
      return {};
    });

    protocol.setRequestHandler(lenient('tools/list'), (request) => {
      parseParams(ListToolsRequestSchema, request, 'tools/list');
      if (listCache === undefined) rebuild();
      return { tools: listCache as Tool[] };
    });

    // Registered leniently too: the SDK's Server wraps tools/call with its own params check
    // (-32602) and result check, but its protocol layer would first fail strict parsing as -32603.
    protocol.setRequestHandler(lenient('tools/call'), async (raw, extra) => {
      const request = raw as unknown as z.output<typeof CallToolRequestSchema>;
      const { name, arguments: args } = request.params;
      const progressToken = request.params._meta?.progressToken;
      const context: ToolContext = {
        signal: extra.signal,
        requestId: extra.requestId,
        ...(extra.sessionId !== undefined ? { sessionId: extra.sessionId } : {}),
        progress: async (progress, total, message) => {
          if (progressToken === undefined) return;
          await extra.sendNotification({
            method: 'notifications/progress',
            params: {
              progressToken,
              progress,
              ...(total !== undefined ? { total } : {}),
              ...(message !== undefined ? { message } : {}),
            },
          });
        },
        log: async (level, data, loggerName) => {
          if (
            state.logLevel !== undefined &&
            loggingLevels.indexOf(level) < loggingLevels.indexOf(state.logLevel)
          ) {
            return;
          }
          await extra.sendNotification({
            method: 'notifications/message',
            params: { level, data, ...(loggerName !== undefined ? { logger: loggerName } : {}) },
          });
        },
        sample: (params) =>
          extra.sendRequest({ method: 'sampling/createMessage', params }, CreateMessageResultSchema) as never,
        elicit: (params) =>
          extra.sendRequest({ method: 'elicitation/create', params }, ElicitResultSchema) as never,
        closeResponseStream: () => extra.closeSSEStream?.(),
      };
      return runTool(name, args, new CallAbort(extra.signal), context);
    });

    if (caps.resources) {
      protocol.setRequestHandler(lenient('resources/list'), (request) => {
        parseParams(ListResourcesRequestSchema, request, 'resources/list');
        return {
          resources: [...resources.values()].map(({ read: _read, ...resource }) => resource),
        };
      });
      protocol.setRequestHandler(lenient('resources/templates/list'), (request) => {
        parseParams(ListResourceTemplatesRequestSchema, request, 'resources/templates/list');
        return {
          resourceTemplates: templates.map(({ definition }) => {
            const { read: _read, complete: _complete, ...template } = definition;
            return template;
          }),
        };
      });
      protocol.setRequestHandler(lenient('resources/read'), async (request, extra) => {
        const { params } = parseParams(ReadResourceRequestSchema, request, 'resources/read');
        const resource = resources.get(params.uri);
        if (resource !== undefined) {
          return toReadResult(
            params.uri,
            resource.mimeType,
            await resource.read(params.uri, { signal: extra.signal }),
          );
        }
        for (const { definition, template } of templates) {
          const variables = template.match(params.uri);
          if (variables === null) continue;
          return toReadResult(
            params.uri,
            definition.mimeType,
            await definition.read(params.uri, variables, { signal: extra.signal }),
          );
        }
        throw new McpError(-32002, `Resource not found: ${params.uri}`, { uri: params.uri });
      });
      protocol.setRequestHandler(lenient('resources/subscribe'), (request) => {
        const { params } = parseParams(SubscribeRequestSchema, request, 'resources/subscribe');
        state.subscriptions.add(params.uri);
        return {};
      });
      protocol.setRequestHandler(lenient('resources/unsubscribe'), (request) => {
        const { params } = parseParams(UnsubscribeRequestSchema, request, 'resources/unsubscribe');
        state.subscriptions.delete(params.uri);
        return {};
      });
    }

    if (caps.prompts) {
      protocol.setRequestHandler(lenient('prompts/list'), (request) => {
        parseParams(ListPromptsRequestSchema, request, 'prompts/list');
        return {
          prompts: [...prompts.values()].map(({ get: _get, complete: _complete, ...prompt }) => prompt),
        };
      });
      protocol.setRequestHandler(lenient('prompts/get'), async (request, extra) => {
        const { params } = parseParams(GetPromptRequestSchema, request, 'prompts/get');
        const prompt = prompts.get(params.name);
        if (prompt === undefined) {
          throw new McpError(ErrorCode.InvalidParams, `Unknown prompt "${params.name}".`);
        }
        const args = params.arguments ?? {};
        const missing = (prompt.arguments ?? []).filter(
          (argument) => argument.required && !(argument.name in args),
        );
        if (missing.length > 0) {
          throw new McpError(
            ErrorCode.InvalidParams,
            `Prompt "${params.name}" needs argument(s): ${missing.map((argument) => argument.name).join(', ')}.`,
          );
        }
        const result = await prompt.get(args, { signal: extra.signal });
        return (
          typeof result === 'string'
            ? { messages: [{ role: 'user', content: { type: 'text', text: result } }] }
            : result
        ) as GetPromptResult;
      });
    }

    protocol.setRequestHandler(lenient('completion/complete'), async (request) => {
      const { params } = parseParams(CompleteRequestSchema, request, 'completion/complete');
      const context = { arguments: params.context?.arguments ?? {} };
      let completer: ((value: string, context: { arguments: Record<string, string> }) => unknown) | undefined;
      if (params.ref.type === 'ref/prompt') {
        completer = prompts.get(params.ref.name)?.complete?.[params.argument.name];
      } else {
        const uri = params.ref.uri;
        completer = templates.find(({ definition }) => definition.uriTemplate === uri)?.definition.complete?.[
          params.argument.name
        ];
      }
      const values = completer ? ((await completer(params.argument.value, context)) as string[]) : [];
      return {
        completion: { values: values.slice(0, 100), total: values.length, hasMore: values.length > 100 },
      };
    });

    const active = new Map<string | number, CallAbort>();
    const lane: FastLane = {
      handle(message, send, extra) {
        const { id, method } = message;
        const params = message.params;
        if (method === 'ping') {
          if (params !== undefined && Object.keys(params).some((key) => key !== '_meta')) return undefined;
          return { jsonrpc: '2.0', id, result: {} };
        }
        if (method === 'tools/list') {
          if (params?.cursor !== undefined && typeof params.cursor !== 'string') return undefined;
          if (listCache === undefined) rebuild();
          return { jsonrpc: '2.0', id, result: { tools: listCache as Tool[] } };
        }
        if (method !== 'tools/call' || params === undefined) return undefined;
        const {
          name,
          arguments: args,
          _meta: meta,
          task,
        } = params as {
          name?: unknown;
          arguments?: unknown;
          _meta?: { progressToken?: unknown };
          task?: unknown;
        };
        if (typeof name !== 'string' || task !== undefined || active.has(id)) return undefined;
        if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args)))
          return undefined;
        const progressToken = meta?.progressToken;
        if (
          progressToken !== undefined &&
          typeof progressToken !== 'string' &&
          typeof progressToken !== 'number'
        ) {
          return undefined;
        }
        const abort = new CallAbort();
        active.set(id, abort);
        const context = new LaneToolContext(abort, id, progressToken, send, state, extra);
        const failed = (error: unknown): JSONRPCMessage | undefined => {
          active.delete(id);
          if (abort.aborted) return undefined;
          const code = error instanceof McpError ? error.code : ErrorCode.InternalError;
          const text =
            error instanceof Error ? error.message.replace(/^MCP error -?\d+: /, '') : String(error);
          return { jsonrpc: '2.0', id, error: { code, message: text } };
        };
        let outcome: CallToolResult | Promise<CallToolResult>;
        try {
          outcome = runTool(name, args, abort, context);
        } catch (error) {
          return failed(error) ?? Promise.resolve(undefined);
        }
        if (outcome instanceof Promise) {
          return outcome.then((result): JSONRPCMessage | undefined => {
            active.delete(id);
            return abort.aborted ? undefined : { jsonrpc: '2.0', id, result };
          }, failed);
        }
        active.delete(id);
        return { jsonrpc: '2.0', id, result: outcome };
      },
      cancel(requestId, reason) {
        const abort = active.get(requestId);
        if (abort === undefined) return false;
        active.delete(requestId);
        abort.abort(reason ?? 'cancelled by the client');
        return true;
      },
    };

    sessions.add(state);
    const session: McpSession & { [fastLaneKey]: FastLane } = {
      [fastLaneKey]: lane,
      protocol,
      connect: (transport) => protocol.connect(withFastLane(transport, lane)),
      close: async () => {
        sessions.delete(state);
        await protocol.close();
      },
    };
    protocol.onclose = () => {
      sessions.delete(state);
    };
    options.extendSession?.(protocol, { stateless: state.stateless });
    return session;
  }

  return {
    name: options.name,
    version: options.version,
    registry,
    logger,
    addTool(tool) {
      registerLocal(tool);
    },
    removeTool(name) {
      return registry.unregister(name);
    },
    listTools() {
      if (listCache === undefined) rebuild();
      return listCache as Tool[];
    },
    isServed(tool) {
      return exposure(tool).exposed;
    },
    async callTool(name, args, callOptions = {}) {
      return runTool(name, args, new CallAbort(callOptions.signal), undefined);
    },
    async notifyResourceUpdated(uri) {
      await Promise.all(
        [...sessions]
          .filter((session) => session.subscriptions.has(uri))
          .map((session) => session.protocol.sendResourceUpdated({ uri }).catch(() => {})),
      );
    },
    async log(level, data, loggerName) {
      const params = { level, data, ...(loggerName !== undefined ? { logger: loggerName } : {}) };
      await Promise.all(
        [...sessions]
          .filter(
            (session) =>
              !session.stateless &&
              session.initialized &&
              (session.logLevel === undefined ||
                loggingLevels.indexOf(level) >= loggingLevels.indexOf(session.logLevel)),
          )
          .map((session) => session.protocol.sendLoggingMessage(params).catch(() => {})),
      );
    },
    createSession,
    async connect(transport) {
      const session = createSession();
      await session.connect(transport);
      return session;
    },
    get sessionCount() {
      return sessions.size;
    },
    async close() {
      await Promise.all([...sessions].map((session) => session.protocol.close().catch(() => {})));
      sessions.clear();
    },
  };
}
