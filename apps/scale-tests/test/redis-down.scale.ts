/**
 * Scenario 7, Redis trouble and clients that never say goodbye:
 * - Redis stopped for 15 s under mixed load: 2026-07-28 stateless calls keep succeeding; 2025
 *   session requests get 503 at once (a clear error naming Redis, no silent per-process fallback);
 *   once Redis is back the replicas recover without a restart.
 * - 500 clients open sessions and never DELETE: after the idle TTL the sessions' Redis keys are
 *   gone and the replicas' memory does not keep growing round after round.
 * Redis here is a server of this test's own, so stopping it disturbs nothing else.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { freePorts, waitForClockPast, waitForPort } from '@switchboard/test-helpers';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { stopProcess } from '../src/index.js';
import { type CallOutcome, connectEraClient, type EraClient } from './era-clients.js';
import { openSession, sessionPost } from './raw-mcp.js';
import { type ReplicaCluster, startReplicaCluster } from './replica-cluster.js';
import { sleep, within } from './scale-env.js';

let redisPort = 0;
let redis: ChildProcess | undefined;
let cluster: ReplicaCluster | undefined;
const idleSeconds = 3;

async function startRedis(): Promise<void> {
  redis = spawn(
    'redis-server',
    ['--bind', '127.0.0.1', '--port', String(redisPort), '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  await waitForPort(redisPort, {
    process: redis,
    timeoutMs: 10_000,
    what: `redis-server to listen on ${redisPort}`,
  });
}

beforeAll(async () => {
  [redisPort] = (await freePorts(1)) as [number];
  await startRedis();
  cluster = await startReplicaCluster({
    redisUrl: `redis://127.0.0.1:${redisPort}`,
    extraArgs: ['--session-idle-timeout', String(idleSeconds)],
  });
});

afterAll(async () => {
  await cluster?.dispose();
  if (redis) await stopProcess(redis, 'SIGKILL');
});

const echoText = (outcome: CallOutcome) => (outcome.content as Array<{ text?: string }>)[0]?.text;

it('Redis stopped for 15 s: stateless calls go on, session requests 503 at once, recovery without restarts', async () => {
  const { url, replicas } = cluster!;
  const session = await openSession(url);
  expect((await sessionPost(url, session, { id: 1, method: 'tools/list' })).status).toBe(200);

  const modern: EraClient[] = await Promise.all(
    Array.from({ length: 4 }, () => connectEraClient('sdk-v2 2026-07-28', url)),
  );
  await stopProcess(redis!, 'SIGTERM');
  const outageStarted = performance.now();
  let stateless = 0;
  const statelessFailures: string[] = [];
  const sessionStatuses: number[] = [];
  const sessionMs: number[] = [];
  let bodyOf503 = '';
  try {
    while (performance.now() - outageStarted < 15_000) {
      await Promise.all(
        modern.map(async (client, worker) => {
          try {
            const outcome = await client.callTool('mcp__echo__echo', { message: `down ${worker}` });
            if (echoText(outcome) === `echo: down ${worker}`) stateless++;
            else statelessFailures.push(JSON.stringify(outcome));
          } catch (error) {
            statelessFailures.push((error as Error).message);
          }
        }),
      );
      const started = performance.now();
      const answer = await sessionPost(url, session, { id: 2, method: 'tools/list' });
      sessionMs.push(performance.now() - started);
      sessionStatuses.push(answer.status);
      if (answer.status === 503) bodyOf503 = answer.body;
      // Pacing, not a wait: the outage lasts 15 s by the clock, and the load need not be flat out.
      await sleep(100);
    }
    // Readiness says so too, while it lasts.
    const ready = await fetch(replicas[0]!.url.replace('/mcp', '/ready'));
    expect(ready.status).toBe(503);
    await ready.text();
  } finally {
    await startRedis();
  }
  sessionMs.sort((a, b) => a - b);
  const median = sessionMs[Math.floor(sessionMs.length / 2)]!;
  console.log(
    `Redis down 15 s: ${stateless} stateless calls ok, ${statelessFailures.length} failed; ` +
      `${sessionStatuses.length} session requests, statuses ${[...new Set(sessionStatuses)].join('/')}, ` +
      `median ${median.toFixed(1)} ms`,
  );
  expect(statelessFailures).toEqual([]);
  expect(stateless).toBeGreaterThan(100);
  // Every session request during the outage was refused, fast, with a message naming Redis.
  expect(new Set(sessionStatuses)).toEqual(new Set([503]));
  expect(median).toBeLessThan(100);
  expect(bodyOf503).toMatch(/redis:\/\/127\.0\.0\.1/);

  // Back: sessions work again on every replica, without restarting one.
  for (const replica of replicas) {
    const took = await within(
      10_000,
      async () => {
        return (await sessionPost(replica.url, session, { id: 3, method: 'tools/list' })).status === 200;
      },
      200,
    );
    expect(took, `${replica.id} serves the session again`).toBeGreaterThanOrEqual(0);
    expect((await fetch(replica.url.replace('/mcp', '/ready'))).status).toBe(200);
  }
  expect((await sessionPost(url, await openSession(url), { id: 4, method: 'tools/list' })).status).toBe(200);
  await Promise.allSettled(modern.map((client) => client.close()));
});

/** Resident memory of a process, in MiB (Linux). */
function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

it('500 clients that never DELETE: keys expire and memory plateaus after the idle TTL', async () => {
  const { url, replicas, redis: keys } = cluster!;
  await keys.redis.connect().catch(() => {});
  const rounds: number[] = [];
  for (let round = 0; round < 3; round++) {
    // 500 sessions, 16 at a time, each used once and then abandoned.
    const queue = Array.from({ length: 500 }, (_, index) => index);
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
          const session = await openSession(url);
          const answer = await sessionPost(url, session, { id: 1, method: 'tools/list' });
          if (answer.status !== 200) throw new Error(`session ${next}: HTTP ${answer.status}`);
        }
      }),
    );
    // The idle TTL is time, so the clock is the event: past the last use by the TTL, one sweep
    // period (half the TTL) and a second of slack for a sweep that runs late under load.
    await waitForClockPast(Date.now() + idleSeconds * 1000 * 1.5 + 1_000);
    rounds.push(replicas.reduce((sum, replica) => sum + rssMiB(replica.process.pid!), 0));
  }
  const left = await keys.keys();
  console.log(
    `1,500 abandoned sessions: RSS of 3 replicas after each round ${rounds.map((mb) => mb.toFixed(0)).join(', ')} MiB; ` +
      `${left.length} keys left under the prefix`,
  );
  // Nothing is kept per abandoned session: no key left without its expiry having passed…
  const withoutExpiry = [];
  for (const key of left) if ((await keys.redis.pttl(key)) < 0) withoutExpiry.push(key);
  expect(withoutExpiry).toEqual([]);
  // …and memory levels off: the third round costs no more than the second did (with slack for the GC).
  expect(rounds[2]!).toBeLessThanOrEqual(rounds[1]! * 1.15 + 10);
});
