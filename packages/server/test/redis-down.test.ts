/**
 * Redis goes away and comes back, under two replicas: stateless 2026-07-28 calls keep working,
 * session requests fail fast with 503 naming Redis (never its password), `/ready` says so, and
 * everything works again once Redis is back, without a restart (reconnect, re-subscribe).
 */

import type { Logger } from '@switchboard/core';
import { envelope, freePort, post } from '@switchboard/test-helpers';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { defineTool, JsonRpcErrorCode } from '../src/index.js';
import { type OwnRedis, ownRedis } from './fixtures/own-redis.js';
import { openSession, readSse, sessionHeaders, sessionRequest } from './fixtures/raw-session.js';
import { type ReplicaSet, startReplicas } from './fixtures/replica-set.js';

const password = 's3cret-redis-pass';
const logged: string[] = [];
const record = (...args: unknown[]) => {
  logged.push(args.map((arg) => (typeof arg === 'string' ? arg : JSON.stringify(arg))).join(' '));
};
const logger: Logger = { debug: record, info: record, warn: record, error: record };

let redis: OwnRedis;
let set: ReplicaSet;
let limited: ReplicaSet;

beforeAll(async () => {
  redis = ownRedis(await freePort(), password);
  await redis.start();
  set = await startReplicas({ count: 2, redisUrl: `redis://:${password}@127.0.0.1:${redis.port}`, logger });
  limited = await startReplicas({
    count: 1,
    redisUrl: `redis://:${password}@127.0.0.1:${redis.port}`,
    transport: { rateLimit: { callsPerMinute: 100 } },
  });
});

afterAll(async () => {
  await set?.close();
  await limited?.close();
  await redis?.stop();
});

describe('Redis down and back', () => {
  test('stateless calls go on, session requests fail fast with 503, then everything recovers', async () => {
    const [r1, r2] = set.replicas as [ReplicaSet['replicas'][number], ReplicaSet['replicas'][number]];
    const id = await openSession(r1.url);
    expect((await sessionRequest(r2.url, id, 'tools/list')).status).toBe(200);
    expect((await fetch(r1.url.replace('/mcp', '/ready'))).status).toBe(200);

    await redis.stop();

    const modern = await post(r2.url, 'tools/call', {
      name: 'echo',
      arguments: { message: 'still' },
      _meta: envelope(),
    });
    expect(modern.status).toBe(200);
    expect(modern.body.result).toMatchObject({ content: [{ text: 'Echo: still' }] });

    const started = performance.now();
    const refused = await sessionRequest(r1.url, id, 'tools/list');
    const elapsed = performance.now() - started;
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.body.error?.code).toBe(JsonRpcErrorCode.ClusterUnavailable);
    expect(refused.body.error?.message).toContain(`Redis at redis://127.0.0.1:${redis.port}`);
    expect(refused.body.error?.message).not.toContain(password);
    // Fast: no queueing, no retries (the bound is generous for a loaded machine; it takes a few ms).
    expect(elapsed).toBeLessThan(1000);

    // Resumption and rate-limited calls need Redis too: 503 as well, never a per-process fallback.
    const resumed = await fetch(r2.url, {
      headers: { ...sessionHeaders(id), accept: 'text/event-stream', 'last-event-id': 'some-stream_3' },
    });
    expect(resumed.status).toBe(503);
    expect(((await resumed.json()) as { error: { message: string } }).error.message).toContain('Redis at');
    const limitedCall = await post(limited.replicas[0]?.url as string, 'tools/call', {
      name: 'echo',
      arguments: { message: 'x' },
      _meta: envelope(),
    });
    expect(limitedCall.status).toBe(503);
    expect(limitedCall.body.error?.code).toBe(JsonRpcErrorCode.ClusterUnavailable);
    expect(limitedCall.headers['retry-after']).toBe('1');

    const ready = await fetch(r2.url.replace('/mcp', '/ready'));
    expect(ready.status).toBe(503);
    const readyBody = (await ready.json()) as { message: string };
    expect(readyBody.message).toContain(`redis://127.0.0.1:${redis.port}`);
    expect(JSON.stringify(readyBody)).not.toContain(password);
    const health = await fetch(r2.url.replace('/mcp', '/health'));
    expect(health.status).toBe(200);

    // A change while Redis is down: local streams still get it; the replica logs the trouble and serves on.
    r1.server.addTool(defineTool({ name: 'during-outage', description: 'x', execute: () => 'x' }));
    expect((await post(r1.url, 'tools/list', { _meta: envelope() })).status).toBe(200);

    await redis.start();
    await expect
      .poll(async () => (await sessionRequest(r2.url, id, 'tools/list')).status, {
        timeout: 20_000,
        interval: 200,
      })
      .toBe(200);
    await expect
      .poll(async () => (await fetch(r1.url.replace('/mcp', '/ready'))).status, {
        timeout: 20_000,
        interval: 200,
      })
      .toBe(200);

    // Pub/sub is subscribed again: a change on r1 reaches a stream on r2.
    const abort = new AbortController();
    const stream = await fetch(r2.url, {
      headers: { ...sessionHeaders(id), accept: 'text/event-stream' },
      signal: abort.signal,
    });
    expect(stream.status).toBe(200);
    let changes = 0;
    const reading = readSse(stream, (event) => {
      if (event.data.includes('notifications/tools/list_changed')) changes += 1;
    }).catch(() => {});
    await expect
      .poll(
        () => {
          if (changes === 0)
            r1.server.addTool(
              defineTool({ name: `after-${Date.now()}`, description: 'x', execute: () => 'x' }),
            );
          return changes;
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBeGreaterThan(0);
    abort.abort();
    await reading;

    expect(logged.some((line) => line.includes('unreachable'))).toBe(true);
    expect(logged.join('\n')).not.toContain(password);
  }, 90_000);
});
