/**
 * 2026-07-28 multi-round tool calls behind a balancer without stickiness: the tool's run is
 * parked on the replica that ran it, and a retry that lands on another replica is relayed there
 * through Redis (the sealed `requestState` names the owner). Checked with the official SDK v2
 * client pinned to 2026-07-28 going round-robin, and on the raw wire where a test steers each
 * retry to a chosen replica: two rounds on two other replicas, the owner gone between rounds,
 * an owner that never answers, Redis down, a key derived from the session keys, rotation, and a
 * state of another cluster.
 */
import { randomBytes } from 'node:crypto';
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { envelope, freePort, post, type RawAnswer, waitForEvent } from '@switchboard/test-helpers';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, test } from 'vitest';
import {
  createMcpServer,
  createMemoryClusterState,
  defineTool,
  deriveRequestStateKey,
  JsonRpcErrorCode,
  ServerErrorCode,
  serve,
} from '../src/index.js';
import { RequestStateSeal } from '../src/tools/request-state-seal.js';
import { ownRedis } from './fixtures/own-redis.js';
import {
  type ReplicaSet,
  type RoutedRequest,
  roundRobinFetch,
  startReplicas,
  testRedisUrl,
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

const caps = { elicitation: {} };
const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });

/** One round of `ask_twice` on `url`: the first call, or a retry with the answers of the last round. */
function round(
  url: string,
  previous?: RawAnswer,
  answers?: Record<string, unknown>,
  args: Record<string, unknown> = {},
): Promise<RawAnswer> {
  return post(url, 'tools/call', {
    name: 'ask_twice',
    arguments: args,
    ...(previous !== undefined
      ? { requestState: previous.body.result?.requestState, inputResponses: answers }
      : {}),
    _meta: { ...envelope(caps), progressToken: 'p' },
  });
}

const urlOf = (set: ReplicaSet, index: number) => set.replicas[index]?.url as string;

describe('multi-round calls across replicas', () => {
  test('the official pinned client, round-robin over three replicas: both rounds relayed, the result and its progress arrive', async () => {
    const set = await replicas();
    const routed: RoutedRequest[] = [];
    const client = new V2Client({ name: 'mrtr-round-robin', version: '1.0.0' }, {
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      capabilities: { elicitation: {} },
    } as never);
    const asked: string[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      const message = String((request.params as { message?: unknown }).message);
      asked.push(message);
      return (message === 'Your name?' ? accept({ name: 'Ada' }) : accept({ colour: 'green' })) as never;
    });
    await client.connect(
      new V2Http(new URL(urlOf(set, 0)), {
        fetch: roundRobinFetch(
          set.replicas.map((replica) => replica.url),
          routed,
        ),
      }),
    );
    cleanups.push(() => client.close());
    const updates: Array<{ message?: string }> = [];
    const result = await client.callTool({ name: 'ask_twice', arguments: {} }, {
      onprogress: (update: { message?: string }) => updates.push(update),
    } as never);
    const text = (result.content as Array<{ text: string }>)[0]?.text as string;
    const owner = /asked by (r\d)/.exec(text)?.[1];
    expect(text).toBe(`Ada likes green (asked by ${owner})`);
    expect(asked).toEqual(['Your name?', 'Favourite colour, Ada?']);
    // The three rounds reached three replicas: two of them relayed to the one running the tool.
    const calls = routed.filter((request) => request.body.includes('"tools/call"'));
    expect(calls).toHaveLength(3);
    expect(new Set(calls.map((request) => request.replica)).size).toBe(3);
    // The resumed call's progress came back through the relay, on the last retry's stream.
    expect(updates.map((update) => update.message)).toEqual(
      expect.arrayContaining([`answers in on ${owner}`, 'done']),
    );
  });

  test('raw wire: round 1 on r1, its retry on r2, the next on r3 — input-required relayed unchanged, then the result', async () => {
    const set = await replicas();
    const first = await round(urlOf(set, 0));
    expect(first.body.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { elicitation_1: { method: 'elicitation/create' } },
    });
    const second = await round(urlOf(set, 1), first, { elicitation_1: accept({ name: 'Grace' }) });
    expect(second.status).toBe(200);
    expect(second.headers['x-switchboard-replica']).toBe('r2');
    expect(second.body.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: {
        elicitation_2: { method: 'elicitation/create', params: { message: 'Favourite colour, Grace?' } },
      },
    });
    const third = await round(urlOf(set, 2), second, { elicitation_2: accept({ colour: 'teal' }) });
    expect(third.headers['x-switchboard-replica']).toBe('r3');
    expect(third.body.result).toMatchObject({
      content: [{ type: 'text', text: 'Grace likes teal (asked by r1)' }],
    });
    const progress = third.events.filter(
      (event) => (event as { method?: string }).method === 'notifications/progress',
    );
    expect(progress.map((event) => (event as { params: { message: string } }).params.message)).toEqual([
      'answers in on r1',
      'done',
    ]);
    // Spent: the run was taken, so the same state again is a clear "gone", relayed or not.
    const again = await round(urlOf(set, 1), second, { elicitation_2: accept({ colour: 'teal' }) });
    expect(again.body.error?.code).toBe(JsonRpcErrorCode.InvalidParams);
    expect(again.body.error?.message).toContain('is gone');
  });

  test('a JSON-only retry (no SSE) gets the relayed result without notifications', async () => {
    const set = await replicas({ count: 2 });
    const first = await round(urlOf(set, 0));
    const second = await round(urlOf(set, 1), first, { elicitation_1: accept({ name: 'Lin' }) });
    const third = await post(
      urlOf(set, 1),
      'tools/call',
      {
        name: 'ask_twice',
        arguments: {},
        requestState: second.body.result?.requestState,
        inputResponses: { elicitation_2: accept({ colour: 'red' }) },
        _meta: { ...envelope(caps), progressToken: 'p' },
      },
      { accept: 'application/json' },
    );
    expect(third.headers['content-type']).toContain('application/json');
    expect(third.body.result).toMatchObject({ content: [{ text: 'Lin likes red (asked by r1)' }] });
  });

  test('a resumed call that works longer than the relay timeout is kept alive, not cut off', async () => {
    const set = await replicas({ count: 2, transport: { retryRelayTimeoutMs: 200 } });
    const args = { workMs: 900 };
    const first = await round(urlOf(set, 0), undefined, undefined, args);
    const second = await round(urlOf(set, 1), first, { elicitation_1: accept({ name: 'Kim' }) }, args);
    const third = await round(urlOf(set, 1), second, { elicitation_2: accept({ colour: 'blue' }) }, args);
    expect(third.body.result).toMatchObject({ content: [{ text: 'Kim likes blue (asked by r1)' }] });
  });

  test('the client closing a relayed retry cancels the resumed run on the owner', async () => {
    const set = await replicas({ count: 2 });
    const args = { workMs: 10_000 };
    const first = await round(urlOf(set, 0), undefined, undefined, args);
    const second = await round(urlOf(set, 1), first, { elicitation_1: accept({ name: 'Kim' }) }, args);
    const closing = new AbortController();
    const working = waitForEvent<[string]>(set.events, 'work-started', { what: 'the resumed run to work' });
    const cancelled = waitForEvent<[string]>(set.events, 'work-cancelled', {
      what: 'the resumed run to see the cancellation',
    });
    const retry = fetch(urlOf(set, 1), {
      method: 'POST',
      signal: closing.signal,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'ask_twice',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: {
          name: 'ask_twice',
          arguments: args,
          requestState: second.body.result?.requestState,
          inputResponses: { elicitation_2: accept({ colour: 'blue' }) },
          _meta: envelope(caps),
        },
      }),
    }).catch((error: Error) => error);
    expect(await working).toEqual(['r1']);
    closing.abort();
    expect(await retry).toBeInstanceOf(Error);
    expect(await cancelled).toEqual(['r1']);
  });

  test('the owner closed between rounds: a clear error naming it, at once, telling the client to start again', async () => {
    const set = await replicas({ count: 2 });
    const first = await round(urlOf(set, 0));
    const [owner] = set.replicas;
    await owner?.handle.close();
    await owner?.state.close();
    const started = performance.now();
    const retry = await round(urlOf(set, 1), first, { elicitation_1: accept({ name: 'Ada' }) });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(retry.status).toBe(200);
    expect(retry.body.error?.code).toBe(JsonRpcErrorCode.InvalidParams);
    expect(retry.body.error?.data).toEqual({ reason: 'suspended_call_unreachable', replica: 'r1' });
    expect(retry.body.error?.message).toContain('parked on replica r1');
    expect(retry.body.error?.message).toContain('Call the tool again without requestState');
  });

  test('the owner HTTP server closed but its Redis state still connected: refused at once, not after the timeout', async () => {
    const set = await replicas({ count: 2, transport: { retryRelayTimeoutMs: 30_000 } });
    const first = await round(urlOf(set, 0));
    await set.replicas[0]?.handle.close();
    const started = performance.now();
    const retry = await round(urlOf(set, 1), first, { elicitation_1: accept({ name: 'Ada' }) });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(retry.body.error?.data).toEqual({ reason: 'suspended_call_unreachable', replica: 'r1' });
  });

  test('an owner that is subscribed but never answers: the error comes when the relay timeout ends', async () => {
    const keys = [randomBytes(32)];
    const set = await replicas({ count: 1, keys, transport: { retryRelayTimeoutMs: 300 } });
    // A "replica" listening on its channel that never answers (stuck).
    const ghost = new Redis(testRedisUrl);
    cleanups.push(async () => ghost.disconnect());
    await ghost.subscribe(`${set.prefix}replica:ghost`);
    const seal = new RequestStateSeal({ keys: keys.map((key) => deriveRequestStateKey(key)) });
    const requestState = await seal.seal({
      method: 'tools/call',
      target: 'ask_twice',
      runId: 'some-run',
      replica: 'ghost',
    });
    const started = performance.now();
    const retry = await post(urlOf(set, 0), 'tools/call', {
      name: 'ask_twice',
      arguments: {},
      requestState,
      inputResponses: { elicitation_1: accept({ name: 'Ada' }) },
      _meta: envelope(caps),
    });
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(3_000);
    expect(retry.body.error?.data).toEqual({ reason: 'suspended_call_unreachable', replica: 'ghost' });
    expect(retry.body.error?.message).toContain('no acknowledgement within 300 ms');
  });

  test('a requestState of another cluster (other session keys, so another derived key) is refused, not relayed', async () => {
    const ours = await replicas({ count: 2 });
    const theirs = await replicas({ count: 2 });
    const minted = await round(urlOf(theirs, 0));
    expect(minted.body.result?.resultType).toBe('input_required');
    const before = ours.replicas.map((replica) => replica.state.operations);
    const retry = await round(urlOf(ours, 1), minted, { elicitation_1: accept({ name: 'Eve' }) });
    expect(retry.body.error?.code).toBe(JsonRpcErrorCode.InvalidParams);
    expect(retry.body.error?.message).toContain('failed its integrity check');
    expect(retry.body.error?.data).toEqual({ reason: 'invalid_request_state' });
    // Refused before any relay: no Redis traffic for it.
    expect(ours.replicas.map((replica) => replica.state.operations)).toEqual(before);
  });

  test('without a shared key (a random one per process), a retry on another replica fails its integrity check', async () => {
    const set = await replicas({ count: 2, requestState: {} });
    const first = await round(urlOf(set, 0));
    const retry = await round(urlOf(set, 1), first, { elicitation_1: accept({ name: 'Ada' }) });
    expect(retry.body.error?.message).toContain('failed its integrity check');
  });

  test('rotation: replicas sealing with a new derived key still resume a state sealed under the old one', async () => {
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    const set = await replicas({ count: 2, keys: [oldKey] });
    const first = await round(urlOf(set, 0));
    // The state was sealed under derive(oldKey); a replica listing [new, old] opens it.
    const rotated = new RequestStateSeal({ keys: [newKey, oldKey].map((key) => deriveRequestStateKey(key)) });
    await expect(rotated.ownerOf(first.body.result?.requestState, 'tools/call')).resolves.toEqual({
      replica: 'r1',
      target: 'ask_twice',
    });
    const retired = new RequestStateSeal({ keys: [deriveRequestStateKey(newKey)] });
    await expect(
      rotated.open(await retired.seal({ method: 'tools/call', target: 'x' }), 'tools/call', 'x'),
    ).resolves.toEqual({
      method: 'tools/call',
      target: 'x',
    });
    await expect(
      retired.open(first.body.result?.requestState, 'tools/call', 'ask_twice'),
    ).rejects.toMatchObject({
      code: ServerErrorCode.RequestStateInvalid,
    });
  });

  test('Redis down: a retry that must be relayed gets the fast 503 of every shared-state path', async () => {
    const password = 'mrtr-pass';
    const redis = ownRedis(await freePort(), password);
    await redis.start();
    cleanups.push(() => redis.stop());
    const set = await replicas({ count: 2, redisUrl: `redis://:${password}@127.0.0.1:${redis.port}` });
    const first = await round(urlOf(set, 0));
    expect(first.body.result?.resultType).toBe('input_required');
    await redis.stop();
    const started = performance.now();
    const retry = await round(urlOf(set, 1), first, { elicitation_1: accept({ name: 'Ada' }) });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(retry.status).toBe(503);
    expect(retry.headers['retry-after']).toBe('1');
    expect(retry.body.error?.code).toBe(JsonRpcErrorCode.ClusterUnavailable);
    expect(retry.text).not.toContain(password);
    // The owner itself needs no Redis for its own retry.
    const local = await round(urlOf(set, 0), first, { elicitation_1: accept({ name: 'Ada' }) });
    expect(local.body.result?.resultType).toBe('input_required');
  });
});

describe('the pieces', () => {
  test('deriveRequestStateKey: HKDF-SHA256, deterministic, 32 bytes, not the session key; refuses a short key', () => {
    const key = randomBytes(32);
    const derived = deriveRequestStateKey(key);
    expect(derived).toHaveLength(32);
    expect(derived.equals(deriveRequestStateKey(Buffer.from(key)))).toBe(true);
    expect(derived.equals(key)).toBe(false);
    expect(() => deriveRequestStateKey(randomBytes(16))).toThrow(/32-byte session key/);
  });

  test('requestState.keys: an empty list or a short key is a configuration error', () => {
    expect(() => createMcpServer({ name: 'x', version: '1', requestState: { keys: [] } })).toThrow(
      /non-empty array/,
    );
    expect(() =>
      createMcpServer({ name: 'x', version: '1', requestState: { keys: [randomBytes(32), 'short'] } }),
    ).toThrow(/keys\[1\] must be at least 32 bytes/);
  });

  test('the memory cluster state relays to its own replica only', async () => {
    const state = createMemoryClusterState({ replicaId: 'solo' });
    const partials: unknown[] = [];
    const stop = state.onForwardedRequest(async (payload, { partial, from }) => {
      partial({ step: 1 });
      return { echoed: payload, from };
    });
    await expect(
      state.forwardRequest('solo', { a: 1 }, { timeoutMs: 100, onPartial: (value) => partials.push(value) }),
    ).resolves.toEqual({ echoed: { a: 1 }, from: 'solo' });
    expect(partials).toEqual([{ step: 1 }]);
    await expect(state.forwardRequest('other', {}, { timeoutMs: 100 })).rejects.toMatchObject({
      code: ServerErrorCode.ReplicaUnreachable,
    });
    stop();
    await expect(state.forwardRequest('solo', {}, { timeoutMs: 100 })).rejects.toMatchObject({
      code: ServerErrorCode.ReplicaUnreachable,
    });
  });

  test('one process with a replica id: its own retries are served locally (the memory state)', async () => {
    const server = createMcpServer({
      name: 'solo',
      version: '1.0.0',
      tools: [
        defineTool({
          name: 'ask_twice',
          description: 'asks once',
          execute: async (_args, { elicit }) => {
            const answer = await elicit({
              message: 'Your name?',
              requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
            } as never);
            return `hi ${String(answer.content?.name)}`;
          },
        }),
      ],
    });
    const handle = await serve(server, { transport: { type: 'http', port: 0, replicaId: 'only' } });
    cleanups.push(async () => {
      await handle.close();
      await server.close();
    });
    const first = await round(handle.url as string);
    const retry = await round(handle.url as string, first, { elicitation_1: accept({ name: 'Bo' }) });
    expect(retry.body.result).toMatchObject({ content: [{ text: 'hi Bo' }] });
  });
});
