/**
 * Scenario 2, 2025 sessions across replicas: sealed session ids let any replica serve any session
 * with no lookup; a DELETE revokes it everywhere (Redis) within 2 s; the id is bound to its
 * principal and to the keys that sealed it (tamper → 404, another principal → 404, rotation with the
 * old key still listed → 200, after removing it → 404).
 *
 * The replicas are a server of the tests' own on `@switchboard/server` (fixtures/session-counter-
 * replica.mjs): its `next` tool counts the calls of its session in Redis, so the counter goes 1..N
 * strictly only if every replica saw the same session.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Cluster, startCluster } from '../src/index.js';
import { openSession, sessionPost } from './raw-mcp.js';
import { newKey, redisPrefix, redisUrl, within, writeKeyFile } from './scale-env.js';

const fixture = fileURLToPath(new URL('../fixtures/session-counter-replica.mjs', import.meta.url));
const alice = { principal: 'alice', token: 'alice-token-0123456789abcdef' };
const bob = { principal: 'bob', token: 'bob-token-0123456789abcdefgh' };

const dir = mkdtempSync(join(tmpdir(), 'scale-sessions-'));
const keyFile = join(dir, 'session-keys');
const oldKey = newKey();
const state = redisPrefix();
let cluster: Cluster | undefined;

beforeAll(async () => {
  writeKeyFile(keyFile, [oldKey]);
  cluster = await startCluster({
    replicas: 3,
    replicaArgv: ({ id, port }) => [fixture, String(port), id],
    env: {
      REDIS_URL: redisUrl,
      REDIS_PREFIX: state.prefix,
      SESSION_KEY_FILE: keyFile,
      TOKENS: JSON.stringify([alice, bob]),
    },
  });
});

afterAll(async () => {
  await cluster?.stop();
  await state.clear();
  rmSync(dir, { recursive: true, force: true });
});

const listTools = { id: 9, method: 'tools/list' };

it('a session hops replicas for 100 calls with its counter strictly 1..100; DELETE → 404 on every replica within 2 s', async () => {
  const { url, replicas, nginx } = cluster!;
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { authorization: `Bearer ${alice.token}` } },
  });
  const client = new Client({ name: 'scale-sessions', version: '1.0.0' });
  await client.connect(transport);
  const session = transport.sessionId!;
  expect(session).toBeTruthy();
  const logStart = nginx.entries().length;
  const counts: number[] = [];
  for (let call = 0; call < 100; call++) {
    const result = await client.callTool({ name: 'next', arguments: {} });
    counts.push(Number((result.content as Array<{ text: string }>)[0]!.text));
  }
  expect(counts).toEqual(Array.from({ length: 100 }, (_, index) => index + 1));
  // The session really hopped: every replica served some of its calls.
  const upstreams = new Set(
    nginx
      .entries()
      .slice(logStart)
      .map((entry) => entry.upstream),
  );
  expect(upstreams.size).toBe(replicas.length);

  // The session answers on each replica directly before the DELETE…
  for (const replica of replicas) {
    expect((await sessionPost(replica.url, session, listTools, alice.token)).status).toBe(200);
  }
  await transport.terminateSession();
  // …and on none within 2 s after it (the DELETE went through nginx: to any one of them).
  for (const replica of replicas) {
    const took = await within(2_000, async () => {
      return (await sessionPost(replica.url, session, listTools, alice.token)).status === 404;
    });
    expect(took, `404 on ${replica.id} after DELETE`).toBeGreaterThanOrEqual(0);
  }
  await client.close();
});

it("another principal's token, or one byte changed, gives 404 on every replica", async () => {
  const { url, replicas } = cluster!;
  const session = await openSession(url, alice.token);
  const flipped = `${session.slice(0, 20)}${session[20] === 'A' ? 'B' : 'A'}${session.slice(21)}`;
  for (const replica of replicas) {
    expect((await sessionPost(replica.url, session, listTools, alice.token)).status).toBe(200);
    expect((await sessionPost(replica.url, session, listTools, bob.token)).status).toBe(404);
    expect((await sessionPost(replica.url, flipped, listTools, alice.token)).status).toBe(404);
  }
});

it('key rotation: with the old key still listed its sessions go on (200); once removed, 404', async () => {
  const { url, replicas } = cluster!;
  const session = await openSession(url, alice.token);
  const restartAll = async () => {
    // One at a time, as a rolling deploy does; nginx keeps serving on the others.
    for (const replica of replicas) await replica.restart();
  };
  writeKeyFile(keyFile, [newKey(), oldKey]);
  await restartAll();
  for (const replica of replicas) {
    expect((await sessionPost(replica.url, session, listTools, alice.token)).status).toBe(200);
  }
  // New sessions are sealed by the new key and open everywhere too.
  const fresh = await openSession(url, alice.token);
  for (const replica of replicas) {
    expect((await sessionPost(replica.url, fresh, listTools, alice.token)).status).toBe(200);
  }
  writeKeyFile(keyFile, [newKey()]);
  await restartAll();
  for (const replica of replicas) {
    expect((await sessionPost(replica.url, session, listTools, alice.token)).status).toBe(404);
  }
});
