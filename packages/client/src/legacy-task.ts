/**
 * 2025-11-25 tasks (the revision's core `tasks` capability, before the SEP-2663 extension): a
 * server that declares `tasks.requests.tools.call` runs a tool call as a task when the call carries
 * `params.task`, and answers with a `CreateTaskResult` (`{ task }`); the task is read with
 * `tasks/get` (a `Task`), its outcome with `tasks/result` (the tool's result, or the JSON-RPC error
 * it failed with), and it is cancelled with `tasks/cancel`. Here the 2025 shapes become the
 * client's one {@link TaskState}, so a task of either era is the same `ToolTask`.
 */
import type { ServerCapabilities, Tool } from '@modelcontextprotocol/client';
import type { CreatedTask } from './result-decoding.js';

/** Whether a 2025 server runs tool calls as tasks (`capabilities.tasks.requests.tools.call`). */
export function runsToolTasks(capabilities: ServerCapabilities | undefined): boolean {
  const tasks = (capabilities as { tasks?: { requests?: { tools?: { call?: unknown } } } } | undefined)
    ?.tasks;
  return tasks?.requests?.tools?.call !== undefined;
}

/** A tool's 2025-11-25 task support (`execution.taskSupport`; absent reads as `forbidden`, as the revision says). */
export function taskSupportOf(tool: Tool | undefined): 'forbidden' | 'optional' | 'required' {
  const support = (tool as { execution?: { taskSupport?: unknown } } | undefined)?.execution?.taskSupport;
  return support === 'optional' || support === 'required' ? support : 'forbidden';
}

/** A 2025-11-25 `Task` (from `CreateTaskResult.task`, `tasks/get` or `tasks/cancel`) as a created task; `undefined` for anything else. */
export function fromLegacyTask(value: unknown): CreatedTask | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { ttl, pollInterval, _meta: _ignored, ...rest } = value as Record<string, unknown>;
  if (typeof rest.taskId !== 'string' || typeof rest.status !== 'string') return undefined;
  return {
    ...(rest as CreatedTask),
    ...(ttl === null || typeof ttl === 'number' ? { ttlMs: ttl } : {}),
    ...(typeof pollInterval === 'number' ? { pollIntervalMs: pollInterval } : {}),
  };
}
