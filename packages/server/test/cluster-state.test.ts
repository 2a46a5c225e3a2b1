/**
 * The `ClusterState` v1 contract, run against both implementations: the built-in in-memory one
 * and the Redis one (real Redis, a random key prefix of its own).
 */
import { randomBytes } from 'node:crypto';
import { createEventLog } from '@switchboard/test-helpers';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, test } from 'vitest';
import {
  type ClusterState,
  createMemoryClusterState,
  ServerErrorCode,
  webhookStoreOf,
} from '../src/index.js';
import { createRedisClusterState } from '../src/redis.js';
import { testRedisUrl } from './fixtures/replica-set.js';

const prefix = `sbtest:${randomBytes(6).toString('hex')}:`;
const created: ClusterState[] = [];
afterAll(async () => {
  await Promise.all(created.map((state) => state.close()));
  const redis = new Redis(testRedisUrl);
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

const implementations: Array<[string, () => ClusterState]> = [
  ['memory', () => createMemoryClusterState({ replicaId: 'm1' })],
  ['redis', () => createRedisClusterState({ url: testRedisUrl, keyPrefix: prefix, replicaId: 'c1' })],
];

for (const [name, make] of implementations) {
  describe(`ClusterState v1 (${name})`, () => {
    const state = make();
    created.push(state);

    test('task owners: per owner, ordered by expiry then id, the later expiry kept, forgotten, expired ones gone', async () => {
      const index = state.taskOwners ?? expect.fail('the built-in states have a task owner index');
      const owner = `o_${randomBytes(6).toString('hex')}`;
      const later = Date.now() + 60_000;
      await index.recordTask(owner, 'b', later);
      await index.recordTask(owner, 'a', later);
      await index.recordTask(owner, 'c', later - 1000);
      // Recorded again with an earlier expiry: the later one holds.
      await index.recordTask(owner, 'b', later - 5000);
      await index.recordTask(`${owner}-other`, 'x', later);
      expect(await index.tasksOf(owner)).toEqual([
        { taskId: 'c', expiresAt: later - 1000 },
        { taskId: 'a', expiresAt: later },
        { taskId: 'b', expiresAt: later },
      ]);
      await index.forgetTask(owner, 'a');
      // Ended already: never listed.
      await index.recordTask(owner, 'd', Date.now() - 1);
      expect((await index.tasksOf(owner)).map((entry) => entry.taskId)).toEqual(['c', 'b']);
      expect((await index.tasksOf(`${owner}-other`)).map((entry) => entry.taskId)).toEqual(['x']);
      expect(await index.tasksOf(`${owner}-nobody`)).toEqual([]);
    });

    test('webhook subscriptions: refresh keeps the cursor, one lease holder, cursor by compare-and-set, expiry', async () => {
      const store = webhookStoreOf(state, 'test');
      const id = `sub_${randomBytes(6).toString('hex')}`;
      const subscription = {
        id,
        principal: 'p',
        name: 'incident.created',
        arguments: { service: 'api' },
        url: 'https://hooks.example.com/in',
        secret: 'whsec_x',
        expiresAt: Date.now() + 60_000,
        cursor: 'c0',
      };
      expect(await store.putWebhookSubscription(subscription)).toEqual(subscription);
      expect(await store.listWebhookSubscriptions()).toContain(id);
      expect(await store.advanceWebhookCursor(id, 'other', 'c1')).toBe(false);
      expect(await store.advanceWebhookCursor(id, 'c0', 'c1')).toBe(true);
      // A refresh takes the new secret but does not rewind deliveries.
      const refreshed = await store.putWebhookSubscription({
        ...subscription,
        secret: 'whsec_y',
        cursor: null,
      });
      expect(refreshed.cursor).toBe('c1');
      expect(await store.getWebhookSubscription(id)).toEqual({
        ...subscription,
        secret: 'whsec_y',
        cursor: 'c1',
      });
      expect(await store.acquireWebhookLease(id, 'r1', 60_000)).toBe(true);
      expect(await store.acquireWebhookLease(id, 'r2', 60_000)).toBe(false);
      expect(await store.acquireWebhookLease(id, 'r1', 60_000)).toBe(true);
      await store.releaseWebhookLease(id, 'r2');
      expect(await store.acquireWebhookLease(id, 'r2', 60_000)).toBe(false);
      await store.releaseWebhookLease(id, 'r1');
      expect(await store.acquireWebhookLease(id, 'r2', 200)).toBe(true);
      // An unrenewed lease lapses: another holder takes it.
      await expect
        .poll(() => store.acquireWebhookLease(id, 'r3', 60_000), { timeout: 10_000, interval: 50 })
        .toBe(true);
      expect(await store.deleteWebhookSubscription(id)).toBe(true);
      expect(await store.deleteWebhookSubscription(id)).toBe(false);
      expect(await store.getWebhookSubscription(id)).toBeUndefined();
      expect(await store.advanceWebhookCursor(id, 'c1', 'c2')).toBe(false);
      const short = { ...subscription, id: `${id}s`, expiresAt: Date.now() + 200 };
      await store.putWebhookSubscription(short);
      await expect
        .poll(() => store.listWebhookSubscriptions(), { timeout: 10_000, interval: 50 })
        .not.toContain(short.id);
      expect(await store.getWebhookSubscription(short.id)).toBeUndefined();
    });

    test('is a v1 state with a replica id', () => {
      expect(state.specificationVersion).toBe('v1');
      expect(state.replicaId).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(state.shared).toBe(name === 'redis');
    });

    test('ready() answers true while the backend is up', async () => {
      expect(await state.ready()).toBe(true);
    });

    test('revocation: unknown sessions are not revoked; revoked ones are until their TTL', async () => {
      const key = randomBytes(8).toString('hex');
      expect(await state.isSessionRevoked(key)).toBe(false);
      await state.revokeSession(key, 300);
      expect(await state.isSessionRevoked(key)).toBe(true);
      await expect.poll(() => state.isSessionRevoked(key), { timeout: 10_000, interval: 100 }).toBe(false);
    });

    test('countCall: a window counts from its first call, with the time left', async () => {
      const key = randomBytes(8).toString('hex');
      const counts = [];
      for (let call = 0; call < 5; call += 1) counts.push(await state.countCall(key, 60_000));
      expect(counts.map((counted) => counted.count)).toEqual([1, 2, 3, 4, 5]);
      for (const counted of counts) {
        expect(counted.resetInMs).toBeGreaterThan(0);
        expect(counted.resetInMs).toBeLessThanOrEqual(60_000);
      }
      expect((await state.countCall(`${key}-other`, 60_000)).count).toBe(1);
    });

    test('readLog: stored entries after a sequence, then followed entries until the end entry', async () => {
      const log = randomBytes(8).toString('hex');
      for (let seq = 1; seq <= 3; seq += 1)
        await state.appendLog(log, { seq, message: { jsonrpc: '2.0', method: `m${seq}` } }, 60_000);
      const abort = new AbortController();
      const seen = createEventLog<unknown>('entries read from the log');
      const reading = (async () => {
        for await (const entry of state.readLog(log, 1, { signal: abort.signal, follow: true }))
          seen.push(entry);
      })();
      expect(await seen.atLeast(2)).toHaveLength(2);
      await state.appendLog(log, { seq: 4, message: { jsonrpc: '2.0', method: 'm4' } }, 60_000);
      await state.appendLog(log, { seq: 5, end: true }, 60_000);
      await reading;
      expect(seen.entries).toEqual([
        { seq: 2, message: { jsonrpc: '2.0', method: 'm2' } },
        { seq: 3, message: { jsonrpc: '2.0', method: 'm3' } },
        { seq: 4, message: { jsonrpc: '2.0', method: 'm4' } },
        { seq: 5, end: true },
      ]);
      const unknown: unknown[] = [];
      for await (const entry of state.readLog(`${log}-none`, 0, { signal: abort.signal, follow: true }))
        unknown.push(entry);
      expect(unknown).toEqual([]);
    });

    test('forwardResponse reaches the named replica', async () => {
      const received = createEventLog<unknown>('forwarded responses');
      const stop = state.onForwardedResponse(received.push);
      const response = {
        sessionId: 's1',
        message: { jsonrpc: '2.0' as const, id: `${state.replicaId}.x-1`, result: {} },
      };
      await state.forwardResponse(state.replicaId, response);
      expect(await received.atLeast(1)).toEqual([response]);
      stop();
    });

    test('forwardRequest: the named replica answers, its partials arrive first and in order', async () => {
      const stop = state.onForwardedRequest(async (payload, { partial, from }) => {
        for (let step = 1; step <= 3; step++) partial({ step });
        return { got: payload, from };
      });
      let partials: unknown[] = [];
      // Redis: the subscriber connects on its own; relay until it listens.
      const relay = () => {
        partials = [];
        return state
          .forwardRequest(
            state.replicaId,
            { question: 42 },
            { timeoutMs: 5_000, onPartial: (value) => partials.push(value) },
          )
          .catch(() => undefined);
      };
      await expect.poll(relay, { timeout: 10_000 }).toEqual({ got: { question: 42 }, from: state.replicaId });
      expect(partials).toEqual([{ step: 1 }, { step: 2 }, { step: 3 }]);
      stop();
    });

    test('forwardRequest to a replica nobody runs fails at once with REPLICA_UNREACHABLE', async () => {
      const started = performance.now();
      await expect(state.forwardRequest('nobody', {}, { timeoutMs: 30_000 })).rejects.toMatchObject({
        code: ServerErrorCode.ReplicaUnreachable,
        message: expect.stringContaining('nobody'),
      });
      expect(performance.now() - started).toBeLessThan(2_000);
    });
  });
}

describe('Redis relayed requests between two replicas', () => {
  test('concurrent relays are told apart; a failing handler and a missing one are refused with the reason', async () => {
    const one = createRedisClusterState({ url: testRedisUrl, keyPrefix: prefix, replicaId: 'q1' });
    const two = createRedisClusterState({ url: testRedisUrl, keyPrefix: prefix, replicaId: 'q2' });
    created.push(one, two);
    await Promise.all([one.ready(), two.ready()]);
    const stop = two.onForwardedRequest(async (payload) => {
      const { n } = payload as { n: number };
      if (n < 0) throw new Error('negative');
      await new Promise((resolve) => setTimeout(resolve, 50 - n));
      return n * 2;
    });
    // The subscribers connect on their own: relay until the first one gets through.
    await expect
      .poll(() => one.forwardRequest('q2', { n: 0 }, { timeoutMs: 1_000 }).catch(() => -1), {
        timeout: 10_000,
      })
      .toBe(0);
    const answers = await Promise.all(
      [1, 2, 3, 4, 5].map((n) => one.forwardRequest('q2', { n }, { timeoutMs: 5_000 })),
    );
    expect(answers).toEqual([2, 4, 6, 8, 10]);
    await expect(one.forwardRequest('q2', { n: -1 }, { timeoutMs: 5_000 })).rejects.toMatchObject({
      code: ServerErrorCode.ReplicaUnreachable,
      message: expect.stringContaining('negative'),
    });
    stop();
    await expect(one.forwardRequest('q2', { n: 1 }, { timeoutMs: 5_000 })).rejects.toMatchObject({
      code: ServerErrorCode.ReplicaUnreachable,
      message: expect.stringContaining('serves no relayed requests'),
    });
  });
});

describe('Redis cluster state between two replicas', () => {
  test('change events and subscription changes reach the other replica, not the publisher', async () => {
    const one = createRedisClusterState({ url: testRedisUrl, keyPrefix: prefix, replicaId: 'p1' });
    const two = createRedisClusterState({ url: testRedisUrl, keyPrefix: prefix, replicaId: 'p2' });
    created.push(one, two);
    await Promise.all([one.ready(), two.ready()]);
    const atOne: unknown[] = [];
    const atTwo: unknown[] = [];
    one.onRemoteEvent((event) => atOne.push(event));
    two.onRemoteEvent((event) => atTwo.push(event));
    const subscriptions = createEventLog<unknown>('subscription changes heard by p2');
    two.onRemoteSubscription(subscriptions.push);
    // The subscriber connects on its own: publish until the other side has heard one.
    await expect
      .poll(
        () => {
          if (atTwo.length === 0) one.publishEvent({ kind: 'tools_list_changed' });
          return atTwo.length;
        },
        { timeout: 10_000, interval: 200 },
      )
      .toBeGreaterThan(0);
    expect(atOne).toEqual([]);
    await one.changeSubscription('k1', { sessionId: 's1', uri: 'test://a', subscribed: true }, 60_000);
    expect(await subscriptions.atLeast(1)).toEqual([{ sessionId: 's1', uri: 'test://a', subscribed: true }]);
    expect(await two.subscriptionsOf('k1')).toEqual(['test://a']);
  });

  test('bad options are refused with a clear error, the URL without its password', () => {
    expect(() => createRedisClusterState({ url: 'http://x', replicaId: 'a' })).toThrow(
      /redis:\/\/ or rediss:\/\//,
    );
    expect(() => createRedisClusterState({ url: 'redis://:pw@127.0.0.1:1', replicaId: 'a b' })).toThrow(
      /replicaId must be 1-64 letters/,
    );
    const state = createRedisClusterState({ url: 'redis://user:hunter2@127.0.0.1:1/0', replicaId: 'x1' });
    created.push(state);
    expect(state.location).toBe('redis://127.0.0.1:1/0');
  });
});

describe('webhook subscriptions of a custom cluster state', () => {
  test('a state without the capability is a clear CONFIG_INVALID, naming who asked', () => {
    const { webhookSubscriptions: _none, ...custom } = createMemoryClusterState();
    expect(() => webhookStoreOf(custom, 'createGateway({ webhooks: { cluster } })')).toThrow(
      expect.objectContaining({
        code: ServerErrorCode.ConfigInvalid,
        message: expect.stringContaining('createGateway({ webhooks: { cluster } })'),
      }),
    );
  });
});

describe('the root entry', () => {
  test('never loads ioredis: only the redis subpath imports the Redis state', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const root = new URL('../src/', import.meta.url).pathname;
    const importers: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (
          /(from|import)\s*\(?\s*'[^']*(redis-cluster-state|redis-webhook-store|ioredis)/.test(
            readFileSync(path, 'utf8'),
          )
        )
          importers.push(path.slice(root.length));
      }
    };
    walk(root);
    // The webhook store's and task owner index's Redis halves are reached only through the Redis state.
    expect(importers.sort()).toEqual([
      'cluster/redis-cluster-state.ts',
      'cluster/redis-task-owner-index.ts',
      'cluster/redis-webhook-store.ts',
      'redis.ts',
    ]);
  });
});
