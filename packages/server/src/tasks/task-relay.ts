/**
 * The extension point for tasks (SEP-2663) that live elsewhere: a gateway whose upstream answered
 * a call with a task hands the downstream client that task under an id of its own, and answers
 * `tasks/get`, `tasks/update` and `tasks/cancel` for such ids by asking the upstream. The server
 * asks the relay only for an id its own store does not hold. A relay with `legacyTasks` also
 * answers the 2025-11-25 task methods (`tasks/get`, `tasks/result`, `tasks/cancel`, in that
 * revision's shapes) for 2025 clients, which then see the `tasks` capability; one that also has
 * `list` answers their `tasks/list` (the capability then says `list`).
 */
import type { Result } from '@modelcontextprotocol/server';
import type { ProviderContext } from '../catalog/content-provider.js';

/** The tasks methods a relay answers. */
export type RelayedTaskMethod = 'tasks/get' | 'tasks/update' | 'tasks/cancel' | 'tasks/result';

/** Tasks held by someone else (`specificationVersion: 'v1'`). */
export interface TaskRelay {
  readonly specificationVersion: 'v1';
  /**
   * Also answers 2025 clients (`context.era: 'legacy'`): `tasks/get` and `tasks/cancel` with the
   * 2025-11-25 `Task`, `tasks/result` with the tool's result once the task ends. The server then
   * declares `tasks: { cancel, requests: { tools: { call } } }` to 2025 clients, and a tool called
   * with `params.task` sees it as `context.taskRequest`. @default false
   */
  readonly legacyTasks?: boolean;
  /**
   * Answers `method` for the task `params.taskId` names; `undefined` when the id is not one of its
   * own (the server then answers that the task is unknown).
   */
  relay(
    method: RelayedTaskMethod,
    params: Record<string, unknown> & { taskId: string },
    context: ProviderContext,
  ): Promise<Result | undefined>;
  /**
   * Answers a 2025 client's `tasks/list` (with `legacyTasks`): the caller's own tasks, a page from
   * `params.cursor` (`{ tasks, nextCursor? }`). @default none (the method is not served)
   */
  list?(params: Record<string, unknown> & { cursor?: string }, context: ProviderContext): Promise<Result>;
}
