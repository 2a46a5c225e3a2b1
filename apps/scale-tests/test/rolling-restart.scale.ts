/**
 * Scenario 3, rolling restart under load: each replica in turn gets SIGTERM (it drains: the
 * listener closes so nginx fails over on connect, calls in flight finish) and is started again,
 * while clients of both eras — 2026-07-28 stateless and 2025 sessions hopping replicas — keep
 * calling through nginx. Not one call may fail or come back wrong.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Era } from './era-clients.js';
import { everyWorkerMade, firstText, startLoad } from './load.js';
import { type ReplicaCluster, startReplicaCluster } from './replica-cluster.js';

let cluster: ReplicaCluster | undefined;

beforeAll(async () => {
  // A restarted replica is back in nginx's rotation after 1 s instead of the default 10.
  // Drains end within 6 s, inside the harness's 10 s grace before SIGKILL: a replica waits up to its
  // drain timeout for nginx to close the idle connections it pools (seen here: two linger).
  cluster = await startReplicaCluster({ failTimeoutSeconds: 1, extraArgs: ['--drain-timeout', '6'] });
});

afterAll(async () => {
  await cluster?.dispose();
});

it('SIGTERM and restart of each replica in turn under load: 0 failed calls', async () => {
  const { url, replicas } = cluster!;
  const workers: Era[] = [...Array(6).fill('sdk-v2 2026-07-28'), ...Array(6).fill('sdk-v1 2025')];
  const load = await startLoad({
    url,
    workers,
    next: (worker, index) => {
      const message = `w${worker} #${index}`;
      return {
        name: 'mcp__echo__echo',
        args: { message },
        label: message,
        check: (outcome) => (firstText(outcome) === `echo: ${message}` ? undefined : JSON.stringify(outcome)),
      };
    },
  });
  const restarts: string[] = [];
  try {
    // The load is under way before the first restart: every worker has made calls already.
    await load.calls.until(everyWorkerMade(workers.length, 5), { what: 'every worker to make 5 calls' });
    for (const replica of replicas) {
      const ended = await replica.stop('SIGTERM');
      // A drained replica exits by itself, with 0: it was not killed after the grace period.
      expect(ended, `${replica.id} exit after SIGTERM`).toEqual({ code: 0, signal: null });
      const logStart = cluster!.nginx.entries().length;
      await replica.restart();
      restarts.push(replica.id);
      // Back in rotation (fail_timeout 1 s) and serving before the next one goes: nginx's access
      // log shows it answering the load again (nginx tells no one else, so the log is read).
      await expect
        .poll(
          () =>
            cluster!.nginx
              .entries()
              .slice(logStart)
              .some((entry) => entry.upstream === `127.0.0.1:${replica.port}` && entry.status < 500),
          { timeout: 20_000, interval: 100 },
        )
        .toBe(true);
    }
  } finally {
    await load.stop();
  }
  const records = load.records;
  const failed = records.filter((record) => !record.ok);
  console.log(
    `rolling restart of ${restarts.join(', ')}: ${records.length} calls, ${failed.length} failed; ` +
      `${records.filter((record) => record.era === 'sdk-v1 2025').length} on 2025 sessions`,
  );
  if (failed.length > 0) {
    const { readFileSync } = await import('node:fs');
    const log = readFileSync(`${cluster!.nginx.dir}/error.log`, 'utf8').split('\n');
    console.log(
      log
        .filter((line) => line.includes('upstream') && !line.includes('connect()'))
        .slice(0, 12)
        .join('\n'),
    );
    for (const replica of cluster!.replicas) console.log(replica.id, replica.output().slice(-2000));
  }
  expect(restarts).toEqual(replicas.map((replica) => replica.id));
  expect(failed.slice(0, 5)).toEqual([]);
  // The load really ran through the restarts, in both eras.
  expect(records.length).toBeGreaterThan(500);
  for (const era of new Set(workers)) {
    expect(records.filter((record) => record.era === era).length).toBeGreaterThan(100);
  }
});
