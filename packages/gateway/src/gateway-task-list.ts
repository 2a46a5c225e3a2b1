/**
 * The 2025-11-25 `tasks/list` through the gateway (why an index): every upstream task is created
 * by the gateway's own upstream connection, so no upstream can say which downstream client a task
 * is for. The gateway records each 2025 task id it issues under its owner (auth principal and 2025
 * session, hashed into the key) in a `TaskOwnerIndex` until the task's TTL ends — in the cluster
 * state the replicas share when one is given, so a task started through one replica is listed
 * through another — and lists an owner's ids from there, a page at a time, each refreshed from its
 * upstream (`gateway-tasks.ts`). The index holds ids only: status and the rest come from the upstream.
 */
import { createHash } from 'node:crypto';
import type { Logger } from '@switchboard/core';
import { ServerError, ServerErrorCode, type TaskOwnerEntry, type TaskOwnerIndex } from '@switchboard/server';
import type { TaskOwner } from './gateway-task-ids.js';

/** How long a task without a TTL (`ttl: null`, kept as long as its upstream likes) stays listed. */
export const unlimitedTaskListMs = 24 * 60 * 60 * 1000;

/** Options of {@link GatewayTaskList}. */
export interface GatewayTaskListOptions {
  index: TaskOwnerIndex;
  /** Tasks per `tasks/list` page. */
  pageSize: number;
  logger: Logger;
}

/** One page of an owner's recorded tasks. */
export interface TaskListPage {
  entries: TaskOwnerEntry[];
  nextCursor?: string;
}

/**
 * Whether the owner can be told apart from other callers: without auth and without a 2025 session
 * (stateless 2025) every caller is the same owner, and its list would hand one client's task ids
 * (then the only secret) to every other, so such tasks are neither recorded nor listed.
 */
function identified(owner: TaskOwner): boolean {
  return owner.principal !== undefined || owner.sessionId !== undefined;
}

/** The owner's key in the index: a digest, so no principal or session id is stored. */
function ownerKeyOf(owner: TaskOwner): string {
  return createHash('sha256')
    .update(JSON.stringify([owner.principal ?? null, owner.sessionId ?? null]))
    .digest('base64url');
}

/** The opaque cursor after `entry` (its place in the index's order). */
function cursorAfter(entry: TaskOwnerEntry): string {
  return Buffer.from(JSON.stringify([entry.expiresAt, entry.taskId])).toString('base64url');
}

function placeOf(cursor: string): TaskOwnerEntry {
  try {
    const decoded: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(decoded) && typeof decoded[0] === 'number' && typeof decoded[1] === 'string')
      return { expiresAt: decoded[0], taskId: decoded[1] };
  } catch {
    // Answered below.
  }
  throw new ServerError({
    code: ServerErrorCode.InvalidParams,
    message:
      'Invalid params for "tasks/list": cursor is not one this gateway gave out; pass the nextCursor of the previous page, or none for the first.',
    context: { method: 'tasks/list' },
  });
}

function isAfter(entry: TaskOwnerEntry, place: TaskOwnerEntry): boolean {
  return (
    entry.expiresAt > place.expiresAt || (entry.expiresAt === place.expiresAt && entry.taskId > place.taskId)
  );
}

/** The owners' recorded tasks of one gateway (or of every replica sharing the index). */
export class GatewayTaskList {
  readonly #options: GatewayTaskListOptions;

  constructor(options: GatewayTaskListOptions) {
    this.#options = options;
  }

  /**
   * Records a task issued to `owner` for its TTL (`null`: unlimited upstream, kept a day), unless
   * the owner is anonymous and sessionless. A
   * failure is logged, not thrown: the task was made, and its id still works; only the list misses it.
   */
  async record(owner: TaskOwner, taskId: string, ttlMs: number | null | undefined): Promise<void> {
    if (!identified(owner)) return;
    const expiresAt = Date.now() + (typeof ttlMs === 'number' && ttlMs > 0 ? ttlMs : unlimitedTaskListMs);
    try {
      await this.#options.index.recordTask(ownerKeyOf(owner), taskId, expiresAt);
    } catch (error) {
      this.#options.logger.warn(
        `task ${taskId} was started but could not be recorded for tasks/list (${error instanceof Error ? error.message : String(error)}): the task works, its owner's tasks/list will miss it`,
      );
    }
  }

  /** The owner's recorded tasks after `cursor`, one page. */
  async page(owner: TaskOwner, cursor: string | undefined): Promise<TaskListPage> {
    const place = cursor === undefined ? undefined : placeOf(cursor);
    if (!identified(owner)) return { entries: [] };
    const all = await this.#options.index.tasksOf(ownerKeyOf(owner));
    const rest = place === undefined ? all : all.filter((entry) => isAfter(entry, place));
    const entries = rest.slice(0, this.#options.pageSize);
    const last = entries.at(-1);
    return rest.length > entries.length && last !== undefined
      ? { entries, nextCursor: cursorAfter(last) }
      : { entries };
  }

  /** Drops a task its upstream no longer has. */
  async forget(owner: TaskOwner, taskId: string): Promise<void> {
    await this.#options.index.forgetTask(ownerKeyOf(owner), taskId);
  }
}
