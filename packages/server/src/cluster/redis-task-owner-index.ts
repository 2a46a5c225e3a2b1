/**
 * The `TaskOwnerIndex` of the Redis cluster state: one sorted set per owner
 * (`task-owner:<ownerKey>`), its members the task ids scored by their expiry, the key itself
 * expiring with its last task. Expired members are pruned as the set is read or written, in the
 * same script, so two replicas never interleave inside a step.
 */
import type { Redis } from 'ioredis';
import type { TaskOwnerEntry, TaskOwnerIndex } from './task-owner-index.js';

/** What the index needs of its cluster state. */
export interface RedisTaskOwnerIndexParts {
  commands: Redis;
  prefix: string;
  /** Runs one command, its failure turned into `CLUSTER_UNAVAILABLE`. */
  run<T>(command: () => Promise<T>): Promise<T>;
}

// Prunes, records (GT keeps the later expiry and still adds a new member), and lets the key live as long as its last task.
const recordScript = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
redis.call('ZADD', KEYS[1], 'GT', ARGV[2], ARGV[3])
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
redis.call('PEXPIREAT', KEYS[1], last[2])
return 0`;

const listScript = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
return redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')`;

/** The index over the cluster state's command connection. */
export function createRedisTaskOwnerIndex(parts: RedisTaskOwnerIndexParts): TaskOwnerIndex {
  const { commands, prefix, run } = parts;
  const keyOf = (ownerKey: string) => `${prefix}task-owner:${ownerKey}`;
  return {
    specificationVersion: 'v1',
    async recordTask(ownerKey, taskId, expiresAt) {
      await run(() =>
        commands.eval(recordScript, 1, keyOf(ownerKey), String(Date.now()), String(expiresAt), taskId),
      );
    },
    async tasksOf(ownerKey) {
      const flat = (await run(() =>
        commands.eval(listScript, 1, keyOf(ownerKey), String(Date.now())),
      )) as string[];
      const entries: TaskOwnerEntry[] = [];
      for (let index = 0; index + 1 < flat.length; index += 2) {
        entries.push({ taskId: flat[index] as string, expiresAt: Number(flat[index + 1]) });
      }
      // Redis orders equal scores by member bytes, as compareTaskOwnerEntries does.
      return entries;
    },
    async forgetTask(ownerKey, taskId) {
      await run(() => commands.zrem(keyOf(ownerKey), taskId));
    },
  };
}
