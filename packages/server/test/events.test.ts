/**
 * The Events extension (SEP-3415) end to end: a Switchboard server with an event hub over real HTTP
 * on port 0, and @switchboard/client on the other side (2026-07-28; a 2025 session is told the
 * extension is not there). Webhooks go to the client's real receiver on port 0, signed with
 * Standard Webhooks; tampered and stale deliveries are refused with their codes.
 */
import { randomBytes } from 'node:crypto';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import {
  type ClientError,
  createMcpClient,
  createWebhookReceiver,
  type EventOccurrence,
  type McpClient,
} from '@switchboard/client';
import { createCollector, envelope, post } from '@switchboard/test-helpers';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, test } from 'vitest';
import { createEventHub, createMcpServer, type EventHub, type ServeHandle, serve } from '../src/index.js';

const secret = `whsec_${randomBytes(32).toString('base64')}`;
const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function makeHub(retain?: number): EventHub {
  return createEventHub({
    types: [
      {
        name: 'incident.created',
        description: 'An incident was opened.',
        inputSchema: {
          type: 'object',
          properties: { service: { type: 'string' } },
          additionalProperties: false,
        },
        payloadSchema: {
          type: 'object',
          properties: { id: { type: 'number' }, service: { type: 'string' } },
        },
        matches: (args, data) =>
          args.service === undefined || (data as { service?: string }).service === args.service,
      },
      { name: 'tick', delivery: ['poll'] },
    ],
    ...(retain !== undefined ? { retain } : {}),
    webhooks: {
      retryDelaysMs: [5, 5],
      anonymousPrincipal: 'local-user',
      allowCallback: (url) => url.hostname === '127.0.0.1',
    },
  });
}

async function start(
  hub: EventHub,
  protocolVersion = '2026-07-28',
): Promise<{ client: McpClient; url: string }> {
  const server = createMcpServer({
    name: 'events',
    version: '1.0.0',
    events: hub,
    eventDelivery: { heartbeatMs: 50 },
  });
  const handle = (await serve(server, { transport: { type: 'http', port: 0 } })) as ServeHandle & {
    url: string;
  };
  cleanups.push(() => handle.close());
  const client = await createMcpClient('events', { url: handle.url, protocolVersion });
  cleanups.push(() => client.close());
  cleanups.push(() => hub.close());
  return { client, url: handle.url };
}

describe('discovery and eras', () => {
  test('2026-07-28 declares the extension and lists the types with their schemas and delivery modes', async () => {
    const { client, url } = await start(makeHub());
    const discover = await post(url, 'server/discover', { _meta: envelope() });
    expect(discover.body.result?.capabilities).toMatchObject({
      extensions: { 'io.modelcontextprotocol/events': {} },
    });
    const types = await client.events().list();
    expect(types).toEqual([
      expect.objectContaining({
        name: 'incident.created',
        delivery: ['poll', 'push', 'webhook'],
        inputSchema: expect.objectContaining({ properties: { service: { type: 'string' } } }),
        payloadSchema: expect.any(Object),
      }),
      { name: 'tick', delivery: ['poll'], inputSchema: { type: 'object' } },
    ]);
  });

  test('a 2025 session is told the extension is not there, and the methods are not served to it', async () => {
    const { client, url } = await start(makeHub(), '2025-11-25');
    expect(client.capabilities).not.toHaveProperty('extensions.io\\.modelcontextprotocol/events');
    await expect(client.events().list()).rejects.toMatchObject({ code: 'EVENTS_UNAVAILABLE' });
    const raw = await post(
      url,
      'events/list',
      {},
      { 'mcp-protocol-version': undefined, 'mcp-method': undefined },
    );
    expect(raw.body.error?.code).toBe(-32601);
  });
});

describe('poll', () => {
  test('starts now, pages with maxEvents, and resumes from a cursor with no event lost or repeated', async () => {
    const hub = makeHub();
    const { client } = await start(hub);
    const events = client.events();
    hub.emit('incident.created', { id: 0, service: 'api' });
    const first = await events.poll('incident.created');
    expect(first).toMatchObject({ events: [], truncated: false, hasMore: false });
    for (let id = 1; id <= 5; id += 1) hub.emit('incident.created', { id, service: 'api' });
    const page = await events.poll('incident.created', {}, { cursor: first.cursor, maxEvents: 2 });
    expect(page.events.map((event) => (event.data as { id: number }).id)).toEqual([1, 2]);
    expect(page).toMatchObject({ hasMore: true, truncated: false, nextPollMs: 0 });
    const rest = await events.poll('incident.created', {}, { cursor: page.cursor });
    expect(rest.events.map((event) => (event.data as { id: number }).id)).toEqual([3, 4, 5]);
    expect(rest.hasMore).toBe(false);
    const again = await events.poll('incident.created', {}, { cursor: rest.cursor });
    expect(again.events).toEqual([]);
    // A cursor of one event resumes right after it.
    const fromThird = await events.poll('incident.created', {}, { cursor: rest.events[0]?.cursor ?? null });
    expect(fromThird.events.map((event) => (event.data as { id: number }).id)).toEqual([4, 5]);
    expect(rest.events[0]).toMatchObject({
      name: 'incident.created',
      eventId: expect.any(String),
      timestamp: expect.any(String),
    });
  });

  test('says truncated when the buffer lost events after the cursor, and filters by the arguments', async () => {
    const hub = makeHub(3);
    const { client } = await start(hub);
    const events = client.events();
    const start0 = await events.poll('incident.created', { service: 'db' });
    for (let id = 1; id <= 6; id += 1)
      hub.emit('incident.created', { id, service: id % 2 === 0 ? 'db' : 'api' });
    const read = await events.poll('incident.created', { service: 'db' }, { cursor: start0.cursor });
    expect(read.truncated).toBe(true);
    expect(read.events.map((event) => (event.data as { id: number }).id)).toEqual([4, 6]);
    const next = await events.poll('incident.created', { service: 'db' }, { cursor: read.cursor });
    expect(next).toMatchObject({ events: [], truncated: false });
  });

  test('a cursor of an earlier life of the server (a restart) reads what is kept, marked truncated', async () => {
    const before = makeHub();
    const old = await start(before);
    const cursor = (await old.client.events().poll('incident.created')).cursor;
    const after = makeHub();
    const restarted = await start(after);
    after.emit('incident.created', { id: 7, service: 'api' });
    const read = await restarted.client.events().poll('incident.created', {}, { cursor });
    expect(read.truncated).toBe(true);
    expect(read.events.map((event) => (event.data as { id: number }).id)).toEqual([7]);
  });

  test("bad requests are refused with the extension's codes", async () => {
    const { client } = await start(makeHub());
    const events = client.events();
    await expect(events.poll('nope')).rejects.toMatchObject({ jsonRpcCode: -32011 });
    await expect(events.poll('incident.created', { service: 7 })).rejects.toMatchObject({
      jsonRpcCode: -32602,
    });
    await expect(events.poll('incident.created', {}, { cursor: 'not-ours' })).rejects.toMatchObject({
      jsonRpcCode: -32602,
    });
    const stream = events.stream('tick', {}, { onEvent() {} });
    await expect(stream.active).rejects.toMatchObject({ jsonRpcCode: -32014 });
  });
});

describe('stream', () => {
  test('delivers live events in order, and a new stream from the last cursor misses and repeats nothing', async () => {
    const hub = makeHub();
    const { client } = await start(hub);
    const events = client.events();
    const firstBatch = createCollector<EventOccurrence>(2);
    const stream = events.stream(
      'incident.created',
      { service: 'api' },
      { onEvent: (event) => firstBatch.push(event) },
    );
    await stream.active;
    hub.emit('incident.created', { id: 1, service: 'api' });
    hub.emit('incident.created', { id: 2, service: 'db' });
    hub.emit('incident.created', { id: 3, service: 'api' });
    await firstBatch.arrived;
    expect(firstBatch.values.map((event) => (event.data as { id: number }).id)).toEqual([1, 3]);
    const resumeFrom = stream.cursor;
    await stream.close();
    // Emitted while nobody listens.
    hub.emit('incident.created', { id: 4, service: 'api' });
    hub.emit('incident.created', { id: 5, service: 'api' });
    const secondBatch = createCollector<EventOccurrence>(3);
    let truncated: boolean | undefined;
    const resumed = events.stream(
      'incident.created',
      { service: 'api' },
      {
        cursor: resumeFrom,
        onEvent: (event) => secondBatch.push(event),
        onActive: (info) => {
          truncated = info.truncated;
        },
      },
    );
    await resumed.active;
    hub.emit('incident.created', { id: 6, service: 'api' });
    await secondBatch.arrived;
    await resumed.close();
    expect(truncated).toBe(false);
    expect(secondBatch.values.map((event) => (event.data as { id: number }).id)).toEqual([4, 5, 6]);
  });
});

describe('webhooks', () => {
  test('deliver signed events to a real receiver, retry a failed one once acknowledged, and resume from the cursor', async () => {
    const hub = makeHub();
    const { client } = await start(hub);
    const received = createCollector<EventOccurrence>(3);
    let failOnce = true;
    const receiver = await createWebhookReceiver({
      secret,
      onEvent: (event) => {
        if (failOnce && (event.data as { id: number }).id === 2) {
          failOnce = false;
          throw new Error('not yet');
        }
        received.push(event);
      },
    });
    cleanups.push(() => receiver.close());
    const subscription = await client
      .events()
      .subscribe('incident.created', {}, { url: receiver.url, secret });
    expect(subscription.id).toMatch(/^sub_/);
    expect(Date.parse(subscription.refreshBefore)).toBeGreaterThan(Date.now());
    // Subscribing again refreshes the same subscription.
    const again = await client.events().subscribe('incident.created', {}, { url: receiver.url, secret });
    expect(again.id).toBe(subscription.id);
    expect(hub.webhooks.size).toBe(1);
    for (let id = 1; id <= 3; id += 1) hub.emit('incident.created', { id, service: 'api' });
    await received.arrived;
    expect(received.values.map((event) => (event.data as { id: number }).id)).toEqual([1, 2, 3]);
    await expect.poll(() => receiver.cursor).toBe(received.values[2]?.cursor);

    // Gone for a while: a new subscription from the receiver's cursor gets what it missed, once.
    await client.events().unsubscribe('incident.created', {}, { url: receiver.url });
    expect(hub.webhooks.size).toBe(0);
    hub.emit('incident.created', { id: 4, service: 'api' });
    const missed = createCollector<EventOccurrence>(4);
    for (const event of received.values) missed.push(event);
    received.values.length = 0;
    const resumedReceiver = await createWebhookReceiver({ secret, onEvent: (event) => missed.push(event) });
    cleanups.push(() => resumedReceiver.close());
    await client
      .events()
      .subscribe('incident.created', {}, { url: resumedReceiver.url, secret, cursor: receiver.cursor });
    await missed.arrived;
    expect(missed.values.map((event) => (event.data as { id: number }).id)).toEqual([1, 2, 3, 4]);
  });

  test('the receiver refuses tampered and stale deliveries with coded errors, never as events', async () => {
    const rejected: ClientError[] = [];
    const events: EventOccurrence[] = [];
    const receiver = await createWebhookReceiver({
      secret,
      onEvent: (event) => {
        events.push(event);
      },
      onRejected: (error) => rejected.push(error),
    });
    cleanups.push(() => receiver.close());
    const body = JSON.stringify({
      eventId: 'evt_1',
      name: 'incident.created',
      timestamp: new Date().toISOString(),
      data: { id: 1 },
      cursor: null,
    });
    const deliver = async (payload: string, at: Date, signWith = secret) => {
      const signature = new Webhook(signWith).sign('evt_1', at, body);
      const response = await fetch(receiver.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'webhook-id': 'evt_1',
          'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
          'webhook-signature': signature,
        },
        body: payload,
      });
      return response.status;
    };
    expect(await deliver(body.replace('"id":1', '"id":2'), new Date())).toBe(401);
    expect(await deliver(body, new Date(Date.now() - 600_000))).toBe(401);
    expect(await deliver(body, new Date(), `whsec_${randomBytes(32).toString('base64')}`)).toBe(401);
    expect(rejected.map((error) => error.code)).toEqual([
      'WEBHOOK_SIGNATURE_INVALID',
      'WEBHOOK_TIMESTAMP_EXPIRED',
      'WEBHOOK_SIGNATURE_INVALID',
    ]);
    expect(events).toEqual([]);
    expect(await deliver(body, new Date())).toBe(204);
    expect(events.map((event) => event.eventId)).toEqual(['evt_1']);
  });

  test('a 410 ends the subscription; callbacks that fail verification or break the policy are refused', async () => {
    const hub = makeHub();
    const { client } = await start(hub);
    let gone!: () => void;
    const goneSeen = new Promise<void>((resolve) => {
      gone = resolve;
    });
    const { createServer } = await import('node:http');
    const endpoint = createServer((request, response) => {
      let raw = '';
      request.on('data', (chunk) => {
        raw += chunk;
      });
      request.on('end', () => {
        const body = JSON.parse(raw) as { type?: string; challenge?: string };
        if (body.type === 'verification') {
          response
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ challenge: body.challenge }));
          return;
        }
        response.writeHead(410).end();
        gone();
      });
    });
    await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => endpoint.close(resolve)));
    const url = `http://127.0.0.1:${(endpoint.address() as { port: number }).port}/`;
    await client.events().subscribe('incident.created', {}, { url, secret });
    hub.emit('incident.created', { id: 1, service: 'api' });
    await goneSeen;
    await expect.poll(() => hub.webhooks.size).toBe(0);

    // An endpoint that does not echo the challenge.
    const silent = createServer((_request, response) => response.writeHead(204).end());
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => silent.close(resolve)));
    await expect(
      client
        .events()
        .subscribe(
          'incident.created',
          {},
          { url: `http://127.0.0.1:${(silent.address() as { port: number }).port}/`, secret },
        ),
    ).rejects.toMatchObject({ jsonRpcCode: -32015 });
    await expect(
      client.events().subscribe('incident.created', {}, { url: 'http://example.com/hook', secret }),
    ).rejects.toMatchObject({ jsonRpcCode: -32602 });
    await expect(
      client.events().subscribe('incident.created', {}, { url, secret: 'whsec_short' }),
    ).rejects.toMatchObject({ jsonRpcCode: -32602 });
  });

  test('without an authenticated caller, webhook subscriptions are forbidden', async () => {
    const hub = createEventHub({
      types: [{ name: 'incident.created' }],
      webhooks: { allowCallback: () => true },
    });
    const { client } = await start(hub);
    await expect(
      client.events().subscribe('incident.created', {}, { url: 'https://hooks.example.com/in', secret }),
    ).rejects.toMatchObject({ jsonRpcCode: -32012 });
  });
});

test('over a message connection (as stdio serves), a 2026-07-28 client polls and streams', async () => {
  const hub = makeHub();
  const server = createMcpServer({ name: 'events', version: '1.0.0', events: hub });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const connection = await server.connect(serverSide);
  cleanups.push(() => connection.close());
  const client = await createMcpClient('events', clientSide, { protocolVersion: '2026-07-28' });
  cleanups.push(() => client.close());
  const events = client.events();
  const start = await events.poll('incident.created');
  const streamed = createCollector<EventOccurrence>(2);
  const stream = events.stream(
    'incident.created',
    {},
    { cursor: start.cursor, onEvent: (event) => streamed.push(event) },
  );
  await stream.active;
  hub.emit('incident.created', { id: 1, service: 'api' });
  hub.emit('incident.created', { id: 2, service: 'api' });
  await streamed.arrived;
  await stream.close();
  expect(streamed.values.map((event) => (event.data as { id: number }).id)).toEqual([1, 2]);
  const polled = await events.poll('incident.created', {}, { cursor: start.cursor });
  expect(polled.events.map((event) => event.eventId)).toEqual(streamed.values.map((event) => event.eventId));
});
