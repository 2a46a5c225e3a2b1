/**
 * `switchboard serve --http --redis …`: webhook subscriptions to the upstreams' events live in
 * Redis, so two replicas (two real `switchboard serve` processes) share them: a subscription made
 * through replica A is delivered, signed by the gateway, to a real local receiver, and replica B
 * finds it and ends it. `--allow-local-webhooks` is what lets a local `http://` receiver subscribe;
 * without it the callback is refused with a message naming the policy.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  type ClientError,
  createMcpClient,
  type McpClient,
  verifyWebhookDelivery,
} from '@switchboard/client';
import { createToolName } from '@switchboard/core';
import { createEventHub, createMcpServer, type ServeHandle, serve } from '@switchboard/server';
import { createEventLog } from '@switchboard/test-helpers';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createSandbox } from './run-cli-helper.js';
import { startServeProcess } from './serve-process.js';

const redisUrl = process.env.SWITCHBOARD_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `switchboard-test-cli-webhooks-${randomBytes(4).toString('hex')}:`;
const token = `cli-webhooks-${randomBytes(12).toString('hex')}`;
const secret = `whsec_${randomBytes(32).toString('base64')}`;
const sandbox = createSandbox();
const configFile = join(sandbox.root, 'mcp.json');
const hub = createEventHub({
  types: [{ name: 'incident.created', inputSchema: { type: 'object', properties: {} } }],
});
const children: ChildProcess[] = [];
const clients: McpClient[] = [];
let upstream: ServeHandle;
let receiver: Server;
let receiverUrl = '';
const deliveries = createEventLog<{ webhookId: string; data: unknown }>('webhook deliveries');

beforeAll(async () => {
  upstream = await serve(createMcpServer({ name: 'alerts', version: '1.0.0', events: hub }), {
    transport: { type: 'http', port: 0 },
  });
  mkdirSync(sandbox.home, { recursive: true });
  writeFileSync(configFile, JSON.stringify({ mcpServers: { alerts: { url: upstream.url } } }));
  receiver = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    let verified: ReturnType<typeof verifyWebhookDelivery>;
    try {
      verified = verifyWebhookDelivery(Buffer.concat(chunks).toString('utf8'), request.headers, { secret });
    } catch {
      response.writeHead(401).end();
      return;
    }
    if (verified.body.type === 'verification') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ challenge: verified.body.challenge }));
      return;
    }
    deliveries.push({ webhookId: verified.webhookId, data: verified.body.data });
    response.writeHead(200).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve()));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => {});
  for (const child of children) child.kill('SIGKILL');
  await upstream?.close();
  await new Promise<void>((resolve) => {
    receiver?.close(() => resolve());
    receiver?.closeAllConnections();
  });
  // Whatever the test left subscribed is removed from Redis (the index set goes with its last id).
  const { createRedisClusterState } = await import('@switchboard/server/redis');
  const sweeper = createRedisClusterState({ url: redisUrl, keyPrefix: prefix, replicaId: 'sweep' });
  const store = sweeper.webhookSubscriptions;
  for (const id of await store.listWebhookSubscriptions()) await store.deleteWebhookSubscription(id);
  await sweeper.close();
  hub.close();
  sandbox.cleanup();
});

/** Starts `switchboard serve --http` with `flags`; resolves with a client of it once it serves. */
async function replica(id: string, flags: string[]): Promise<McpClient> {
  const { url } = await startServeProcess(
    `replica ${id}`,
    ['--token', token, '--replica-id', id, ...flags, '--config', configFile],
    { ...sandbox.env, SWITCHBOARD_STORE: 'off' },
    children,
  );
  const client = await createMcpClient(`gateway-${id}`, {
    url,
    headers: { authorization: `Bearer ${token}` },
  });
  clients.push(client);
  return client;
}

test('a subscription made through one replica is delivered and found by the other (Redis)', async () => {
  const shared = ['--redis', redisUrl, '--redis-prefix', prefix, '--allow-local-webhooks'];
  const [first, second] = await Promise.all([replica('a', shared), replica('b', shared)]);
  // Served namespaced like a tool: mcp__alerts__incident_created.
  const name = createToolName({ server: 'alerts', tool: 'incident.created' });
  expect((await first.events().list()).map((type) => type.name)).toEqual([name]);
  await first.events().subscribe(name, {}, { url: receiverUrl, secret });

  hub.emit('incident.created', { id: 1 });
  const [delivered] = await deliveries.atLeast(1);
  expect(delivered?.data).toEqual({ id: 1 });

  // Replica B never saw the subscribe: it finds the subscription in Redis and ends it. A replica
  // keeping subscriptions in its own process answers "no such subscription" here.
  await expect(second.events().unsubscribe(name, {}, { url: receiverUrl })).resolves.toBeUndefined();
  // Gone everywhere: a second unsubscribe, through A, finds nothing.
  const again = await first
    .events()
    .unsubscribe(name, {}, { url: receiverUrl })
    .catch((error: ClientError) => error);
  expect(again).toBeInstanceOf(Error);
});

test('without --allow-local-webhooks a local http:// callback is refused, naming the policy', async () => {
  const client = await replica('c', []);
  const name = createToolName({ server: 'alerts', tool: 'incident.created' });
  const refused = await client
    .events()
    .subscribe(name, {}, { url: receiverUrl, secret })
    .catch((error: ClientError) => error);
  expect(refused).toBeInstanceOf(Error);
  expect((refused as ClientError).message).toContain(
    'delivery.url is not an allowed callback: it must be https and not a loopback or private address',
  );
});
