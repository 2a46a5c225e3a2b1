/**
 * The send link of a tool call: `tools/call` through the connection's request engine, the one way
 * every call leaves — a registry tool's, a relay's, a bare client's, with or without handlers of
 * its own. Here the call's options become the request's (deadline, progress, cancellation, the
 * connection's defaults), a modern HTTP call mirrors its `x-mcp-header` arguments into
 * `Mcp-Param-*` headers, the result is read by its `resultType` (the answer, input-required
 * rounds answered with the call's handlers, or a task), and a `HeaderMismatch` (the tool's schema
 * changed under us) reads the tool list again and sends once more, as the spec says.
 */
import {
  type CallToolResult,
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  type Progress,
  ProtocolError,
} from '@modelcontextprotocol/client';
import { JsonRpcErrorCode } from '@switchboard/transports';
import { ClientError, ClientErrorCode } from './client-error.js';
import { runInputRounds } from './input-rounds.js';
import { fromLegacyTask, taskSupportOf } from './legacy-task.js';
import { mcpParamHeaders } from './mcp-param-headers.js';
import type { EngineRequestOptions, RequestEngine } from './request-engine.js';
import { type CreatedTask, type DecodedResult, decodeResult } from './result-decoding.js';
import { type AnswerServerRequest, hasOwnHandlers, type RequestOwner } from './server-request-answers.js';
import type { RequestTelemetry } from './telemetry/request-telemetry.js';
import type { ToolCall } from './tool-call-chain.js';
import type { ToolListCache } from './tool-list-cache.js';

const tasksExtensionId = 'io.modelcontextprotocol/tasks';

/** What the send link needs of its connection. */
export interface ToolCallSenderOptions {
  engine: RequestEngine;
  tools: ToolListCache;
  /** Modern over HTTP: mirror `x-mcp-header` arguments into headers. */
  mirrorHeaders: boolean;
  answers: AnswerServerRequest;
  telemetry: RequestTelemetry;
  requestTimeoutMs: number;
  maxTotalTimeoutMs: number | undefined;
  /** Progress of every call that has none of its own (then every call sends a progress token). */
  onProgress: ((tool: string, progress: Progress) => void) | undefined;
  /** A 2025 server that runs tool calls as 2025-11-25 tasks (`params.task`, `legacy-task.ts`). */
  legacyTasks: boolean;
}

/** How a call ended: the result, or the task the server created instead. */
export type CallOutcome =
  | { result: CallToolResult; task?: undefined }
  | { task: CreatedTask; result?: undefined };

/** The send link of one connection's tool calls. */
export class ToolCallSender {
  /** Shared by every call without options of its own: nothing is built per call on the common path. */
  private readonly defaultRequest: EngineRequestOptions;
  /** The connection's envelope without the tasks extension, and the envelope it was made from. */
  private noTasks:
    | { from: Readonly<Record<string, unknown>>; envelope: Readonly<Record<string, unknown>> }
    | undefined;

  constructor(private readonly options: ToolCallSenderOptions) {
    this.defaultRequest = Object.freeze({ timeoutMs: options.requestTimeoutMs });
  }

  /** Sends the call; resolves with the result, or the task the server created. */
  send(call: ToolCall): Promise<CallOutcome> {
    if (call.observed === true && call.trace === undefined) {
      call.trace = this.options.telemetry.startToolCall(call.tool, call.options.traceContext);
    }
    return this.sendOnce(call, this.requestOptions(call)).catch((error: unknown) => {
      if (!(error instanceof ProtocolError) || error.code !== JsonRpcErrorCode.HeaderMismatch) throw error;
      // The tool's schema changed under us: read it again and send once more.
      return this.options.tools.list(true).then(() => this.sendOnce(call, this.requestOptions(call)));
    });
  }

  /** The request options of a call: the shared defaults, or the call's own merged over them. */
  private requestOptions(call: ToolCall): EngineRequestOptions {
    const own = call.options;
    const fallbackProgress = this.options.onProgress;
    const headers = this.options.mirrorHeaders ? this.headersOf(call) : undefined;
    const owner = hasOwnHandlers(own) ? { tool: call.tool, handlers: own } : undefined;
    if (
      own.signal === undefined &&
      own.timeoutMs === undefined &&
      own.onProgress === undefined &&
      own.maxTotalTimeoutMs === undefined &&
      own.tasks !== false &&
      fallbackProgress === undefined &&
      this.options.maxTotalTimeoutMs === undefined &&
      call.trace === undefined &&
      headers === undefined &&
      owner === undefined
    ) {
      return this.defaultRequest;
    }
    const onProgress =
      own.onProgress ??
      (fallbackProgress === undefined
        ? undefined
        : (progress: Progress) => fallbackProgress(call.tool, progress));
    // A progress token is sent only with a progress callback; progress then restarts the
    // deadline unless the caller said not to: a tool that reports is alive.
    return {
      timeoutMs: own.timeoutMs ?? this.options.requestTimeoutMs,
      maxTotalTimeoutMs: own.maxTotalTimeoutMs ?? this.options.maxTotalTimeoutMs,
      signal: own.signal,
      onProgress,
      resetTimeoutOnProgress: onProgress !== undefined && own.resetTimeoutOnProgress !== false,
      headers,
      owner,
      trace: call.trace,
      envelope: own.tasks === false ? this.envelopeWithoutTasks() : undefined,
    };
  }

  /** The connection's 2026-07-28 envelope without the tasks extension (kept while the envelope is the same). */
  private envelopeWithoutTasks(): Readonly<Record<string, unknown>> | undefined {
    const envelope = this.options.engine.envelope;
    if (envelope === undefined) return undefined;
    if (this.noTasks?.from === envelope) return this.noTasks.envelope;
    const capabilities = envelope[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
    const { [tasksExtensionId]: _dropped, ...extensions } = (capabilities?.extensions ?? {}) as Record<
      string,
      unknown
    >;
    const without = Object.freeze({
      ...envelope,
      [CLIENT_CAPABILITIES_META_KEY]: { ...capabilities, extensions },
    });
    this.noTasks = { from: envelope, envelope: without };
    return without;
  }

  private headersOf(call: ToolCall): Record<string, string> | undefined {
    const declarations = this.options.tools.headerDeclarations(call.tool);
    return declarations === undefined ? undefined : mcpParamHeaders(declarations, call.args);
  }

  private async sendOnce(call: ToolCall, request: EngineRequestOptions): Promise<CallOutcome> {
    if (this.options.legacyTasks && (await this.runsAsLegacyTask(call)))
      return this.sendLegacyTask(call, request);
    const params = { name: call.tool, arguments: call.args };
    const engine = this.options.engine;
    let decoded = decodeResult('tools/call', await engine.request('tools/call', params, request));
    if (decoded.kind === 'input_required') {
      const startedAt = Date.now();
      decoded = await runInputRounds(decoded, {
        method: 'tools/call',
        answer: this.options.answers,
        owner: request.owner ?? roundOwner(call),
        signal: request.signal,
        resend: async (extra) =>
          decodeResult(
            'tools/call',
            await engine.request('tools/call', { ...params, ...extra }, legOptions(request, startedAt)),
          ),
      });
    }
    return outcomeOf(decoded);
  }

  /**
   * Whether a call to a 2025 server goes as a 2025-11-25 task: the caller takes a task
   * (`startTool`) and the tool allows one, or the tool requires one (then `callTool` polls it).
   */
  private async runsAsLegacyTask(call: ToolCall): Promise<boolean> {
    const tool = (await this.options.tools.list()).find((listed) => listed.name === call.tool);
    const support = taskSupportOf(tool);
    if (support === 'required' && call.options.tasks === false) throw taskRequired(call);
    return support === 'required' || (support === 'optional' && call.asTask === true);
  }

  /** The call with `params.task`: the server answers with a `CreateTaskResult`, or (some servers) the result itself. */
  private async sendLegacyTask(call: ToolCall, request: EngineRequestOptions): Promise<CallOutcome> {
    const params = { name: call.tool, arguments: call.args, task: {} };
    const raw = (await this.options.engine.request('tools/call', params, request)) as Record<string, unknown>;
    const task = fromLegacyTask(raw?.task);
    return task !== undefined ? { task } : { result: raw as CallToolResult };
  }
}

/** A call that takes no task, to a tool that requires one (-32021, as SEP-2663 answers it). */
function taskRequired(call: ToolCall): ClientError {
  return new ClientError({
    code: ClientErrorCode.ServerError,
    message: `Tool "${call.tool}" on MCP server "${call.server}" must run as a task (its execution.taskSupport is "required"), and this call takes no task; call it from a client that takes tasks.`,
    context: {
      server: call.server,
      tool: call.tool,
      requiredCapabilities: { extensions: { [tasksExtensionId]: {} } },
    },
    jsonRpcCode: JsonRpcErrorCode.MissingRequiredClientCapability,
  });
}

/** The call's owner for its rounds: its handlers answer them (the client's otherwise). */
function roundOwner(call: ToolCall): RequestOwner {
  return { tool: call.tool, handlers: call.options };
}

/** The options of a further leg: a total deadline counts the time already spent. */
function legOptions(request: EngineRequestOptions, startedAt: number): EngineRequestOptions {
  const total = request.maxTotalTimeoutMs;
  if (total === undefined) return request;
  return { ...request, maxTotalTimeoutMs: Math.max(1, total - (Date.now() - startedAt)) };
}

function outcomeOf(decoded: Exclude<DecodedResult, { kind: 'input_required' }>): CallOutcome {
  return decoded.kind === 'task' ? { task: decoded.task } : { result: decoded.result as CallToolResult };
}
