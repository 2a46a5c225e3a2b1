/**
 * Scenario 6, what replicas share besides sessions: a change on one replica (its upstream adds a
 * tool and says so) reaches the change streams held on every replica — 2025 GET streams and
 * 2026-07-28 `subscriptions/listen` — exactly once per change, within 2 s (Redis pub/sub); and a
 * rate limit of 60 calls a minute per principal and tool holds across the three replicas (60–63
 * accepted: each replica counts in Redis).
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createEventLog } from '@switchboard/test-helpers';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { legacyHeaders, openSession, readSse } from './raw-mcp.js';
import { type ReplicaCluster, startReplicaCluster } from './replica-cluster.js';

let cluster: ReplicaCluster | undefined;

beforeAll(async () => {
  cluster = await startReplicaCluster({ extraArgs: ['--rate-limit', '60'] });
});

afterAll(async () => {
  await cluster?.dispose();
});

const modernEnvelope = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'scale-listen', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** A modern client on one replica directly. */
async function modernClient(url: string): Promise<Client> {
  const client = new Client(
    { name: 'scale-notifications', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

it('a change on one replica: exactly one list_changed on each stream of every replica, within 2 s', async () => {
  const [r0, r1, r2] = cluster!.replicas as [
    ReplicaCluster['replicas'][number],
    ReplicaCluster['replicas'][number],
    ReplicaCluster['replicas'][number],
  ];
  const abort = new AbortController();
  const counts: Record<string, number> = {};
  // Each stream's list_changed as it comes (the stream's name), and the listen stream's acknowledgement.
  const delivered = createEventLog<string>('list_changed deliveries');
  const acknowledged = createEventLog<string>('subscriptions/acknowledged');
  const readers: Array<Promise<unknown>> = [];
  const follow = (name: string, response: Response) => {
    counts[name] = 0;
    readers.push(
      readSse(response, (event) => {
        if (event.message?.method === 'notifications/tools/list_changed') {
          counts[name]! += 1;
          delivered.push(name);
        }
        if (event.message?.method === 'notifications/subscriptions/acknowledged') acknowledged.push(name);
        return false;
      }).catch(() => {}),
    );
  };
  /** Every stream has `count` deliveries or more. */
  const everyStreamHas = (count: number) => Object.values(counts).every((seen) => seen >= count);
  /** Each stream's count, exactly `count` expected. */
  const exactly = (count: number) => Object.fromEntries(Object.keys(counts).map((name) => [name, count]));
  // 2025 GET streams on each replica (the one where the change happens included).
  for (const replica of [r0, r1, r2]) {
    const session = await openSession(replica.url);
    const stream = await fetch(replica.url, { headers: legacyHeaders({ session }), signal: abort.signal });
    expect(stream.status).toBe(200);
    follow(`2025 on ${replica.id}`, stream);
  }
  // A 2026-07-28 listen stream on r2.
  const listen = await fetch(r2.url, {
    method: 'POST',
    signal: abort.signal,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'subscriptions/listen',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 'listen-1',
      method: 'subscriptions/listen',
      params: { notifications: { toolsListChanged: true }, _meta: modernEnvelope },
    }),
  });
  expect(listen.status).toBe(200);
  follow(`2026-07-28 on ${r2.id}`, listen);
  // The GET streams are open once their headers came; the listen stream once it is acknowledged.
  await acknowledged.atLeast(1);

  const changer = await modernClient(r0.url);
  const tookMs: number[] = [];
  try {
    // Three measured changes, then a fourth as a barrier: a change delivered twice would have its
    // copy on a stream before the next change (each stream delivers in order), so every change is
    // checked to have come exactly once once the next one has reached every stream.
    for (let change = 1; change <= 4; change++) {
      const result = await changer.callTool({ name: 'mcp__work__grow', arguments: {} });
      expect(result.isError).not.toBe(true);
      const started = performance.now();
      await delivered.until(() => everyStreamHas(change), {
        timeoutMs: 2_000,
        what: `change ${change} to reach every stream (${JSON.stringify(counts)})`,
      });
      if (change <= 3) tookMs.push(Math.round(performance.now() - started));
      expect(counts).toEqual(exactly(change));
    }
  } finally {
    await changer.close();
    abort.abort();
    await Promise.all(readers);
  }
  console.log(
    `list_changed reached ${Object.keys(counts).length} streams on 3 replicas in ${tookMs.join(', ')} ms`,
  );
});

it('a shared rate limit of 60 a minute across 3 replicas accepts 60–63 of 80 calls', async () => {
  const { url } = cluster!;
  const clients = await Promise.all(Array.from({ length: 8 }, () => modernClient(url)));
  let accepted = 0;
  const refusals: string[] = [];
  try {
    await Promise.all(
      clients.map(async (client, worker) => {
        for (let call = 0; call < 10; call++) {
          try {
            const result = await client.callTool({
              name: 'mcp__echo__echo',
              arguments: { message: `${worker}.${call}` },
            });
            if (result.isError) refusals.push(JSON.stringify(result.content));
            else accepted++;
          } catch (error) {
            refusals.push((error as Error).message);
          }
        }
      }),
    );
  } finally {
    await Promise.allSettled(clients.map((client) => client.close()));
  }
  console.log(`rate limit 60/min over 3 replicas: ${accepted} of 80 accepted; first refusal: ${refusals[0]}`);
  expect(accepted).toBeGreaterThanOrEqual(60);
  expect(accepted).toBeLessThanOrEqual(63);
  expect(refusals).toHaveLength(80 - accepted);
  // Each refusal says what was limited and when to retry.
  for (const refusal of refusals) expect(refusal).toMatch(/rate|limit|429/i);
});
