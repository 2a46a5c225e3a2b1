/**
 * A task a server created for a tool call (extension `io.modelcontextprotocol/tasks`, SEP-2663):
 * polled with `tasks/get` at the server's `pollIntervalMs`, its input requests answered with the
 * call's handlers (else the client's) through `tasks/update`, cancelled with `tasks/cancel`.
 * A 2025-11-25 task (`legacy-task.ts`) is polled the same way; its outcome is read with
 * `tasks/result`, which also carries the requests of a task waiting for input to the client.
 */
import type { CallToolResult, Progress } from '@modelcontextprotocol/client';
import { ClientError, ClientErrorCode } from './client-error.js';
import { fromLegacyTask } from './legacy-task.js';

/** The states of a task; the last three are final. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** What a server says about a task (`tasks/get`), with the outcome once it is final. */
export interface TaskState {
  taskId: string;
  status: TaskStatus;
  /** A message for people (or the model) about the current state. */
  statusMessage?: string;
  createdAt?: string;
  lastUpdatedAt?: string;
  /** How long the server keeps the task from its creation; null: no limit. */
  ttlMs?: number | null;
  /** How often to poll, as the server asks. */
  pollIntervalMs?: number;
  /** `input_required`: what the task waits for, keyed by the server's ids. */
  inputRequests?: Record<string, unknown>;
  /** `completed`: the tool's result, as the call would have returned it. */
  result?: CallToolResult;
  /** `failed`: the JSON-RPC error it failed with. */
  error?: { code?: number; message?: string; data?: unknown };
}

/** Options of {@link ToolTask.result}. */
export interface TaskWaitOptions {
  /** Stops waiting; the task is cancelled on the server (`tasks/cancel`). */
  signal?: AbortSignal;
  /** Told each state the task passes through. */
  onStatus?: (state: TaskState) => void;
  /** Told each change as progress (`progress` counts the changes, `message` is the status message). */
  onProgress?: (progress: Progress) => void;
  /** Gives up after this long (and cancels the task). */
  maxTotalTimeoutMs?: number;
}

/** A task a server created for a tool call. */
export interface ToolTask {
  /** The server's id of the task (keep it to resume polling after a restart). */
  readonly taskId: string;
  /** The tool it runs. */
  readonly tool: string;
  /** The last state seen. */
  readonly state: TaskState;
  /** Asks the server for the task's state now (`tasks/get`). */
  refresh(): Promise<TaskState>;
  /** Answers input the task waits for (`tasks/update`); keys are those of its `inputRequests`. */
  update(inputResponses: Record<string, unknown>): Promise<void>;
  /** Asks the server to cancel the task (`tasks/cancel`; cooperative, the server may still finish it). */
  cancel(): Promise<void>;
  /** Polls until the task is final, answering its input requests; resolves with the tool's result. */
  result(options?: TaskWaitOptions): Promise<CallToolResult>;
}

/** The task methods a task sends (`tasks/update`: SEP-2663; `tasks/result`: 2025-11-25). */
export type TaskMethod = 'tasks/get' | 'tasks/update' | 'tasks/cancel' | 'tasks/result';

/** What a task needs from its connection. */
export interface TaskChannel {
  readonly server: string;
  /** A 2025 connection: its tasks are 2025-11-25 tasks. */
  readonly legacy?: boolean;
  /** Sends a task method; resolves with the result. */
  request(method: TaskMethod, params: Record<string, unknown>): Promise<unknown>;
  /** Answers one input request of the task, as a server request of its call would be. */
  answer(key: string, entry: Record<string, unknown>, signal: AbortSignal): Promise<unknown>;
}

const finalStatuses: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

/** Ended with an outcome to read: completed or failed. */
function settled(state: TaskState): state is TaskState & { status: 'completed' | 'failed' } {
  return state.status === 'completed' || state.status === 'failed';
}

/** The poll interval when the server names none. */
const defaultPollIntervalMs = 1000;

/** Reads a task state out of a `tasks/get` result or a created task; throws on a shape that is not one. */
export function toTaskState(value: unknown, server: string): TaskState {
  const record = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  if (typeof record.taskId !== 'string' || typeof record.status !== 'string') {
    throw new ClientError({
      code: ClientErrorCode.ServerError,
      message: `MCP server "${server}" answered with a task that has no taskId or status.`,
      context: { server },
    });
  }
  const { resultType: _resultType, _meta: _ignored, ...state } = record;
  return state as unknown as TaskState;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** The {@link ToolTask} of one created task. */
export class PolledToolTask implements ToolTask {
  private current: TaskState;
  private readonly answered = new Set<string>();

  constructor(
    private readonly channel: TaskChannel,
    readonly tool: string,
    created: TaskState,
  ) {
    this.current = created;
  }

  get taskId(): string {
    return this.current.taskId;
  }

  get state(): TaskState {
    return this.current;
  }

  async refresh(): Promise<TaskState> {
    const answer = await this.channel.request('tasks/get', { taskId: this.taskId });
    if (!this.channel.legacy) {
      this.current = toTaskState(answer, this.channel.server);
      return this.current;
    }
    const state = toTaskState(fromLegacyTask(answer) ?? answer, this.channel.server);
    if (!settled(state)) {
      this.current = state;
      return state;
    }
    // A final 2025-11-25 task's outcome is read apart (`tasks/result`), once: kept in its state, as in SEP-2663.
    const { result, error } = this.current;
    const known = this.current.status === state.status && (result ?? error) !== undefined;
    const outcome = known ? { ...(result ? { result } : {}), ...(error ? { error } : {}) } : undefined;
    this.current = { ...state, ...(outcome ?? (await this.legacyOutcome(state.status))) };
    return this.current;
  }

  async update(inputResponses: Record<string, unknown>): Promise<void> {
    if (this.channel.legacy) {
      // 2025-11-25 has no tasks/update: a task's requests reach the client through tasks/result.
      throw new ClientError({
        code: ClientErrorCode.ServerError,
        message: `MCP server "${this.channel.server}" speaks 2025-11-25, whose tasks take input through tasks/result (the server's requests are answered by the client's handlers), not tasks/update; call result() instead.`,
        context: { server: this.channel.server, tool: this.tool, taskId: this.taskId },
      });
    }
    await this.channel.request('tasks/update', { taskId: this.taskId, inputResponses });
  }

  async cancel(): Promise<void> {
    await this.channel.request('tasks/cancel', { taskId: this.taskId });
  }

  async result(options: TaskWaitOptions = {}): Promise<CallToolResult> {
    const stop = new AbortController();
    const onAbort = () => stop.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const deadline =
      options.maxTotalTimeoutMs === undefined
        ? undefined
        : setTimeout(() => stop.abort('timeout'), options.maxTotalTimeoutMs);
    try {
      return await this.poll(options, stop.signal);
    } catch (error) {
      if (stop.signal.aborted) {
        // The caller gave up: tell the server, as a cancelled call would.
        await this.cancel().catch(() => undefined);
        throw new ClientError({
          code: stop.signal.reason === 'timeout' ? ClientErrorCode.Timeout : ClientErrorCode.Cancelled,
          message:
            stop.signal.reason === 'timeout'
              ? `Tool "${this.tool}" on MCP server "${this.channel.server}": task ${this.taskId} did not finish within ${options.maxTotalTimeoutMs} ms; it was cancelled.`
              : `Tool "${this.tool}" on MCP server "${this.channel.server}": waiting for task ${this.taskId} was cancelled; the task was cancelled too.`,
          context: { server: this.channel.server, tool: this.tool, taskId: this.taskId },
          cause: error,
        });
      }
      throw error;
    } finally {
      if (deadline) clearTimeout(deadline);
      options.signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Steps until final: report the state, answer what it waits for, wait the interval, look again. */
  private async poll(options: TaskWaitOptions, signal: AbortSignal): Promise<CallToolResult> {
    let changes = 0;
    let last = '';
    let state = this.current;
    for (;;) {
      const seen = `${state.status}\n${state.statusMessage ?? ''}`;
      if (seen !== last) {
        last = seen;
        changes++;
        options.onStatus?.(state);
        options.onProgress?.({ progress: changes, message: state.statusMessage ?? state.status });
      }
      // 2025-11-25: the requests of a task waiting for input reach the client while tasks/result waits.
      if (this.channel.legacy && state.status === 'input_required') {
        const outcome = await this.legacyOutcome('completed');
        const status = outcome.result?.isError === true ? 'failed' : 'completed';
        this.current = { ...this.current, status, ...outcome };
        state = this.current;
        continue;
      }
      // A 2025-11-25 task created final (or read before its outcome): the outcome is read first.
      if (this.channel.legacy && settled(state) && (state.result ?? state.error) === undefined)
        state = await this.refresh();
      if (finalStatuses.has(state.status)) return this.outcome(state);
      if (state.status === 'input_required') await this.answerInputRequests(state, signal);
      await sleep(Math.max(1, state.pollIntervalMs ?? defaultPollIntervalMs), signal);
      if (signal.aborted) throw new Error('aborted');
      state = await this.refresh();
    }
  }

  /** Answers each input request once (a poll repeats the outstanding ones), then sends them all. */
  private async answerInputRequests(state: TaskState, signal: AbortSignal): Promise<void> {
    const pending = Object.entries(state.inputRequests ?? {}).filter(([key]) => !this.answered.has(key));
    if (pending.length === 0) return;
    const responses: Record<string, unknown> = {};
    await Promise.all(
      pending.map(async ([key, entry]) => {
        responses[key] = await this.channel.answer(key, entry as Record<string, unknown>, signal);
      }),
    );
    await this.update(responses);
    for (const [key] of pending) this.answered.add(key);
  }

  /** A 2025-11-25 task's outcome (`tasks/result`): the tool's result, or the JSON-RPC error it failed with. */
  private async legacyOutcome(status: 'completed' | 'failed'): Promise<Pick<TaskState, 'result' | 'error'>> {
    try {
      return {
        result: (await this.channel.request('tasks/result', { taskId: this.taskId })) as CallToolResult,
      };
    } catch (error) {
      if (status !== 'failed') throw error;
      const code = (error as { context?: { jsonRpcCode?: unknown } }).context?.jsonRpcCode;
      const message = error instanceof Error ? error.message : String(error);
      return { error: { ...(typeof code === 'number' ? { code } : {}), message } };
    }
  }

  private outcome(state: TaskState): CallToolResult {
    if (state.status === 'completed' && state.result) return state.result;
    // A failed 2025-11-25 tool task's outcome may be the tool's error result: returned as the call would.
    if (state.status === 'failed' && state.result && this.channel.legacy) return state.result;
    const where = `Tool "${this.tool}" on MCP server "${this.channel.server}"`;
    if (state.status === 'cancelled') {
      throw new ClientError({
        code: ClientErrorCode.TaskCancelled,
        message: `${where}: task ${this.taskId} was cancelled${state.statusMessage ? ` (${state.statusMessage})` : ''}.`,
        context: { server: this.channel.server, tool: this.tool, taskId: this.taskId },
      });
    }
    const error = state.error;
    throw new ClientError({
      code: ClientErrorCode.TaskFailed,
      message: `${where}: task ${this.taskId} ${state.status === 'completed' ? 'completed without a result' : `failed: ${error?.message ?? state.statusMessage ?? 'no reason given'}`}.`,
      context: { server: this.channel.server, tool: this.tool, taskId: this.taskId },
      ...(typeof error?.code === 'number' ? { jsonRpcCode: error.code } : {}),
    });
  }
}
