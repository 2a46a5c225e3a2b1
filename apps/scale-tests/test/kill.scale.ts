/**
 * Scenario 4, a replica SIGKILLed mid-load: only calls it had in flight may fail; no result is ever
 * wrong; a destructive call (`record`, which appends its id to a file) never runs twice — nginx
 * does not re-send a POST that reached a replica; and calls started after the kill succeed (nginx
 * fails over on the refused connection at once, its passive health check skips the dead replica).
 */
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Era } from './era-clients.js';
import { everyWorkerMade, firstText, startLoad } from './load.js';
import { type ReplicaCluster, startReplicaCluster } from './replica-cluster.js';

let cluster: ReplicaCluster | undefined;

beforeAll(async () => {
  cluster = await startReplicaCluster();
});

afterAll(async () => {
  await cluster?.dispose();
});

it('SIGKILL of one replica: only its in-flight calls fail, never a wrong result, never a destructive call twice', async () => {
  const { url, replicas, recordFile } = cluster!;
  const workers: Era[] = [...Array(6).fill('sdk-v2 2026-07-28'), ...Array(6).fill('sdk-v1 2025')];
  const load = await startLoad({
    url,
    workers,
    // A 2025 call whose stream died with its replica is resumed elsewhere and never answered (its
    // replica is gone): the client's own timeout ends it. 10 s instead of the SDK's 60.
    callTimeoutMs: 10_000,
    next: (worker, index) => {
      const id = `w${worker}-${index}`;
      // Every other call is the destructive one; the rest check arithmetic (a wrong answer shows).
      return index % 2 === 0
        ? {
            name: 'mcp__work__record',
            args: { id },
            label: id,
            check: (outcome) =>
              firstText(outcome) === `recorded ${id}` ? undefined : JSON.stringify(outcome),
          }
        : {
            name: 'mcp__echo__add',
            args: { a: worker, b: index },
            label: `add ${id}`,
            check: (outcome) =>
              (outcome.structuredContent as { sum?: number } | undefined)?.sum === worker + index
                ? undefined
                : JSON.stringify(outcome),
          };
    },
  });
  let killedAt = 0;
  try {
    // Mid-load: every worker has made calls, so the victim has calls of its own in flight.
    await load.calls.until(everyWorkerMade(workers.length, 10), { what: 'every worker to make 10 calls' });
    const victim = replicas[1]!;
    killedAt = performance.now();
    await victim.stop('SIGKILL');
    // The load goes on until every worker has made 20 calls past the moment it takes to notice the
    // kill (a 2025 call that died with the victim first waits out its 10 s timeout).
    await load.calls.until(
      everyWorkerMade(workers.length, 20, (record) => record.startedAt > killedAt + 1_000),
      { timeoutMs: 60_000, what: 'every worker to make 20 calls after the kill' },
    );
  } finally {
    await load.stop();
  }
  const records = load.records;
  const failed = records.filter((record) => !record.ok);
  // In flight at the kill: sent before it, or in the instant after it when nginx still wrote on a
  // kept-alive connection to the dead replica (the kernel had not yet told it the peer was gone).
  const inFlightAtKill = failed.filter(
    (record) => record.startedAt <= killedAt + 100 && record.endedAt >= killedAt,
  );
  const after = records.filter((record) => record.startedAt > killedAt + 1_000);
  console.log(
    `SIGKILL: ${records.length} calls, ${failed.length} failed (${inFlightAtKill.length} in flight at the kill), ` +
      `${after.length} started after it`,
  );
  // A failure is a lost connection, never a wrong answer…
  expect(
    failed.filter(
      (record) =>
        !/502|fetch failed|socket|ECONNRESET|terminated|closed|timed out/i.test(record.problem ?? ''),
    ),
  ).toEqual([]);
  // nginx's account: every 5xx it gave came from the killed replica.
  const victimAddress = `127.0.0.1:${replicas[1]!.port}`;
  expect(
    cluster!.nginx.entries().filter((entry) => entry.status >= 500 && entry.upstream !== victimAddress),
  ).toEqual([]);
  // …and only of calls in flight when the replica died (at most one per worker).
  expect(failed.filter((record) => !inFlightAtKill.includes(record))).toEqual([]);
  expect(inFlightAtKill.length).toBeLessThanOrEqual(workers.length);
  // Calls started after the kill (past the moment it takes to notice) all succeed.
  expect(after.length).toBeGreaterThan(100);
  expect(after.filter((record) => !record.ok)).toEqual([]);

  // The record file: every id at most once; every id whose call succeeded exactly once.
  const lines = existsSync(recordFile) ? readFileSync(recordFile, 'utf8').split('\n').filter(Boolean) : [];
  const seen = new Map<string, number>();
  for (const id of lines) seen.set(id, (seen.get(id) ?? 0) + 1);
  expect([...seen].filter(([, count]) => count > 1)).toEqual([]);
  const succeeded = records.filter((record) => record.ok && !record.label.startsWith('add '));
  expect(succeeded.filter((record) => seen.get(record.label) !== 1)).toEqual([]);
});
