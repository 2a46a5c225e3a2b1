/**
 * Webhooks through the gateway (SEP-3415 `events/subscribe`): a Switchboard upstream emitting events
 * of our own over HTTP on port 0, gateway replicas on port 0 sharing their subscriptions through
 * real Redis, and a real local receiver on port 0 that verifies every delivery's Standard Webhooks
 * signature (the client's verifier). The gateway signs and posts itself, one replica at a time per
 * subscription; a replica cut off mid-delivery hands over, once its lease lapses, to another that
 * resumes from the stored cursor: every event arrives, and only the one in flight twice, under the
 * same `webhook-id`.
 */
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpClient, type McpClient, verifyWebhookDelivery } from '@switchboard/client';
import { createToolName } from '@switchboard/core';
import { createEventHub, createMcpServer, type ServeHandle, serve } from '@switchboard/server';
import { createRedisClusterState, type RedisClusterState } from '@switchboard/server/redis';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createGateway, type Gateway, type GatewayWebhookOptions } from '../src/index.js';

const redisUrl = process.env.SWITCHBOARD_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `switchboard-test-webhooks-${randomBytes(4).toString('hex')}:`;
const secret = `whsec_${randomBytes(32).toString('base64')}`;
const served = createToolName({ server: 'alerts', tool: 'incident.created' });

const hub = createEventHub({
  types: [
    {
      name: 'incident.created',
      inputSchema: { type: 'object', properties: { service: { type: 'string' } } },
      matches: (args, data) =>
        args.service === undefined || (data as { service: string }).service === args.service,
    },
  ],
});

/** One verified POST the receiver took. */
interface Delivery {
  path: string;
  webhookId: string;
  subscriptionId: string | undefined;
  body: Record<string, unknown>;
  raw: { body: string; headers: IncomingHttpHeaders };
}

/** A local webhook endpoint: verifies, echoes challenges, records every delivery (retries too). */
interface Receiver {
  url: string;
  deliveries: Delivery[];
  rejected: number;
  /** Holds the answer to the first delivery of event `id` until `release` is called. */
  hold(id: number): { arrived: Promise<void>; release(): void };
  /** Resolves once the deliveries satisfy `check`. */
  until(check: (deliveries: Delivery[]) => boolean): Promise<void>;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const arrivals = new EventEmitter();
  const holds = new Map<number, { arrived: () => void; released: Promise<void> }>();
  const receiver: Receiver = {
    url: '',
    deliveries: [],
    rejected: 0,
    hold(id) {
      let arrived: () => void = () => {};
      let release: () => void = () => {};
      const arrival = new Promise<void>((resolve) => {
        arrived = resolve;
      });
      holds.set(id, { arrived, released: new Promise<void>((resolve) => (release = resolve)) });
      return { arrived: arrival, release: () => release() };
    },
    until(check) {
      return new Promise((resolve) => {
        const look = () => {
          if (!check(receiver.deliveries)) return;
          arrivals.off('delivery', look);
          resolve();
        };
        arrivals.on('delivery', look);
        look();
      });
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    let verified: ReturnType<typeof verifyWebhookDelivery>;
    try {
      verified = verifyWebhookDelivery(body, request.headers, { secret });
    } catch {
      receiver.rejected += 1;
      response.writeHead(401).end();
      return;
    }
    const path = new URL(request.url ?? '/', 'http://receiver').pathname;
    if (verified.body.type === 'verification') {
      if (path === '/refuse') {
        response.writeHead(403).end();
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ challenge: verified.body.challenge }));
      return;
    }
    receiver.deliveries.push({ path, ...verified, raw: { body, headers: request.headers } });
    arrivals.emit('delivery');
    const id = (verified.body.data as { id?: number } | undefined)?.id ?? -1;
    const held = holds.get(id);
    if (held !== undefined) {
      holds.delete(id);
      held.arrived();
      await held.released;
    }
    response.writeHead(path === '/gone' ? 410 : 200).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}

interface Replica {
  gateway: Gateway;
  client: McpClient;
  handle: ServeHandle;
  cluster: RedisClusterState | undefined;
  stop(): Promise<void>;
}

let upstreamUrl = '';
let receiver: Receiver;
const cleanups: Array<() => Promise<unknown> | unknown> = [];

const webhookOptions = {
  allowCallback: () => true,
  anonymousPrincipal: 'tester',
  leaseTtlMs: 600,
  pollIntervalMs: 25,
  retryDelaysMs: [20, 20],
} satisfies GatewayWebhookOptions;

async function startReplica(replicaId: string | undefined, webhooks: boolean = true): Promise<Replica> {
  const cluster =
    replicaId === undefined
      ? undefined
      : createRedisClusterState({ url: redisUrl, keyPrefix: prefix, replicaId });
  const gateway = await createGateway({
    config: { mcpServers: { alerts: { url: upstreamUrl } } },
    webhooks: webhooks && { ...webhookOptions, ...(cluster !== undefined ? { cluster } : {}) },
  });
  const handle = await serve(gateway, {
    transport: { type: 'http', port: 0, ...(cluster !== undefined ? { cluster } : {}) },
  });
  const client = await createMcpClient('gateway', {
    url: (handle as ServeHandle & { url: string }).url,
    protocolVersion: '2026-07-28',
  });
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await client.close();
    // A test may have cut this replica off already.
    await handle.close().catch(() => undefined);
    await gateway.close();
    await cluster?.close().catch(() => undefined);
  };
  cleanups.push(stop);
  return { gateway, client, handle, cluster, stop };
}

let a: Replica;

beforeAll(async () => {
  const upstream = createMcpServer({ name: 'alerts', version: '1.0.0', events: hub });
  const handle = (await serve(upstream, { transport: { type: 'http', port: 0 } })) as ServeHandle & {
    url: string;
  };
  upstreamUrl = handle.url;
  cleanups.push(() => handle.close());
  receiver = await startReceiver();
  cleanups.push(() => receiver.close());
  a = await startReplica('wa');
}, 60_000);

afterAll(async () => {
  // Whatever a test left subscribed is removed from Redis (the index set goes with its last id).
  const sweeper = createRedisClusterState({ url: redisUrl, keyPrefix: prefix, replicaId: 'sweep' });
  const store = sweeper.webhookSubscriptions;
  for (const id of await store.listWebhookSubscriptions()) await store.deleteWebhookSubscription(id);
  await sweeper.close();
  for (const cleanup of cleanups.reverse()) await cleanup();
  hub.close();
});

const idOf = (delivery: Delivery) => (delivery.body.data as { id: number }).id;
const at = (path: string) => receiver.deliveries.filter((delivery) => delivery.path === path);
const delivery = (path: string) => ({ url: `${receiver.url}${path}`, secret });

test('every relayed type is offered by webhook, and deliveries arrive signed, named as served, once each', async () => {
  const types = await a.client.events().list();
  expect(types.find((type) => type.name === served)?.delivery).toEqual(['poll', 'push', 'webhook']);
  const subscription = await a.client.events().subscribe(served, { service: 'api' }, delivery('/basic'));
  expect(subscription.id).toMatch(/^sub_/);
  expect(subscription.cursor).toMatch(/^sbg1\./);
  // Subscribing again is a refresh of the same subscription, not a second one.
  const again = await a.client.events().subscribe(served, { service: 'api' }, delivery('/basic'));
  expect(again.id).toBe(subscription.id);
  const emitted = [
    hub.emit('incident.created', { id: 1, service: 'api' }),
    hub.emit('incident.created', { id: 2, service: 'db' }),
    hub.emit('incident.created', { id: 3, service: 'api' }),
  ];
  await receiver.until(() => at('/basic').length === 2);
  const got = at('/basic');
  expect(got.map(idOf)).toEqual([1, 3]);
  expect(got.map((each) => each.webhookId)).toEqual([emitted[0]?.eventId, emitted[2]?.eventId]);
  expect(got.map((each) => each.body.eventId)).toEqual([emitted[0]?.eventId, emitted[2]?.eventId]);
  expect(got[0]?.body.name).toBe(served);
  expect(got[0]?.subscriptionId).toBe(subscription.id);
  expect(String(got[0]?.body.cursor)).toMatch(/^sbg1\./);
});

test('a tampered delivery fails verification at the receiver', async () => {
  const [real] = at('/basic');
  if (real === undefined) throw new Error('the first test delivers first');
  const tampered = real.raw.body.replace('"api"', '"evil"');
  expect(() => verifyWebhookDelivery(tampered, real.raw.headers, { secret })).toThrow(
    expect.objectContaining({ code: 'WEBHOOK_SIGNATURE_INVALID' }),
  );
  const before = receiver.rejected;
  const signed = ['webhook-id', 'webhook-timestamp', 'webhook-signature'];
  const answer = await fetch(`${receiver.url}/basic`, {
    method: 'POST',
    headers: Object.fromEntries(signed.map((name) => [name, String(real.raw.headers[name])])),
    body: tampered,
  });
  expect(answer.status).toBe(401);
  expect(receiver.rejected).toBe(before + 1);
});

test('bad subscribes are refused with their codes', async () => {
  const events = a.client.events();
  await expect(events.subscribe('mcp__alerts__nope', {}, delivery('/x'))).rejects.toMatchObject({
    jsonRpcCode: -32011,
  });
  await expect(events.subscribe(served, {}, { url: 'not a url', secret })).rejects.toMatchObject({
    jsonRpcCode: -32602,
  });
  await expect(events.subscribe(served, {}, { url: `${receiver.url}/x`, secret: '' })).rejects.toMatchObject({
    jsonRpcCode: -32602,
  });
  await expect(events.subscribe(served, { service: 7 }, delivery('/x'))).rejects.toMatchObject({
    jsonRpcCode: -32602,
  });
  await expect(events.subscribe(served, {}, delivery('/refuse'))).rejects.toMatchObject({
    jsonRpcCode: -32015,
  });
  await expect(events.unsubscribe(served, {}, { url: `${receiver.url}/never` })).rejects.toMatchObject({
    jsonRpcCode: -32011,
  });
});

test('unsubscribe stops delivery; a 410 ends the subscription everywhere', async () => {
  const events = a.client.events();
  await events.subscribe(served, { service: 'ops' }, delivery('/one'));
  await events.subscribe(served, { service: 'ops' }, delivery('/two'));
  await events.subscribe(served, { service: 'ops' }, delivery('/gone'));
  hub.emit('incident.created', { id: 20, service: 'ops' });
  await receiver.until(() => at('/one').length === 1 && at('/two').length === 1 && at('/gone').length === 1);
  await events.unsubscribe(served, { service: 'ops' }, { url: `${receiver.url}/one` });
  hub.emit('incident.created', { id: 21, service: 'ops' });
  await receiver.until(() => at('/two').length === 2);
  expect(at('/one').map(idOf)).toEqual([20]);
  expect(at('/two').map(idOf)).toEqual([20, 21]);
  // The endpoint answered 410 to event 20: the subscription is gone, event 21 never went there.
  expect(at('/gone').map(idOf)).toEqual([20]);
  await expect(
    events.unsubscribe(served, { service: 'ops' }, { url: `${receiver.url}/gone` }),
  ).rejects.toMatchObject({ jsonRpcCode: -32011 });
  await events.unsubscribe(served, { service: 'ops' }, { url: `${receiver.url}/two` });
});

test('a replica cut off mid-delivery: another takes the lease over from the stored cursor, nothing lost or repeated after dedupe', async () => {
  const subscription = await a.client.events().subscribe(served, { service: 'pay' }, delivery('/failover'));
  const emitted = [hub.emit('incident.created', { id: 30, service: 'pay' })];
  await receiver.until(() => at('/failover').length === 1);
  // Replica B starts now: replica A holds the subscription's lease and keeps renewing it.
  const b = await startReplica('wb');
  const held = receiver.hold(32);
  emitted.push(hub.emit('incident.created', { id: 31, service: 'pay' }));
  hub.emit('incident.created', { id: 99, service: 'db' });
  emitted.push(hub.emit('incident.created', { id: 32, service: 'pay' }));
  emitted.push(hub.emit('incident.created', { id: 33, service: 'pay' }));
  await held.arrived;
  // Replica A dies with event 32 in flight: its shared state is cut (no renewal, no release) and
  // its endpoint stops; its lease lapses and replica B resumes from the last acknowledged event.
  await a.cluster?.close();
  await a.handle.close();
  emitted.push(hub.emit('incident.created', { id: 34, service: 'pay' }));
  await receiver.until(
    (all) => new Set(all.filter((each) => each.path === '/failover').map(idOf)).size === 5,
  );
  held.release();
  const got = at('/failover');
  const firsts = got.filter(
    (each, index) => got.findIndex((other) => other.webhookId === each.webhookId) === index,
  );
  expect(firsts.map(idOf)).toEqual([30, 31, 32, 33, 34]);
  expect(firsts.map((each) => each.webhookId)).toEqual(emitted.map((event) => event.eventId));
  // Only the event in flight when A died was posted twice (by A, then by B), under the same webhook-id.
  expect(got.filter((each) => idOf(each) === 32).length).toBe(2);
  expect(got.length).toBe(6);
  expect(got.every((each) => each.subscriptionId === subscription.id)).toBe(true);
  // Subscriptions A took are B's to refresh and end now.
  await b.client.events().unsubscribe(served, { service: 'pay' }, { url: `${receiver.url}/failover` });
});

test('a single process delivers the same way over its in-process store', async () => {
  const single = await startReplica(undefined);
  await single.client.events().subscribe(served, { service: 'solo' }, delivery('/solo'));
  const event = hub.emit('incident.created', { id: 40, service: 'solo' });
  await receiver.until(() => at('/solo').length === 1);
  expect(at('/solo')[0]?.webhookId).toBe(event.eventId);
  await single.client.events().unsubscribe(served, { service: 'solo' }, { url: `${receiver.url}/solo` });
  await single.stop();
});

test('with webhooks turned off, subscribes are answered as unsupported and types list no webhook mode', async () => {
  const off = await startReplica(undefined, false);
  const types = await off.client.events().list();
  expect(types.find((type) => type.name === served)?.delivery).toEqual(['poll', 'push']);
  await expect(off.client.events().subscribe(served, {}, delivery('/off'))).rejects.toMatchObject({
    jsonRpcCode: -32014,
  });
  await off.stop();
});
