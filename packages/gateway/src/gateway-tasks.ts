/**
 * Tasks (SEP-2663, `io.modelcontextprotocol/tasks`) through the gateway: a downstream client that
 * declares the extension and calls a tool whose upstream answers with a task gets that task, under
 * a gateway task id bound to that client (`gateway-task-ids.ts`), and its `tasks/get`,
 * `tasks/update` and `tasks/cancel` are relayed to that upstream (what the upstream answers —
 * status, input requests, the tool's result — comes back unchanged but for the id). Another
 * client presenting the id is refused (`TASK_NOT_OWNED`). The gateway keeps no state per task:
 * the upstream holds the task, and any replica of the gateway (same upstreams, same key) answers
 * for any id, so a task survives a replica switch, a replica's restart, and needs no shared store.
 *
 * A 2025 client (2025-11-25) asks for a task with `params.task` instead: it gets the upstream's
 * task in that revision's shape (`{ task }`), and `tasks/get`, `tasks/cancel` (its `Task`) and
 * `tasks/result` (the tool's result once the task ends) are relayed the same way. Its `tasks/list`
 * lists the tasks it started, from the owner index its task ids are recorded in
 * (`gateway-task-list.ts`), each as its upstream has it now; one its upstream no longer has drops out.
 */
import type { Result } from '@modelcontextprotocol/server';
import type { McpClient, TaskState, ToolStart, ToolTask } from '@switchboard/client';
import { SwitchboardError } from '@switchboard/core';
import type { ProviderContext, RelayedTaskMethod, TaskRelay, ToolContext } from '@switchboard/server';
import { JsonRpcErrorCode, ServerError, ServerErrorCode } from '@switchboard/server';
import { type GatewayUpstreamClient, upstreamError } from './gateway-catalog.js';
import type { GatewayTaskIds, TaskOwner } from './gateway-task-ids.js';
import type { GatewayTaskList } from './gateway-task-list.js';

const tasksExtensionId = 'io.modelcontextprotocol/tasks';
/** Where a 2025-11-25 message names the task it belongs to. */
const relatedTaskMetaKey = 'io.modelcontextprotocol/related-task';

/** What task relaying needs of an upstream's client (an `McpClient` fits). */
export type TasksClientPart = Partial<Pick<McpClient, 'startTool' | 'getTask'>>;

/** Where the relay finds the upstream servers. */
export interface GatewayTasksSource {
  client?(server: string): (GatewayUpstreamClient & TasksClientPart) | undefined;
}

/** The owner a call's or tasks request's context names: its auth principal and 2025 session. */
export function taskOwnerOf(context: TaskOwner | undefined): TaskOwner {
  return { principal: context?.principal, sessionId: context?.sessionId };
}

/**
 * Whether the downstream call asked for a 2025-11-25 task (`params.task` from a 2025 client): it is
 * answered with the upstream's task in that revision's shape, when the upstream makes one.
 */
export function asksLegacyTask(context: ToolContext | undefined): boolean {
  return context?.era === 'legacy' && context.taskRequest !== undefined;
}

/** A task state as a 2025-11-25 `Task` under gateway id `taskId`. */
export function legacyTaskOf(state: TaskState, taskId: string): Record<string, unknown> {
  const now = new Date().toISOString();
  return {
    taskId,
    // The two revisions share their statuses: working, input_required, completed, failed, cancelled.
    status: state.status,
    ...(state.statusMessage !== undefined ? { statusMessage: state.statusMessage } : {}),
    createdAt: state.createdAt ?? now,
    lastUpdatedAt: state.lastUpdatedAt ?? state.createdAt ?? now,
    ttl: state.ttlMs ?? null,
    ...(state.pollIntervalMs !== undefined ? { pollInterval: state.pollIntervalMs } : {}),
  };
}

/** Whether the downstream call may be answered with a task: a 2026-07-28 client that declared the extension. */
export function acceptsTasks(context: ToolContext | undefined): boolean {
  if (context?.era !== 'modern') return false;
  const extensions = (context.clientCapabilities as { extensions?: Record<string, unknown> }).extensions;
  return extensions?.[tasksExtensionId] !== undefined;
}

/** How the gateway issues task ids: signed to their owner, and 2025 ones recorded for `tasks/list`. */
export interface TaskIssuing {
  ids: GatewayTaskIds;
  list: GatewayTaskList;
}

/**
 * The downstream answer of an upstream call's start: its result, or its task under a gateway id
 * issued to `owner` (2025-11-25 shape when `legacy`, and recorded for that owner's `tasks/list`).
 */
export async function relayedStart(
  issuing: TaskIssuing,
  server: string,
  start: ToolStart,
  owner: TaskOwner,
  legacy = false,
): Promise<unknown> {
  if (start.task === undefined) return start.result;
  const taskId = issuing.ids.issue(server, start.task.taskId, owner);
  if (!legacy) return { resultType: 'task', ...start.task.state, taskId };
  // Recorded before the answer: the client's next tasks/list, through any replica, has it.
  await issuing.list.record(owner, taskId, start.task.state.ttlMs);
  return { task: legacyTaskOf(start.task.state, taskId) };
}

/** The task relay of a gateway. */
export class GatewayTasks implements TaskRelay {
  readonly specificationVersion = 'v1';
  readonly legacyTasks = true;
  readonly #source: GatewayTasksSource;
  readonly #ids: GatewayTaskIds;
  readonly #list: GatewayTaskList;

  constructor(source: GatewayTasksSource, issuing: TaskIssuing) {
    this.#source = source;
    this.#ids = issuing.ids;
    this.#list = issuing.list;
  }

  /** A 2025 client's `tasks/list`: a page of the tasks it started, each as its upstream has it now. */
  async list(params: { cursor?: string }, context: ProviderContext): Promise<Result> {
    const owner = taskOwnerOf(context);
    const page = await this.#list.page(owner, params.cursor);
    const tasks = await Promise.all(page.entries.map((entry) => this.#listed(entry.taskId, owner)));
    return {
      tasks: tasks.filter((task) => task !== undefined),
      ...(page.nextCursor !== undefined ? { nextCursor: page.nextCursor } : {}),
    } as Result;
  }

  /** One recorded task as listed; `undefined` when it is gone (forgotten) or its upstream is away now (kept). */
  async #listed(taskId: string, owner: TaskOwner): Promise<Record<string, unknown> | undefined> {
    const origin = this.#ids.read(taskId, owner);
    // Signed under a key no longer held (rotated out): no request can use it any more.
    if (origin?.owned !== true) {
      await this.#list.forget(owner, taskId);
      return undefined;
    }
    const client = this.#source.client?.(origin.server) as
      | (GatewayUpstreamClient & TasksClientPart)
      | undefined;
    if (client?.getTask === undefined || client.connected === false) return undefined;
    try {
      return legacyTaskOf((await client.getTask(origin.taskId)).state, taskId);
    } catch (error) {
      // The upstream says it has no such task (expired, or it restarted): it ended for good.
      if (upstreamLostTask(error)) await this.#list.forget(owner, taskId);
      return undefined;
    }
  }

  async relay(
    method: RelayedTaskMethod,
    params: Record<string, unknown> & { taskId: string },
    context: ProviderContext,
  ): Promise<Result | undefined> {
    const origin = this.#ids.read(params.taskId, taskOwnerOf(context));
    if (origin === undefined) return undefined;
    if (!origin.owned) throw notOwned(method, params.taskId);
    const client = this.#clientOf(origin.server, method, params.taskId);
    try {
      const task = await client.getTask(origin.taskId);
      if (context.era === 'legacy') return await answerLegacy(method, task, params.taskId, context.signal);
      if (method === 'tasks/get') return { ...task.state, taskId: params.taskId } as Result;
      if (method === 'tasks/update') await task.update(params.inputResponses as Record<string, unknown>);
      else await task.cancel();
      return {};
    } catch (error) {
      throw upstreamError(origin.server, method, params.taskId, error);
    }
  }

  #clientOf(
    server: string,
    method: string,
    taskId: string,
  ): GatewayUpstreamClient & Required<Pick<TasksClientPart, 'getTask'>> {
    let client: (GatewayUpstreamClient & TasksClientPart) | undefined;
    try {
      client = this.#source.client?.(server);
    } catch {
      client = undefined;
    }
    if (client?.getTask === undefined || client.connected === false) {
      throw new ServerError({
        code: ServerErrorCode.UpstreamUnavailable,
        message: `${method} "${taskId}": the task is upstream MCP server "${server}"'s, which is not connected (it stopped or was removed); try again once it is back.`,
        data: { server, method, taskId },
      });
    }
    return client as GatewayUpstreamClient & Required<Pick<TasksClientPart, 'getTask'>>;
  }
}

/** A 2025-11-25 tasks request on an upstream task: the `Task` (get, cancel) or the tool's result. */
async function answerLegacy(
  method: RelayedTaskMethod,
  task: ToolTask,
  taskId: string,
  signal: AbortSignal,
): Promise<Result> {
  if (method === 'tasks/get') return legacyTaskOf(task.state, taskId) as Result;
  if (method === 'tasks/cancel') {
    await task.cancel();
    return legacyTaskOf(await task.refresh(), taskId) as Result;
  }
  // tasks/result: waits for the end, as the revision says; the result names its task.
  const result = await task.result({ signal });
  return { ...result, _meta: { ...result._meta, [relatedTaskMetaKey]: { taskId } } } as Result;
}

/** Whether an upstream's tasks/get failed because it has no such task (-32602, as both revisions answer). */
function upstreamLostTask(error: unknown): boolean {
  return SwitchboardError.isInstance(error) && error.context?.jsonRpcCode === JsonRpcErrorCode.InvalidParams;
}

/** A gateway task id that is not the caller's: issued to another downstream client, or altered. */
function notOwned(method: string, taskId: string): ServerError {
  return new ServerError({
    code: ServerErrorCode.TaskNotOwned,
    message: `${method} "${taskId}": this task was started by another client of the gateway (another auth principal or session), its id was altered, or it was issued under another key (a gateway restarted, or a replica, without the shared --session-key-file); only the client that started a task may read, answer or cancel it.`,
    data: { taskId, reason: ServerErrorCode.TaskNotOwned },
    context: { method, taskId },
  });
}
