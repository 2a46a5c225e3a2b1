/**
 * The `WebhookSubscriptionStore` of the Redis cluster state. A subscription is one hash
 * (`webhook:<id>`: `s` its JSON, `c` its cursor's JSON) expiring at the subscription's end, listed
 * in one set (`webhooks`, pruned of expired ids as it is read); its delivery lease is a key of its
 * own set with NX and a PX expiry. Every step that reads and then writes (a refresh keeping the
 * cursor, renewing or releasing only one's own lease, the cursor's compare-and-set) is one Lua
 * script, so two replicas never interleave inside it.
 */
import type { Redis } from 'ioredis';
import type { StoredWebhookSubscription, WebhookSubscriptionStore } from './webhook-subscription-store.js';

/** What the store needs of its cluster state. */
export interface RedisWebhookStoreParts {
  commands: Redis;
  prefix: string;
  /** Runs one command, its failure turned into `CLUSTER_UNAVAILABLE`. */
  run<T>(command: () => Promise<T>): Promise<T>;
}

// Stores the subscription, keeps an existing cursor, and answers the cursor now stored.
const putScript = `
redis.call('HSET', KEYS[1], 's', ARGV[1])
redis.call('HSETNX', KEYS[1], 'c', ARGV[2])
redis.call('PEXPIREAT', KEYS[1], ARGV[3])
redis.call('SADD', KEYS[2], ARGV[4])
return redis.call('HGET', KEYS[1], 'c')`;

// Takes a free lease, or renews one's own.
const acquireScript = `
local holder = redis.call('GET', KEYS[1])
if holder == false then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0`;

const releaseScript = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 0`;

const advanceScript = `
local cursor = redis.call('HGET', KEYS[1], 'c')
if cursor == false or cursor ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'c', ARGV[2])
return 1`;

/** The store over the cluster state's command connection. */
export function createRedisWebhookStore(parts: RedisWebhookStoreParts): WebhookSubscriptionStore {
  const { commands, prefix, run } = parts;
  const index = `${prefix}webhooks`;
  const keyOf = (id: string) => `${prefix}webhook:${id}`;
  const leaseOf = (id: string) => `${prefix}webhook-lease:${id}`;
  const parse = (id: string, data: string | null, cursor: string | null) => {
    if (data === null || cursor === null) return undefined;
    const { cursor: _ignored, ...stored } = JSON.parse(data) as StoredWebhookSubscription;
    return { ...stored, id, cursor: JSON.parse(cursor) as string | null };
  };
  return {
    specificationVersion: 'v1',
    async putWebhookSubscription(subscription) {
      const { cursor, ...data } = subscription;
      const stored = await run(
        () =>
          commands.eval(
            putScript,
            2,
            keyOf(subscription.id),
            index,
            JSON.stringify(data),
            JSON.stringify(cursor),
            String(subscription.expiresAt),
            subscription.id,
          ) as Promise<string>,
      );
      return { ...subscription, cursor: JSON.parse(stored) as string | null };
    },
    async getWebhookSubscription(id) {
      const [data, cursor] = await run(() => commands.hmget(keyOf(id), 's', 'c'));
      return parse(id, data ?? null, cursor ?? null);
    },
    async deleteWebhookSubscription(id) {
      const results = await run(() =>
        commands.multi().del(keyOf(id)).del(leaseOf(id)).srem(index, id).exec(),
      );
      return Number(results?.[0]?.[1]) > 0;
    },
    async listWebhookSubscriptions() {
      const ids = await run(() => commands.smembers(index));
      if (ids.length === 0) return [];
      const pipeline = commands.pipeline();
      for (const id of ids) pipeline.exists(keyOf(id));
      const exists = await run(() => pipeline.exec());
      const expired = ids.filter((_, at) => Number(exists?.[at]?.[1]) === 0);
      if (expired.length > 0) await run(() => commands.srem(index, ...expired));
      return ids.filter((_, at) => Number(exists?.[at]?.[1]) === 1);
    },
    async acquireWebhookLease(id, holder, ttlMs) {
      const held = await run(() => commands.eval(acquireScript, 1, leaseOf(id), holder, String(ttlMs)));
      return held === 1;
    },
    async releaseWebhookLease(id, holder) {
      await run(() => commands.eval(releaseScript, 1, leaseOf(id), holder));
    },
    async advanceWebhookCursor(id, from, to) {
      const moved = await run(() =>
        commands.eval(advanceScript, 1, keyOf(id), JSON.stringify(from), JSON.stringify(to)),
      );
      return moved === 1;
    },
  };
}
