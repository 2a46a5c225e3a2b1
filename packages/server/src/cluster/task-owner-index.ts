/**
 * `TaskOwnerIndex` (v1): which relayed tasks belong to which downstream owner, shared by the
 * replicas. A gateway relays tasks that its own upstream connection created, so the upstream
 * cannot say whose each one is; to answer a 2025-11-25 `tasks/list` the gateway records every id
 * it issues under its owner's key, until the task's TTL ends, and lists the owner's ids from here
 * (from any replica, with the Redis state). An optional capability of a `ClusterState`
 * (`taskOwners`): the memory and Redis states have it; a custom state without it still serves
 * everything else. The in-process index is here too.
 */

/** One recorded task: its id and when its record ends (epoch milliseconds). */
export interface TaskOwnerEntry {
  taskId: string;
  expiresAt: number;
}

/** The shared owner → tasks index. */
export interface TaskOwnerIndex {
  readonly specificationVersion: 'v1';
  /** Records `taskId` as `ownerKey`'s until `expiresAt` (again: the later expiry holds). */
  recordTask(ownerKey: string, taskId: string, expiresAt: number): Promise<void>;
  /** The owner's live tasks, ordered by (`expiresAt`, `taskId`). */
  tasksOf(ownerKey: string): Promise<TaskOwnerEntry[]>;
  /** Drops one task of the owner (it ended upstream). */
  forgetTask(ownerKey: string, taskId: string): Promise<void>;
}

/** The order of {@link TaskOwnerIndex.tasksOf}: by expiry, then id. */
function compareTaskOwnerEntries(a: TaskOwnerEntry, b: TaskOwnerEntry): number {
  if (a.expiresAt !== b.expiresAt) return a.expiresAt - b.expiresAt;
  return a.taskId < b.taskId ? -1 : a.taskId > b.taskId ? 1 : 0;
}

/** The in-process index: one replica's owners and their tasks. */
export function createMemoryTaskOwnerIndex(): TaskOwnerIndex {
  const owners = new Map<string, Map<string, number>>();
  const live = (ownerKey: string): Map<string, number> | undefined => {
    const tasks = owners.get(ownerKey);
    if (tasks === undefined) return undefined;
    const now = Date.now();
    for (const [taskId, expiresAt] of tasks) if (expiresAt <= now) tasks.delete(taskId);
    if (tasks.size === 0) owners.delete(ownerKey);
    return tasks.size === 0 ? undefined : tasks;
  };
  return {
    specificationVersion: 'v1',
    async recordTask(ownerKey, taskId, expiresAt) {
      // Owners that never list again are swept as others record, so the map does not grow for ever.
      if (owners.size >= 1024) for (const key of [...owners.keys()]) live(key);
      const tasks = live(ownerKey) ?? new Map<string, number>();
      tasks.set(taskId, Math.max(expiresAt, tasks.get(taskId) ?? 0));
      owners.set(ownerKey, tasks);
    },
    async tasksOf(ownerKey) {
      const tasks = live(ownerKey);
      if (tasks === undefined) return [];
      return [...tasks].map(([taskId, expiresAt]) => ({ taskId, expiresAt })).sort(compareTaskOwnerEntries);
    },
    async forgetTask(ownerKey, taskId) {
      owners.get(ownerKey)?.delete(taskId);
      live(ownerKey);
    },
  };
}
