/**
 * Scenario 5, a resumable stream across replicas: a 2025 session calls a slow upstream tool (20
 * progress notifications, then the result) on one replica, the connection drops after event 5, and
 * the client resumes with `Last-Event-ID` on another replica: it gets events 6..20 and the result,
 * in order, exactly once — nothing from another stream or another principal, running at the same
 * time — while the call goes on running where it started (the log is in Redis).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { legacyHeaders, openSession, readSse, type SseEvent } from './raw-mcp.js';
import { type ReplicaCluster, startReplicaCluster } from './replica-cluster.js';

const alice = { principal: 'alice', token: 'alice-token-0123456789abcdef' };
const bob = { principal: 'bob', token: 'bob-token-0123456789abcdefgh' };
let cluster: ReplicaCluster | undefined;

beforeAll(async () => {
  cluster = await startReplicaCluster({ tokens: [alice, bob] });
});

afterAll(async () => {
  await cluster?.dispose();
});

/** Starts `slow` on `url` for `session` and returns the live SSE response. */
async function startSlow(
  url: string,
  session: string,
  token: string,
  progressToken: string,
  abort: AbortController,
) {
  const response = await fetch(url, {
    method: 'POST',
    signal: abort.signal,
    headers: legacyHeaders({ session, token }),
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'mcp__work__slow', arguments: { steps: 20, ms: 80 }, _meta: { progressToken } },
    }),
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  return response;
}

const progressOf = (event: SseEvent) =>
  event.message?.method === 'notifications/progress' ? (event.message.params?.progress as number) : undefined;

it('drop after event 5 on one replica, resume on another: events 6..20 and the result, in order, exactly once', async () => {
  const [first, second] = cluster!.replicas;
  const session = await openSession(cluster!.url, alice.token);
  const other = await openSession(cluster!.url, bob.token);

  // Another principal's call runs at the same time on the same replica: none of its events may leak.
  const otherAbort = new AbortController();
  const otherStream = startSlow(first!.url, other, bob.token, 'bob-progress', otherAbort).then((response) =>
    readSse(response, () => false),
  );

  const abort = new AbortController();
  const response = await startSlow(first!.url, session, alice.token, 'alice-progress', abort);
  const before = await readSse(response, (event) => progressOf(event) === 5, abort);
  const lastSeen = before.at(-1)!;
  expect(progressOf(lastSeen)).toBe(5);
  expect(lastSeen.id).toBeTruthy();

  // Another principal cannot take the stream over, even with the right ids.
  const stolen = await fetch(second!.url, {
    headers: { ...legacyHeaders({ session, token: bob.token, lastEventId: lastSeen.id! }) },
  });
  expect(stolen.status).toBe(404);
  await stolen.text();

  const resumed = await fetch(second!.url, {
    headers: { ...legacyHeaders({ session, token: alice.token, lastEventId: lastSeen.id! }) },
  });
  expect(resumed.status).toBe(200);
  expect(resumed.headers.get('x-switchboard-replica')).toBe(second!.id);
  const after = await readSse(resumed, () => false);
  const messages = after.filter((event) => event.message !== undefined);
  const progress = messages.map(progressOf).filter((value) => value !== undefined);
  expect(progress).toEqual(Array.from({ length: 15 }, (_, index) => index + 6));
  for (const event of messages.filter((event) => progressOf(event) !== undefined)) {
    expect(event.message?.params?.progressToken).toBe('alice-progress');
  }
  const results = messages.filter((event) => event.message?.id === 7);
  expect(results).toHaveLength(1);
  expect(results[0]!.message?.result).toMatchObject({ content: [{ type: 'text', text: 'done 20' }] });
  // The result is the last thing on the stream, after every progress step.
  expect(messages.at(-1)).toBe(results[0]);
  // Event ids only ever grow: nothing replayed twice.
  const sequences = after
    .filter((event) => event.id !== undefined)
    .map((event) => Number(event.id!.split('_').at(-1)));
  expect(sequences).toEqual([...sequences].sort((a, b) => a - b));
  expect(new Set(sequences).size).toBe(sequences.length);

  const otherEvents = await otherStream;
  expect(otherEvents.map(progressOf).filter((value) => value !== undefined)).toHaveLength(20);
});
