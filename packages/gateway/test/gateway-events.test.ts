/**
 * Events (SEP-3415) through the gateway: a Switchboard upstream emitting events over HTTP on port 0,
 * two gateway replicas in front of it, and @switchboard/client downstream (2026-07-28). Types are
 * namespaced like tools; a poll or a stream begun on one replica resumes on the other from the
 * cursor (the replica serving it stopped mid-stream) with no event lost or repeated.
 */
import { createMcpClient, type EventOccurrence, type McpClient } from '@switchboard/client';
import { createToolName } from '@switchboard/core';
import { createEventHub, createMcpServer, type ServeHandle, serve } from '@switchboard/server';
import { createCollector } from '@switchboard/test-helpers';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createGateway } from '../src/index.js';

const hub = createEventHub({
  types: [
    {
      name: 'incident.created',
      description: 'An incident was opened.',
      inputSchema: { type: 'object', properties: { service: { type: 'string' } } },
      matches: (args, data) =>
        args.service === undefined || (data as { service: string }).service === args.service,
    },
    { name: 'hook.only', delivery: ['webhook'] },
  ],
});
const served = createToolName({ server: 'alerts', tool: 'incident.created' });
const cleanups: Array<() => Promise<unknown> | unknown> = [];
const replicas: Array<{ client: McpClient; stop(): Promise<void> }> = [];

async function startReplica(upstreamUrl: string) {
  const gateway = await createGateway({ config: { mcpServers: { alerts: { url: upstreamUrl } } } });
  const handle = (await serve(gateway, { transport: { type: 'http', port: 0 } })) as ServeHandle & {
    url: string;
  };
  const client = await createMcpClient('gateway', { url: handle.url, protocolVersion: '2026-07-28' });
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await client.close();
    await handle.close();
    await gateway.close();
  };
  cleanups.push(stop);
  return { client, stop };
}

beforeAll(async () => {
  const upstream = createMcpServer({ name: 'alerts', version: '1.0.0', events: hub });
  const handle = (await serve(upstream, { transport: { type: 'http', port: 0 } })) as ServeHandle & {
    url: string;
  };
  cleanups.push(() => handle.close());
  replicas.push(await startReplica(handle.url), await startReplica(handle.url));
}, 60_000);

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  hub.close();
});

const ids = (events: EventOccurrence[]) => events.map((event) => (event.data as { id: number }).id);

test('the upstream types are served namespaced like tools, with the modes the gateway relays and its own webhooks', async () => {
  const [a] = replicas;
  expect(a?.client.capabilities).toHaveProperty(['extensions', 'io.modelcontextprotocol/events']);
  const types = await a?.client.events().list();
  expect(types).toEqual([
    expect.objectContaining({
      name: served,
      description: 'An incident was opened.',
      delivery: ['poll', 'push', 'webhook'],
    }),
  ]);
});

test('a poll begun on one replica resumes on the other from its cursor', async () => {
  const [a, b] = replicas;
  const start = await a?.client.events().poll(served, { service: 'api' });
  hub.emit('incident.created', { id: 1, service: 'api' });
  hub.emit('incident.created', { id: 2, service: 'db' });
  hub.emit('incident.created', { id: 3, service: 'api' });
  const first = await b?.client
    .events()
    .poll(served, { service: 'api' }, { cursor: start?.cursor ?? null, maxEvents: 1 });
  expect(ids(first?.events ?? [])).toEqual([1]);
  expect(first?.events[0]?.name).toBe(served);
  const rest = await a?.client.events().poll(served, { service: 'api' }, { cursor: first?.cursor ?? null });
  expect(ids(rest?.events ?? [])).toEqual([3]);
  await expect(a?.client.events().poll(served, {}, { cursor: 'sbe1.x.1' })).rejects.toMatchObject({
    jsonRpcCode: -32602,
  });
  await expect(a?.client.events().poll('mcp__nowhere__x')).rejects.toMatchObject({ jsonRpcCode: -32011 });
});

test('a stream through a replica that stops resumes through the other with no event lost or repeated', async () => {
  const [a, b] = replicas;
  const before = createCollector<EventOccurrence>(2);
  const stream = a?.client
    .events()
    .stream(served, { service: 'api' }, { onEvent: (event) => before.push(event) });
  await stream?.active;
  hub.emit('incident.created', { id: 10, service: 'api' });
  hub.emit('incident.created', { id: 11, service: 'api' });
  await before.arrived;
  const resumeFrom = stream?.cursor ?? null;
  // The replica goes away mid-stream; events keep happening upstream.
  await a?.stop();
  hub.emit('incident.created', { id: 12, service: 'api' });
  hub.emit('incident.created', { id: 13, service: 'db' });
  const after = createCollector<EventOccurrence>(2);
  const resumed = b?.client.events().stream(
    served,
    { service: 'api' },
    {
      cursor: resumeFrom,
      onEvent: (event) => after.push(event),
    },
  );
  await resumed?.active;
  hub.emit('incident.created', { id: 14, service: 'api' });
  await after.arrived;
  await resumed?.close();
  expect(ids(before.values)).toEqual([10, 11]);
  expect(ids(after.values)).toEqual([12, 14]);
});

test('webhook subscriptions through the gateway need an authenticated caller, as the server says', async () => {
  const b = replicas[1];
  await expect(
    b?.client
      .events()
      .subscribe(served, {}, { url: 'https://hooks.example.com/in', secret: `whsec_${'a'.repeat(40)}` }),
  ).rejects.toMatchObject({ jsonRpcCode: -32012 });
});
