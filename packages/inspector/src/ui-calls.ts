/**
 * The tool calls made from the page. A call is checked with core's argument validator before
 * anything is sent (a 422 with one error per field), then runs in the background through the
 * registered tool's `execute` — the same path as `switchboard call`: approval policy, metrics,
 * the registry store's usage — while its progress, its approval prompt, the server's questions
 * and its end reach the page as events. Each call has its own AbortController: cancelling it
 * sends `notifications/cancelled` and withdraws whatever it was waiting for.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { ApproveCallback, McpToolExecuteOptions } from '@switchboard/client';
import { type ArgumentValidator, createArgumentValidator, type RegisteredTool } from '@switchboard/core';
import type { PendingRequests } from './pending-requests.js';
import type { ServerQuestions } from './server-questions.js';
import type { UiCall, UiCallingApp, UiEvent } from './ui-api.js';
import { toUiErrorAnswer, UiError, UiErrorCode } from './ui-error.js';
import type { UiRedaction } from './ui-redaction.js';

/** Options of {@link createUiCalls}. */
export interface UiCallsOptions {
  publish(event: UiEvent): void;
  pending: PendingRequests;
  questions: ServerQuestions;
  redaction: UiRedaction;
  /** Ended calls kept for `GET /api/calls/:id`. @default 200 */
  history?: number;
}

/** The calls of the page. */
export interface UiCalls {
  /**
   * Validates and starts a call; throws `VALIDATION_FAILED` (a 422 with fields) before sending
   * anything. `app`: an MCP App in the page asks for it (its approval prompt says so).
   */
  start(tool: RegisteredTool, args: Record<string, unknown>, app?: UiCallingApp): UiCall;
  get(callId: string): UiCall;
  /** The call once it has ended (done, failed, refused or cancelled). */
  ended(callId: string): Promise<UiCall>;
  /** Recent calls, oldest first. */
  list(): UiCall[];
  /** Cancels a call in flight (the server is told); an ended call is returned as it is. */
  cancel(callId: string): UiCall;
  /** The connection's `approve`: asks the page, naming the call being approved. */
  readonly approve: ApproveCallback;
  /** Cancels every call in flight (the session is closing). */
  cancelAll(): void;
  /** Resolves when every call in flight has ended. */
  settled(): Promise<void>;
}

interface CallRecord {
  call: UiCall;
  controller: AbortController;
  started: number;
  done: Promise<void>;
}

/** Creates the calls of a session. */
export function createUiCalls(options: UiCallsOptions): UiCalls {
  const history = options.history ?? 200;
  const records = new Map<string, CallRecord>();
  // Which call an approval prompt belongs to: the prompt comes from deep inside `execute`.
  const current = new AsyncLocalStorage<CallRecord>();
  // The argument check of each tool, compiled once; one validator for every server's tools.
  const validator: ArgumentValidator = createArgumentValidator();
  const targets = new WeakMap<RegisteredTool, { name: string; inputSchema: RegisteredTool['inputSchema'] }>();

  const recordOf = (callId: string): CallRecord => {
    const record = records.get(callId);
    if (!record) {
      throw new UiError({
        code: UiErrorCode.UnknownCall,
        message: `No call "${callId}": it never started, or it ended long enough ago to be dropped (the last ${history} are kept).`,
        context: { callId },
      });
    }
    return record;
  };

  const forgetOld = () => {
    if (records.size <= history) return;
    for (const [id, record] of records) {
      if (records.size <= history) break;
      if (record.call.durationMs !== undefined) records.delete(id);
    }
  };

  const check = (tool: RegisteredTool, args: Record<string, unknown>) => {
    let target = targets.get(tool);
    if (!target) {
      target = { name: tool.name, inputSchema: tool.inputSchema };
      targets.set(tool, target);
    }
    validator.assertValid(target, args);
  };

  const run = async (record: CallRecord, tool: RegisteredTool, args: Record<string, unknown>) => {
    const { call, controller } = record;
    const executeOptions: McpToolExecuteOptions = {
      signal: controller.signal,
      rawResult: true,
      onProgress: (progress) => {
        call.progress = {
          progress: progress.progress,
          ...(progress.total === undefined ? {} : { total: progress.total }),
          ...(progress.message === undefined ? {} : { message: options.redaction.text(progress.message) }),
        };
        options.publish({ type: 'call-progress', callId: call.callId, progress: call.progress });
      },
      onElicitation: options.questions.elicitation(call.callId),
      onSampling: options.questions.sampling(call.callId),
    };
    try {
      const execute = tool.execute as NonNullable<RegisteredTool['execute']>;
      const result = await current.run(record, () => execute(args, executeOptions));
      call.result = options.redaction.value(result);
      call.state = controller.signal.aborted ? 'cancelled' : 'done';
    } catch (error) {
      const answer = toUiErrorAnswer(error, options.redaction.text);
      call.error = answer.body.error;
      call.state = controller.signal.aborted
        ? 'cancelled'
        : answer.body.error.code === 'APPROVAL_DENIED'
          ? 'refused'
          : 'failed';
    } finally {
      call.durationMs = Math.round(performance.now() - record.started);
      options.publish({ type: 'call-end', call: { ...call } });
      forgetOld();
    }
  };

  const approve: ApproveCallback = async (prompt) => {
    const record = current.getStore();
    if (record) record.call.state = 'awaiting-approval';
    const answer = await options.pending.ask(
      {
        kind: 'approval',
        // Every call of this process starts from the page, so a prompt outside one is not expected.
        callId: record?.call.callId ?? '',
        server: prompt.server,
        tool: prompt.originalName,
        arguments: options.redaction.value(prompt.args),
        reason: prompt.reason,
        ...(record?.call.app === undefined ? {} : { app: record.call.app }),
      },
      record?.controller.signal,
    );
    if (record && answer.approved) record.call.state = 'running';
    return answer.approved;
  };

  return {
    start(tool, args, app) {
      if (typeof tool.execute !== 'function') {
        throw new UiError({
          code: UiErrorCode.ServerNotConnected,
          message: `Tool "${tool.originalName}" of server "${tool.server}" is known from an earlier run but its server is not connected; connect it first.`,
          context: { server: tool.server, tool: tool.originalName },
        });
      }
      check(tool, args);
      const decision = tool.approval?.().decision;
      const call: UiCall = {
        callId: `c-${randomUUID()}`,
        server: tool.server,
        tool: tool.originalName,
        arguments: options.redaction.value(args),
        state: decision === 'ask' ? 'awaiting-approval' : 'running',
        startedAt: new Date().toISOString(),
        ...(app === undefined ? {} : { app }),
      };
      const record: CallRecord = {
        call,
        controller: new AbortController(),
        started: performance.now(),
        done: Promise.resolve(),
      };
      records.set(call.callId, record);
      record.done = run(record, tool, args);
      return { ...call };
    },
    get: (callId) => ({ ...recordOf(callId).call }),
    async ended(callId) {
      const record = recordOf(callId);
      await record.done;
      return { ...record.call };
    },
    list: () => [...records.values()].map((record) => ({ ...record.call })),
    cancel(callId) {
      const record = recordOf(callId);
      if (record.call.durationMs === undefined) record.controller.abort();
      return { ...record.call };
    },
    approve,
    cancelAll() {
      for (const record of records.values()) {
        if (record.call.durationMs === undefined) record.controller.abort();
      }
    },
    async settled() {
      await Promise.all([...records.values()].map((record) => record.done));
    },
  };
}
