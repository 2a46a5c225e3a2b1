/**
 * Tasks of the tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663), in memory: a
 * long-running tool call becomes a task the client polls (`tasks/get`), answers questions of
 * (`tasks/update`) and cancels (`tasks/cancel`). A task is also the input channel of its run: an
 * `elicit()` of the tool becomes one of the task's `inputRequests`.
 */
import { randomUUID } from 'node:crypto';
import { CallAbort } from '../cancellation/call-abort.js';
import type { WireError } from '../errors/to-wire-error.js';
import {
  type ClientInputMethod,
  type ClientInputRequest,
  isValidClientInputResponse,
} from '../protocol/client-input-request.js';
import type { ClientInputChannel } from '../tools/client-input-channel.js';

/** The extension's identifier (capability key under `extensions`). */
export const tasksExtensionId = 'io.modelcontextprotocol/tasks';

/** Where a task is. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** A task as `tasks/get` and `notifications/tasks` show it. */
export interface DetailedTask {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number | null;
  pollIntervalMs?: number;
  inputRequests?: Record<string, ClientInputRequest>;
  result?: Record<string, unknown>;
  error?: WireError;
}

const terminal: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

const keyPrefix: Readonly<Record<ClientInputMethod, string>> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/** Options of a new task. */
export interface TaskOptions {
  /** How long the task is kept after creation, ms. */
  ttlMs: number;
  pollIntervalMs: number;
}

/** One task: its state, its open questions, and the cancellation its run follows. */
export class TaskRecord implements ClientInputChannel {
  readonly taskId = randomUUID();
  readonly createdAt = new Date().toISOString();
  /** Aborted by `tasks/cancel` (and when the task expires). */
  readonly abort = new CallAbort();
  #status: TaskStatus = 'working';
  #statusMessage: string | undefined;
  #lastUpdatedAt = this.createdAt;
  #result: Record<string, unknown> | undefined;
  #error: WireError | undefined;
  #asked = 0;
  readonly #pending = new Map<string, { request: ClientInputRequest; resolve: (value: unknown) => void }>();
  readonly #options: TaskOptions;
  readonly #changed: (task: TaskRecord) => void;

  constructor(options: TaskOptions, changed: (task: TaskRecord) => void) {
    this.#options = options;
    this.#changed = changed;
  }

  /** The task's status. */
  get status(): TaskStatus {
    return this.#status;
  }

  /** True once completed, failed or cancelled. */
  get finished(): boolean {
    return terminal.has(this.#status);
  }

  /** The task without its payload (what `CreateTaskResult` carries). */
  info(): DetailedTask {
    const task: DetailedTask = {
      taskId: this.taskId,
      status: this.#status,
      createdAt: this.createdAt,
      lastUpdatedAt: this.#lastUpdatedAt,
      ttlMs: this.#options.ttlMs,
      pollIntervalMs: this.#options.pollIntervalMs,
    };
    if (this.#statusMessage !== undefined) task.statusMessage = this.#statusMessage;
    return task;
  }

  /** The task with its status payload: open questions, result or error. */
  detailed(): DetailedTask {
    const task = this.info();
    if (this.#status === 'input_required') {
      const inputRequests: Record<string, ClientInputRequest> = {};
      for (const [key, { request }] of this.#pending) inputRequests[key] = request;
      task.inputRequests = inputRequests;
    } else if (this.#status === 'completed' && this.#result !== undefined) {
      task.result = this.#result;
    } else if (this.#status === 'failed' && this.#error !== undefined) {
      task.error = this.#error;
    }
    return task;
  }

  ask(request: ClientInputRequest): Promise<unknown> {
    if (this.finished) return Promise.reject(new Error(`Task ${this.taskId} has ended.`));
    this.#asked += 1;
    // Keys are never reused within a task (SEP-2663).
    const key = `${keyPrefix[request.method]}_${this.#asked}`;
    return new Promise((resolve) => {
      this.#pending.set(key, { request, resolve });
      this.#transition('input_required');
    });
  }

  /** Answers open questions (`tasks/update`); answers to unknown or answered keys are ignored. */
  answer(responses: Record<string, unknown>): void {
    for (const [key, response] of Object.entries(responses)) {
      const pending = this.#pending.get(key);
      if (pending === undefined || !isValidClientInputResponse(pending.request, response)) continue;
      this.#pending.delete(key);
      pending.resolve(response);
    }
    if (this.#status === 'input_required' && this.#pending.size === 0) this.#transition('working');
  }

  /** The run finished with a result (a tool error is a completed task with `isError`). */
  complete(result: Record<string, unknown>): void {
    if (this.finished) return;
    this.#result = result;
    this.#pending.clear();
    this.#transition('completed');
  }

  /** The run failed with a JSON-RPC error. */
  fail(error: WireError): void {
    if (this.finished) return;
    this.#error = error;
    this.#pending.clear();
    this.#transition('failed');
  }

  /** Cancels the task (cooperative: the run is aborted and the task is cancelled at once). */
  cancel(reason = 'cancelled by the client'): void {
    if (this.finished) return;
    this.#statusMessage = reason;
    this.#pending.clear();
    this.#transition('cancelled');
    this.abort.abort(reason);
  }

  #transition(status: TaskStatus): void {
    this.#status = status;
    this.#lastUpdatedAt = new Date().toISOString();
    this.#changed(this);
  }
}

/** The tasks of one server. */
export class TaskStore {
  readonly #tasks = new Map<string, { task: TaskRecord; timer: NodeJS.Timeout }>();
  readonly #listeners = new Set<(task: TaskRecord) => void>();

  /** Creates a task (kept for `ttlMs`, then dropped). */
  create(options: TaskOptions): TaskRecord {
    const task = new TaskRecord(options, (changed) => {
      for (const listener of this.#listeners) listener(changed);
    });
    const timer = setTimeout(() => {
      this.#tasks.delete(task.taskId);
      task.cancel('the task expired');
    }, options.ttlMs);
    timer.unref();
    this.#tasks.set(task.taskId, { task, timer });
    return task;
  }

  /** A task by id. */
  get(taskId: string): TaskRecord | undefined {
    return this.#tasks.get(taskId)?.task;
  }

  /** Calls `listener` on every status change; returns the unsubscribe function. */
  onChange(listener: (task: TaskRecord) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Number of tasks kept. */
  get size(): number {
    return this.#tasks.size;
  }

  /** Cancels and drops every task (shutdown). */
  close(): void {
    for (const { task, timer } of this.#tasks.values()) {
      clearTimeout(timer);
      task.cancel('the server is shutting down');
    }
    this.#tasks.clear();
    this.#listeners.clear();
  }
}
