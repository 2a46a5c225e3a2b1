/**
 * Scenario 1, round robin: 2,000 tool calls through nginx in front of three replicas, half by SDK
 * v2 clients pinned to 2026-07-28 and half by SDK v1 clients speaking 2025 statelessly, at most 16
 * clients at once. No call may fail, every replica must serve at least a fifth of the requests
 * (nginx's access log says which served what), and every result must equal the one the same call
 * gets from a replica directly.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Cluster, startCluster } from '../src/index.js';
import { type CallOutcome, connectEraClient, type Era, type EraClient, eras } from './era-clients.js';

const totalCalls = 2_000;
const clientsPerEra = 8;
// Calls repeat with this period, so the direct reference needs only this many calls per era.
const distinctCalls = 40;

/** The `index`-th call: alternately echo and add, with arguments that repeat every `distinctCalls`. */
function callAt(index: number): { name: string; args: Record<string, unknown> } {
  const variant = index % distinctCalls;
  return variant % 2 === 0
    ? { name: 'mcp__echo__echo', args: { message: `call ${variant}` } }
    : { name: 'mcp__echo__add', args: { a: variant, b: 0.5 } };
}

let cluster: Cluster | undefined;

beforeAll(async () => {
  cluster = await startCluster({ replicas: 3 });
});

afterAll(async () => {
  await cluster?.stop();
});

it(`${totalCalls} calls of both eras through nginx: no errors, every replica used, results as served directly`, async () => {
  const { replicas, nginx, url } = cluster!;

  // The reference: each distinct call once per era, on one replica without nginx.
  const expected = new Map<string, CallOutcome>();
  for (const era of eras) {
    const direct = await connectEraClient(era, replicas[0]!.url);
    try {
      for (let variant = 0; variant < distinctCalls; variant++) {
        const { name, args } = callAt(variant);
        expected.set(`${era} ${variant}`, await direct.callTool(name, args));
      }
    } finally {
      await direct.close();
    }
  }

  const logStart = nginx.entries().length;
  const started = performance.now();
  const clients: EraClient[] = [];
  const failures: string[] = [];
  let mismatches = 0;
  let completed = 0;
  try {
    for (const era of eras) {
      for (let index = 0; index < clientsPerEra; index++) clients.push(await connectEraClient(era, url));
    }
    // Client c makes calls c, c + 16, c + 32, …: every client its share, all eras interleaved.
    await Promise.all(
      clients.map(async (client, offset) => {
        for (let index = offset; index < totalCalls; index += clients.length) {
          const { name, args } = callAt(index);
          try {
            const outcome = await client.callTool(name, args);
            completed++;
            const want = expected.get(`${client.era} ${index % distinctCalls}`);
            if (JSON.stringify(outcome) !== JSON.stringify(want)) {
              mismatches++;
              if (failures.length < 10) failures.push(`${client.era} #${index}: ${JSON.stringify(outcome)}`);
            }
          } catch (error) {
            if (failures.length < 10) failures.push(`${client.era} #${index}: ${(error as Error).message}`);
          }
        }
      }),
    );
  } finally {
    await Promise.allSettled(clients.map((client) => client.close()));
  }
  const seconds = (performance.now() - started) / 1000;

  const posts = nginx
    .entries()
    .slice(logStart)
    .filter((entry) => entry.request.startsWith('POST '));
  const share = (replica: (typeof replicas)[number]) =>
    posts.filter((entry) => entry.upstream === `127.0.0.1:${replica.port}`).length / posts.length;
  const byEra = (era: Era) => clients.filter((client) => client.era === era).length;
  console.log(
    `round robin: ${completed} calls in ${seconds.toFixed(1)} s (${Math.round(completed / seconds)}/s), ` +
      `${byEra(eras[0]!)} + ${byEra(eras[1]!)} clients; POSTs per replica: ${replicas
        .map((replica) => `${replica.id} ${(share(replica) * 100).toFixed(1)} %`)
        .join(', ')}`,
  );

  expect(failures, 'failed or different calls').toEqual([]);
  expect(mismatches).toBe(0);
  expect(completed).toBe(totalCalls);
  expect(posts.filter((entry) => entry.status >= 500)).toEqual([]);
  // Every call went through nginx (plus each client's handshake).
  expect(posts.length).toBeGreaterThanOrEqual(totalCalls);
  for (const replica of replicas) {
    expect(share(replica), `share of ${replica.id} (port ${replica.port})`).toBeGreaterThanOrEqual(0.2);
  }
});
