/**
 * Replicas behind a balancer without stickiness: three `serve` instances in this process sharing
 * one Redis key prefix and one set of session keys. Official clients of both eras go round-robin
 * over them (a fetch that sends each request to the next replica); raw fetch where a test
 * tampers with ids or reads event ids.
 */
import { randomBytes } from 'node:crypto';
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createEventLog, envelope, post } from '@switchboard/test-helpers';
import { afterEach, describe, expect, test } from 'vitest';
import { defineTool, JsonRpcErrorCode, serve } from '../src/index.js';
import { createRedisClusterState } from '../src/redis.js';
import {
  openSession,
  readSse,
  type SseEvent,
  sessionHeaders,
  sessionRequest,
} from './fixtures/raw-session.js';
import {
  type ReplicaSet,
  type RoutedRequest,
  roundRobinFetch,
  startReplicas,
} from './fixtures/replica-set.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

async function replicas(options: Parameters<typeof startReplicas>[0] = {}): Promise<ReplicaSet> {
  const set = await startReplicas(options);
  cleanups.push(() => set.close());
  return set;
}

const textOf = (result: unknown) =>
  ((result as { content: Array<{ text: string }> }).content[0] as { text: string }).text;

describe('replicas sharing Redis', () => {
  test('a 2025 session whose requests alternate over three replicas keeps one per-session counter: 1..N', async () => {
    const set = await replicas();
    const routed: RoutedRequest[] = [];
    const client = new V1Client({ name: 'round-robin-v1', version: '1.0.0' });
    const transport = new V1Http(new URL(set.replicas[0]?.url as string), {
      fetch: roundRobinFetch(
        set.replicas.map((replica) => replica.url),
        routed,
      ),
    });
    await client.connect(transport);
    cleanups.push(() => client.close());
    const answers: string[] = [];
    for (let call = 0; call < 9; call += 1)
      answers.push(textOf(await client.callTool({ name: 'count', arguments: {} })));
    expect(answers.map((answer) => Number(answer.split(' ')[0]))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // Every replica served some of the calls: the session was re-created where it was not opened.
    expect(new Set(answers.map((answer) => answer.split(' ')[1]))).toEqual(new Set(['r1', 'r2', 'r3']));
    expect(new Set(routed.map((request) => request.replica))).toEqual(new Set(['r1', 'r2', 'r3']));
  });

  test('a 2026-07-28 client goes round-robin too, with zero Redis operations', async () => {
    const set = await replicas();
    const before = set.replicas.map((replica) => replica.state.operations);
    const routed: RoutedRequest[] = [];
    const client = new V2Client({ name: 'round-robin-v2', version: '1.0.0' }, {
      versionNegotiation: { mode: { pin: '2026-07-28' } },
    } as never);
    await client.connect(
      new V2Http(new URL(set.replicas[0]?.url as string), {
        fetch: roundRobinFetch(
          set.replicas.map((replica) => replica.url),
          routed,
        ),
      }),
    );
    cleanups.push(() => client.close());
    for (let call = 0; call < 6; call += 1) {
      expect(textOf(await client.callTool({ name: 'echo', arguments: { message: `m${call}` } }))).toBe(
        `Echo: m${call}`,
      );
    }
    expect(new Set(routed.map((request) => request.replica))).toEqual(new Set(['r1', 'r2', 'r3']));
    expect(set.replicas.map((replica) => replica.state.operations)).toEqual(before);
  });

  test('a 2025 session request costs one Redis operation (the revocation GET) on a replica that knows the session', async () => {
    const set = await replicas({ transport: { json: true } });
    const [r1, r2] = set.replicas as [ReplicaSet['replicas'][number], ReplicaSet['replicas'][number]];
    const id = await openSession(r1.url);
    // The first request on r2 re-creates the session there (revocation, then its subscriptions).
    expect((await sessionRequest(r2.url, id, 'tools/list')).status).toBe(200);
    for (let request = 0; request < 3; request += 1) {
      const before = r2.state.operations;
      const answer = await sessionRequest(r2.url, id, 'tools/call', {
        name: 'echo',
        arguments: { message: 'x' },
      });
      expect(answer.body.result).toMatchObject({ content: [{ text: 'Echo: x' }] });
      expect(r2.state.operations - before).toBe(1);
    }
  });

  test('500 sessions that never DELETE leave no Redis key without an expiry, and their keys expire', async () => {
    const set = await replicas({ transport: { sessionIdleTimeoutMs: 3000 } });
    const urls = set.replicas.map((replica) => replica.url);
    // Each opens on one replica and calls a tool (a logged stream) on the next.
    const openAndCall = async (index: number) => {
      const id = await openSession(urls[index % 3] as string);
      await sessionRequest(urls[(index + 1) % 3] as string, id, 'tools/call', {
        name: 'echo',
        arguments: { message: 'x' },
      });
    };
    for (let batch = 0; batch < 10; batch += 1)
      await Promise.all(Array.from({ length: 50 }, (_, index) => openAndCall(batch * 50 + index)));
    const keys = await set.redis.keys(`${set.prefix}*`);
    expect(keys.length).toBeGreaterThan(0);
    const ttls = await Promise.all(keys.map((key) => set.redis.pttl(key)));
    // -1 would be a key that lives forever; -2 one that expired meanwhile.
    expect(ttls.filter((ttl) => ttl === -1)).toEqual([]);
    await expect
      .poll(async () => (await set.redis.keys(`${set.prefix}*`)).length, { timeout: 15_000, interval: 200 })
      .toBe(0);
    const sessions = async () =>
      Promise.all(
        urls.map(
          async (url) =>
            ((await (await fetch(url.replace('/mcp', '/health'))).json()) as { sessions: number }).sessions,
        ),
      );
    await expect.poll(sessions, { timeout: 30_000, interval: 250 }).toEqual([0, 0, 0]);
  });

  test('DELETE on one replica: 404 on every replica at once', async () => {
    const set = await replicas();
    const [r1, r2, r3] = set.replicas.map((replica) => replica.url) as [string, string, string];
    const id = await openSession(r1);
    for (const url of [r1, r2, r3]) expect((await sessionRequest(url, id, 'tools/list')).status).toBe(200);
    const deleted = await fetch(r2, { method: 'DELETE', headers: sessionHeaders(id) });
    expect(deleted.status).toBe(200);
    const started = Date.now();
    for (const url of [r1, r2, r3]) {
      const after = await sessionRequest(url, id, 'tools/list');
      expect(after.status).toBe(404);
      expect(after.body.error?.code).toBe(JsonRpcErrorCode.SessionNotFound);
    }
    expect(Date.now() - started).toBeLessThan(2000);
  });

  test('a session id tampered by one byte, used by another principal, or sealed by a retired key: 404 like an unknown id', async () => {
    const oldKey = randomBytes(32);
    const set = await replicas({
      keys: [oldKey],
      transport: {
        auth: {
          type: 'bearer',
          tokens: [
            { token: 'token-of-a', principal: 'team-a' },
            { token: 'token-of-b', principal: 'team-b' },
          ],
        },
      },
    });
    const [r1, r2] = set.replicas.map((replica) => replica.url) as [string, string];
    const asA = { authorization: 'Bearer token-of-a' };
    const asB = { authorization: 'Bearer token-of-b' };
    const id = await openSession(r1, asA);
    expect((await sessionRequest(r2, id, 'tools/list', {}, asA)).status).toBe(200);
    const unknown = await sessionRequest(r2, 'no-such-session', 'tools/list', {}, asA);
    expect(unknown.status).toBe(404);
    // Another principal, on the replica that opened it and on one that did not.
    for (const url of [r1, r2]) {
      const foreign = await sessionRequest(url, id, 'tools/list', {}, asB);
      expect(foreign.status).toBe(404);
      expect(foreign.body.error?.code).toBe(unknown.body.error?.code);
    }
    const bytes = Buffer.from(id, 'base64url');
    bytes[bytes.length - 30] = (bytes[bytes.length - 30] as number) ^ 0x01;
    const tampered = bytes.toString('base64url');
    for (const url of [r1, r2])
      expect((await sessionRequest(url, tampered, 'tools/list', {}, asA)).status).toBe(404);
    // A replica after rotation: the old key still listed opens it; once retired it does not.
    const newKey = randomBytes(32);
    for (const [keys, status] of [
      [[newKey, oldKey], 200],
      [[newKey], 404],
    ] as const) {
      const state = createRedisClusterState({
        url: 'redis://127.0.0.1:6379',
        keyPrefix: set.prefix,
        replicaId: 'r9',
      });
      const handle = await serve(set.replicas[0]?.server as never, {
        transport: {
          type: 'http',
          port: 0,
          session: true,
          cluster: state,
          sessionKeys: [...keys],
          auth: { type: 'bearer', tokens: [{ token: 'token-of-a', principal: 'team-a' }] },
        },
      });
      try {
        expect((await sessionRequest(handle.url as string, id, 'tools/list', {}, asA)).status).toBe(status);
      } finally {
        await handle.close();
        await state.close();
      }
    }
  });

  test('a stream dropped after 5 of 20 progress events resumes on another replica: 6..20 and the result, once, in order', async () => {
    const set = await replicas();
    const [r1, r2] = set.replicas.map((replica) => replica.url) as [string, string];
    const id = await openSession(r1);
    const abort = new AbortController();
    const response = await fetch(r1, {
      method: 'POST',
      headers: sessionHeaders(id),
      signal: abort.signal,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'slow-1',
        method: 'tools/call',
        params: { name: 'slow', arguments: { steps: 20, ms: 60 }, _meta: { progressToken: 'p1' } },
      }),
    });
    const first: SseEvent[] = [];
    await readSse(response, (event) => {
      first.push(event);
      return first.filter((seen) => seen.data !== '').length === 5;
    });
    abort.abort();
    const progressOf = (event: SseEvent) =>
      (JSON.parse(event.data) as { params?: { progress?: number } }).params?.progress;
    const firstProgress = first.filter((event) => event.data !== '');
    expect(firstProgress.map(progressOf)).toEqual([1, 2, 3, 4, 5]);
    const lastEventId = firstProgress[4]?.id as string;
    expect(lastEventId).toBeTruthy();

    const resumed = await fetch(r2, {
      headers: { ...sessionHeaders(id), accept: 'text/event-stream', 'last-event-id': lastEventId },
    });
    expect(resumed.status).toBe(200);
    expect(resumed.headers.get('x-switchboard-replica')).toBe('r2');
    const rest: SseEvent[] = [];
    await readSse(resumed, (event) => {
      if (event.data !== '') rest.push(event);
    });
    const messages = rest.map(
      (event) => JSON.parse(event.data) as { method?: string; id?: unknown; result?: unknown },
    );
    const progress = messages
      .filter((message) => message.method === 'notifications/progress')
      .map((_, index) => progressOf(rest[index] as SseEvent));
    expect(progress).toEqual([6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    expect(messages.length).toBe(16);
    expect(messages[15]).toMatchObject({ id: 'slow-1', result: { content: [{ text: 'done 20 on r1' }] } });
    // A made-up event id of the same session: refused at once, not a tail that waits.
    const madeUp = await fetch(r2, {
      headers: { ...sessionHeaders(id), accept: 'text/event-stream', 'last-event-id': 'no-such-stream_4' },
    });
    expect(madeUp.status).toBe(400);
    // Event ids go on from the dropped stream's, strictly increasing.
    const sequence = rest.map((event) => Number(String(event.id).split('_').pop()));
    expect(sequence.every((value, index) => index === 0 || value > (sequence[index - 1] as number))).toBe(
      true,
    );
    expect(sequence[0]).toBeGreaterThan(Number(lastEventId.split('_').pop()));
  });

  test('an elicitation asked by one replica is answered through another', async () => {
    const set = await replicas();
    const routed: RoutedRequest[] = [];
    const client = new V1Client(
      { name: 'elicit-v1', version: '1.0.0' },
      { capabilities: { elicitation: {} } },
    );
    client.setRequestHandler(ElicitRequestSchema, async () => ({
      action: 'accept',
      content: { name: 'Ada' },
    }));
    await client.connect(
      new V1Http(new URL(set.replicas[0]?.url as string), {
        fetch: roundRobinFetch(
          set.replicas.map((replica) => replica.url),
          routed,
        ),
      }),
    );
    cleanups.push(() => client.close());
    const text = textOf(await client.callTool({ name: 'ask', arguments: {} }));
    const asker = /asked by (r\d)/.exec(text)?.[1];
    expect(text).toMatch(/^hello Ada \(asked by r\d\)$/);
    const answer = routed.find((request) => request.body.includes('"action":"accept"'));
    expect(answer).toBeDefined();
    expect(answer?.replica).not.toBe(asker);
  });

  test('without sessions (2025 stateless), an elicitation answer POSTed to another replica reaches the asking call', async () => {
    const set = await replicas({ transport: { session: false } });
    const routed: RoutedRequest[] = [];
    const client = new V1Client(
      { name: 'stateless-v1', version: '1.0.0' },
      { capabilities: { elicitation: {} } },
    );
    client.setRequestHandler(ElicitRequestSchema, async () => ({
      action: 'accept',
      content: { name: 'Grace' },
    }));
    await client.connect(
      new V1Http(new URL(set.replicas[0]?.url as string), {
        fetch: roundRobinFetch(
          set.replicas.map((replica) => replica.url),
          routed,
        ),
      }),
    );
    cleanups.push(() => client.close());
    const text = textOf(await client.callTool({ name: 'ask', arguments: {} }));
    expect(text).toMatch(/^hello Grace \(asked by r\d\)$/);
    const asker = /asked by (r\d)/.exec(text)?.[1];
    const answer = routed.find((request) => request.body.includes('"action":"accept"'));
    expect(answer?.replica).toMatch(/^r\d$/);
    expect(answer?.replica).not.toBe(asker);
  });

  test('list changes and resources/updated on one replica reach streams on the others exactly once', async () => {
    const set = await replicas();
    const [r1, r2, r3] = set.replicas as [
      ReplicaSet['replicas'][number],
      ReplicaSet['replicas'][number],
      ReplicaSet['replicas'][number],
    ];
    // A 2025 session's GET stream on r2.
    const id = await openSession(r2.url);
    const abort = new AbortController();
    cleanups.push(async () => abort.abort());
    const stream = await fetch(r2.url, {
      headers: { ...sessionHeaders(id), accept: 'text/event-stream' },
      signal: abort.signal,
    });
    expect(stream.status).toBe(200);
    const legacyChanges = createEventLog<string>('list_changed on the 2025 GET stream');
    const legacyReading = readSse(stream, (event) => {
      if (event.data.includes('notifications/tools/list_changed')) legacyChanges.push(event.data);
    }).catch(() => {});
    // A 2026-07-28 subscriptions/listen stream on r3.
    const listen = await fetch(r3.url, {
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
        params: {
          notifications: { toolsListChanged: true, resourceSubscriptions: ['test://status'] },
          _meta: envelope(),
        },
      }),
    });
    const acknowledged = createEventLog<string>('subscriptions/acknowledged on the listen stream');
    const modernChanges = createEventLog<string>('list_changed on the listen stream');
    const updates = createEventLog<string>('resources/updated on the listen stream');
    const modernReading = readSse(listen, (event) => {
      if (event.data.includes('subscriptions/acknowledged')) acknowledged.push(event.data);
      if (event.data.includes('notifications/tools/list_changed')) modernChanges.push(event.data);
      if (event.data.includes('notifications/resources/updated') && event.data.includes('test://status'))
        updates.push(event.data);
    }).catch(() => {});
    /** Both streams' list_changed counts, once each has at least `count`. */
    const changesAtLeast = async (count: number) => {
      await Promise.all([legacyChanges.atLeast(count), modernChanges.atLeast(count)]);
      return [legacyChanges.entries.length, modernChanges.entries.length];
    };
    await acknowledged.atLeast(1);
    r1.server.addTool(defineTool({ name: 'late-1', description: 'added on r1', execute: () => 'late' }));
    expect(await changesAtLeast(1)).toEqual([1, 1]);
    // A second change: had the first been delivered twice, its copy would arrive before this one.
    r1.server.addTool(defineTool({ name: 'late-2', description: 'added on r1', execute: () => 'late' }));
    expect(await changesAtLeast(2)).toEqual([2, 2]);
    // resources/updated from r2 reaches the listen stream on r3, once.
    await r2.server.notifyResourceUpdated('test://status');
    await updates.atLeast(1);
    r1.server.addTool(defineTool({ name: 'late-3', description: 'added on r1', execute: () => 'late' }));
    expect(await modernChanges.atLeast(3)).toHaveLength(3);
    expect(updates.entries).toHaveLength(1);
    abort.abort();
    await Promise.all([legacyReading, modernReading]);
  });

  test('a 2025 resources/subscribe made through one replica is honoured by the replica holding the GET stream', async () => {
    const set = await replicas();
    const [r1, r2, r3] = set.replicas as [
      ReplicaSet['replicas'][number],
      ReplicaSet['replicas'][number],
      ReplicaSet['replicas'][number],
    ];
    const id = await openSession(r1.url);
    const abort = new AbortController();
    cleanups.push(async () => abort.abort());
    const stream = await fetch(r2.url, {
      headers: { ...sessionHeaders(id), accept: 'text/event-stream' },
      signal: abort.signal,
    });
    expect(stream.status).toBe(200);
    const updates = createEventLog<string>('resources/updated on the GET stream');
    const changes = createEventLog<string>('list_changed on the GET stream');
    const reading = readSse(stream, (event) => {
      if (event.data.includes('notifications/resources/updated')) updates.push(event.data);
      if (event.data.includes('notifications/tools/list_changed')) changes.push(event.data);
    }).catch(() => {});
    const members = async () => {
      const keys = await set.redis.keys(`${set.prefix}subs:*`);
      return keys.length === 0 ? [] : set.redis.smembers(keys[0] as string);
    };
    expect((await sessionRequest(r3.url, id, 'resources/subscribe', { uri: 'test://status' })).status).toBe(
      200,
    );
    // The set and the message to the replicas are one transaction: once it shows, r2 was told.
    await expect.poll(members, { timeout: 10_000 }).toEqual(['test://status']);
    await r1.server.notifyResourceUpdated('test://status');
    await updates.atLeast(1);
    expect((await sessionRequest(r1.url, id, 'resources/unsubscribe', { uri: 'test://status' })).status).toBe(
      200,
    );
    await expect.poll(members, { timeout: 10_000 }).toEqual([]);
    await r1.server.notifyResourceUpdated('test://status');
    r1.server.addTool(defineTool({ name: 'flush', description: 'x', execute: () => 'x' }));
    // In order on the stream: an update sent after the unsubscribe would have come before this.
    expect(await changes.atLeast(1)).toHaveLength(1);
    expect(updates.entries).toHaveLength(1);
    abort.abort();
    await reading;
  });

  test('a shared rate limit of 60 calls a minute accepts 60-63 of 80 calls spread over three replicas', async () => {
    const set = await replicas({ transport: { rateLimit: { callsPerMinute: 60 } } });
    const urls = set.replicas.map((replica) => replica.url);
    const answers = [];
    for (let batch = 0; batch < 8; batch += 1) {
      answers.push(
        ...(await Promise.all(
          Array.from({ length: 10 }, (_, index) =>
            post(urls[(batch * 10 + index) % 3] as string, 'tools/call', {
              name: 'echo',
              arguments: { message: 'x' },
              _meta: envelope(),
            }),
          ),
        )),
      );
    }
    const accepted = answers.filter((answer) => answer.status === 200 && answer.body.result !== undefined);
    expect(accepted.length).toBeGreaterThanOrEqual(60);
    expect(accepted.length).toBeLessThanOrEqual(63);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused.length).toBe(80 - accepted.length);
    const sample = refused[0];
    expect(sample?.body.error?.code).toBe(JsonRpcErrorCode.RateLimited);
    expect(sample?.body.error?.message).toMatch(
      /tool "echo": 60 calls per minute per caller; retry in \d+ s/,
    );
    expect(Number(sample?.headers['retry-after'])).toBeGreaterThan(0);
    // Another tool has its own window.
    const other = await post(urls[0] as string, 'tools/call', {
      name: 'count',
      arguments: {},
      _meta: envelope(),
    });
    expect(other.status).toBe(200);
  });
});
