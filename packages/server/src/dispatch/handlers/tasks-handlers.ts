/**
 * The tasks extension (SEP-2663) on the dispatcher: starting a task for a long-running tool, and
 * `tasks/get`, `tasks/update`, `tasks/cancel` (of this server's tasks, else through its task relay).
 * Every tasks method needs the client to declare the extension on the request (-32021 otherwise).
 */
import {
  type ClientCapabilities,
  MissingRequiredClientCapabilityError,
  type Result,
} from '@modelcontextprotocol/server';
import type { ServedTool } from '../../catalog/tool-catalog.js';
import { ServerError, ServerErrorCode } from '../../errors/server-error.js';
import { toWireError } from '../../errors/to-wire-error.js';
import type { InboundRequest } from '../../request/inbound-request.js';
import { silentChannel } from '../../request/request-channel.js';
import type { RelayedTaskMethod } from '../../tasks/task-relay.js';
import { type TaskRecord, tasksExtensionId } from '../../tasks/task-store.js';
import { declaresTasks, taskOptionsOf } from '../../tasks/task-support.js';
import type { ServerScope } from '../server-scope.js';
import { ToolInvocation } from '../tool-invocation.js';
import { invalidParams } from './params-check.js';
import { providerContext } from './resources-handlers.js';

/** The -32021 error naming the tasks extension. */
export function tasksExtensionRequired(): MissingRequiredClientCapabilityError {
  return new MissingRequiredClientCapabilityError({
    requiredCapabilities: { extensions: { [tasksExtensionId]: {} } } as ClientCapabilities,
  });
}

/**
 * Starts a task for a long-running tool when the client declared the extension (its
 * `CreateTaskResult`); undefined to run the call plainly. A `required` task tool called without
 * the extension is refused with -32021.
 */
export function startToolTask(
  request: InboundRequest,
  scope: ServerScope,
  tool: ServedTool,
  args: Record<string, unknown>,
): Result | undefined {
  const options = taskOptionsOf(tool);
  if (options === undefined) return undefined;
  if (!declaresTasks(request)) {
    if (options.mode === 'required') throw tasksExtensionRequired();
    return undefined;
  }
  // The tool asks for its task itself (`context.continueAsTask()`), after any rounds of input.
  if (options.start === 'on-request') return undefined;
  const task = scope.tasks.create({
    ttlMs: options.ttlMs ?? 3_600_000,
    pollIntervalMs: options.pollIntervalMs ?? 500,
  });
  // The run outlives the request: it has its own cancellation (tasks/cancel) and no stream.
  const taskRequest: InboundRequest = { ...request, channel: silentChannel, abort: task.abort };
  void runTask(task, new ToolInvocation(taskRequest, scope, tool, args));
  return { resultType: 'task', ...task.info() } as Result;
}

async function runTask(task: TaskRecord, invocation: ToolInvocation): Promise<void> {
  try {
    const result = await invocation.run(undefined, task);
    task.complete(result as Record<string, unknown>);
  } catch (error) {
    if (task.abort.aborted) return;
    task.fail(toWireError(error));
  }
}

/** The task id of a tasks request (the extension declared, the id a string). */
function taskIdOf(request: InboundRequest): string {
  if (!declaresTasks(request)) throw tasksExtensionRequired();
  const taskId = request.params?.taskId;
  if (typeof taskId !== 'string')
    throw invalidParams(request.method, 'taskId: expected the task id as a string');
  return taskId;
}

function unknownTask(taskId: string): ServerError {
  return new ServerError({
    code: ServerErrorCode.TaskNotFound,
    message: `Unknown task "${taskId}": it never existed, expired, or belongs to another server process.`,
    context: { taskId },
  });
}

/**
 * Answers a tasks request: from this server's own store (`own`), else through the task relay
 * (a gateway's upstream tasks), else the task is unknown.
 */
async function answerTask(
  request: InboundRequest,
  scope: ServerScope,
  own: (task: TaskRecord) => Result,
): Promise<Result> {
  const taskId = taskIdOf(request);
  const task = scope.tasks.get(taskId);
  if (task !== undefined) return own(task);
  const relayed = await scope.taskRelay?.relay(
    request.method as RelayedTaskMethod,
    { ...request.params, taskId },
    providerContext(request),
  );
  if (relayed === undefined) throw unknownTask(taskId);
  return relayed;
}

/**
 * A 2025-11-25 tasks request (a 2025 client): answered through a task relay that takes them, else
 * the method is not served (the server does not declare the `tasks` capability then).
 */
async function answerLegacyTask(request: InboundRequest, scope: ServerScope): Promise<Result> {
  if (scope.taskRelay?.legacyTasks !== true) {
    throw new ServerError({
      code: ServerErrorCode.MethodNotFound,
      message: `Method not found: "${request.method}" (this server serves 2025-11-25 tasks only for the tasks it relays, and relays none).`,
      context: { method: request.method },
    });
  }
  const taskId = request.params?.taskId;
  if (typeof taskId !== 'string')
    throw invalidParams(request.method, 'taskId: expected the task id as a string');
  const relayed = await scope.taskRelay.relay(
    request.method as RelayedTaskMethod,
    { ...request.params, taskId },
    providerContext(request),
  );
  if (relayed === undefined) throw unknownTask(taskId);
  return relayed;
}

/** `tasks/get`: the task with its open questions, result or error. */
export function getTask(request: InboundRequest, scope: ServerScope): Promise<Result> {
  if (request.era === 'legacy') return answerLegacyTask(request, scope);
  return answerTask(request, scope, (task) => task.detailed() as unknown as Result);
}

/** `tasks/list` (2025-11-25): the caller's relayed tasks, through a task relay that lists them. */
export async function listTasks(request: InboundRequest, scope: ServerScope): Promise<Result> {
  const relay = scope.taskRelay;
  if (relay?.legacyTasks !== true || relay.list === undefined) {
    throw new ServerError({
      code: ServerErrorCode.MethodNotFound,
      message: `Method not found: "tasks/list" (this server lists only the tasks it relays, and its task relay lists none).`,
      context: { method: request.method },
    });
  }
  const cursor = request.params?.cursor;
  if (cursor !== undefined && typeof cursor !== 'string')
    throw invalidParams('tasks/list', 'cursor: expected the nextCursor of an earlier page, as a string');
  return relay.list(
    { ...request.params, ...(cursor !== undefined ? { cursor } : {}) },
    providerContext(request),
  );
}

/** `tasks/result` (2025-11-25): the relayed task's result, once it ended. */
export function getTaskResult(request: InboundRequest, scope: ServerScope): Promise<Result> {
  return answerLegacyTask(request, scope);
}

/** `tasks/update`: answers to the task's open questions; an empty acknowledgement. */
export function updateTask(request: InboundRequest, scope: ServerScope): Promise<Result> {
  const responses = request.params?.inputResponses;
  if (typeof responses !== 'object' || responses === null || Array.isArray(responses)) {
    taskIdOf(request);
    throw invalidParams(
      'tasks/update',
      'inputResponses: expected an object mapping input request keys to answers',
    );
  }
  return answerTask(request, scope, (task) => {
    task.answer(responses as Record<string, unknown>);
    return {};
  });
}

/** `tasks/cancel`: cancels the task (idempotent on finished tasks); an empty acknowledgement. */
export function cancelTask(request: InboundRequest, scope: ServerScope): Promise<Result> {
  if (request.era === 'legacy') return answerLegacyTask(request, scope);
  return answerTask(request, scope, (task) => {
    task.cancel();
    return {};
  });
}
