/**
 * The tasks extension (SEP-2663) on the dispatcher: starting a task for a long-running tool, and
 * `tasks/get`, `tasks/update`, `tasks/cancel`. Every tasks method needs the client to declare the
 * extension on the request (-32021 otherwise).
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
import { type TaskRecord, tasksExtensionId } from '../../tasks/task-store.js';
import { declaresTasks, taskOptionsOf } from '../../tasks/task-support.js';
import type { ServerScope } from '../server-scope.js';
import { ToolInvocation } from '../tool-invocation.js';
import { invalidParams } from './params-check.js';

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

function taskOf(request: InboundRequest, scope: ServerScope): TaskRecord {
  if (!declaresTasks(request)) throw tasksExtensionRequired();
  const taskId = request.params?.taskId;
  if (typeof taskId !== 'string')
    throw invalidParams(request.method, 'taskId: expected the task id as a string');
  const task = scope.tasks.get(taskId);
  if (task === undefined) {
    throw new ServerError({
      code: ServerErrorCode.TaskNotFound,
      message: `Unknown task "${taskId}": it never existed, expired, or belongs to another server process.`,
      context: { taskId },
    });
  }
  return task;
}

/** `tasks/get`: the task with its open questions, result or error. */
export function getTask(request: InboundRequest, scope: ServerScope): Result {
  return taskOf(request, scope).detailed() as unknown as Result;
}

/** `tasks/update`: answers to the task's open questions; an empty acknowledgement. */
export function updateTask(request: InboundRequest, scope: ServerScope): Result {
  const task = taskOf(request, scope);
  const responses = request.params?.inputResponses;
  if (typeof responses !== 'object' || responses === null || Array.isArray(responses)) {
    throw invalidParams(
      'tasks/update',
      'inputResponses: expected an object mapping input request keys to answers',
    );
  }
  task.answer(responses as Record<string, unknown>);
  return {};
}

/** `tasks/cancel`: cancels the task (idempotent on finished tasks); an empty acknowledgement. */
export function cancelTask(request: InboundRequest, scope: ServerScope): Result {
  taskOf(request, scope).cancel();
  return {};
}
