/**
 * The options of one MCP server connection (`createMcpClient`) and of its requests: one type of
 * call options from the registry's `execute` down to the request engine.
 */
import type {
  CallToolResult,
  Implementation,
  LoggingMessageNotification,
  Progress,
} from '@modelcontextprotocol/client';
import type { Logger, TelemetrySetting } from '@switchboard/core';
import type { ProtocolMessageListener } from './protocol-message-tap.js';
import type { ClientAuthOptions } from './server-auth.js';
import type {
  CallServerRequestHandlers,
  ElicitationHandler,
  RootsProvider,
  SamplingHandler,
} from './server-request-answers.js';
import type { ToolTask } from './tool-task.js';

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
   * `false`: this call takes no task (a gateway relaying a client that takes none): a 2026-07-28
   * request leaves the tasks extension out of its capabilities, so a tool that requires a task is
   * refused by its server (-32021), and a 2025 tool that requires one is refused here with that code.
   * @default true (the connection's `tasks` option)
   */
  tasks?: boolean;
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
