/**
 * The 2025-11-25 `tasks/list` through the gateway: an official SDK v1 upstream with tasks (one
 * `InMemoryTaskStore`), two gateway replicas over it sharing real Redis (their cluster state: the
 * owner index, sealed 2025 sessions) and one key, and SDK v1 clients in 2025 sessions. A session
 * lists the tasks it started and no one else's, through either replica, a page at a time, each as
 * its upstream has it now; a task its upstream no longer has drops out. (The test's Redis keys
 * expire with its tasks' TTL.)
 */
import { randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { serve } from '@switchboard/server';
import { createRedisClusterState } from '@switchboard/server/redis';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { z } from 'zod';
import { createGateway } from '../src/index.js';
import { type SdkV1TaskUpstream, startSdkV1TaskUpstream } from './fixtures/sdk-v1-task-upstream.js';

const redisUrl = process.env.SWITCHBOARD_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `switchboard-test-task-list-${randomBytes(4).toString('hex')}:`;
const requestStateKey = randomBytes(32);
const sessionKey = randomBytes(32);
const cleanups: Array<() => Promise<unknown>> = [];
let upstream: SdkV1TaskUpstream;
const urls: string[] = [];

beforeAll(async () => {
  upstream = await startSdkV1TaskUpstream();
  cleanups.push(() => upstream.close());
  for (const replicaId of ['list-a', 'list-b']) {
    const cluster = createRedisClusterState({ url: redisUrl, keyPrefix: prefix, replicaId });
    cleanups.push(() => cluster.close());
    const gateway = await createGateway({
      config: { mcpServers: { up: { url: upstream.url } } },
      requestState: { key: requestStateKey },
      cluster,
      taskListPageSize: 2,
    });
    cleanups.push(() => gateway.close());
    const handle = await serve(gateway, {
      transport: { type: 'http', port: 0, session: true, sessionKeys: [sessionKey], cluster },
    });
    cleanups.push(() => handle.close());
    urls.push(handle.url as string);
  }
}, 60_000);

afterAll(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

/** An SDK v1 client in a 2025 session of the gateway at `url` (or resuming session `sessionId` there). */
async function sessionClient(url: string, sessionId?: string): Promise<Client> {
  const client = new Client({ name: 'task-lister', version: '1.0.0' }, { capabilities: {} });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), sessionId !== undefined ? { sessionId } : {}),
  );
  // A resumed session is not the client's to end: its first connection ends it.
  cleanups.push(() =>
    sessionId === undefined ? client.close() : (client.transport?.close() ?? Promise.resolve()),
  );
  return client;
}

const createTaskResult = z.object({ task: z.object({ taskId: z.string() }).passthrough() }).passthrough();

/** Starts the upstream's `gated` tool as a 2025 task under `label`; the gateway's task id. */
async function startTask(client: Client, label: string): Promise<string> {
  const created = (await client.request(
    { method: 'tools/call', params: { name: 'mcp__up__gated', arguments: { label }, task: {} } },
    createTaskResult as never,
  )) as { task: { taskId: string } };
  return created.task.taskId;
}

/** Every task a session lists, page after page. */
async function listAll(client: Client): Promise<Array<{ taskId: string; status: string }>> {
  const tasks: Array<{ taskId: string; status: string }> = [];
  let cursor: string | undefined;
  do {
    const page = await client.experimental.tasks.listTasks(cursor);
    tasks.push(...page.tasks);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tasks;
}

test('a 2025 session lists the tasks it started through the gateway, and no other session sees them', async () => {
  const mine = await sessionClient(urls[0] ?? '');
  expect(mine.getServerCapabilities()?.tasks?.list).toEqual({});
  const theirs = await sessionClient(urls[0] ?? '');
  const first = await startTask(mine, 'own-1');
  const second = await startTask(mine, 'own-2');
  const other = await startTask(theirs, 'other-1');
  const listed = await mine.experimental.tasks.listTasks();
  expect(listed.nextCursor).toBeUndefined();
  expect(listed.tasks.map((task) => task.taskId).sort()).toEqual([first, second].sort());
  // The 2025-11-25 `Task`, as its upstream has it now, under the gateway's id.
  expect(listed.tasks[0]).toMatchObject({ status: 'working', ttl: 60_000, pollInterval: 20 });
  expect(typeof listed.tasks[0]?.createdAt).toBe('string');
  expect((await theirs.experimental.tasks.listTasks()).tasks.map((task) => task.taskId)).toEqual([other]);
  const stranger = await sessionClient(urls[1] ?? '');
  expect((await stranger.experimental.tasks.listTasks()).tasks).toEqual([]);
  for (const label of ['own-1', 'own-2', 'other-1']) upstream.release(label);
});

test('a task started through replica A is listed through replica B, with its final status once it ends', async () => {
  const viaA = await sessionClient(urls[0] ?? '');
  const taskId = await startTask(viaA, 'switch');
  const sessionId = viaA.transport?.sessionId ?? expect.fail('the gateway gave no 2025 session');
  const viaB = await sessionClient(urls[1] ?? '', sessionId);
  expect(await listAll(viaB)).toMatchObject([{ taskId, status: 'working' }]);
  upstream.release('switch');
  await viaB.experimental.tasks.getTaskResult(taskId, z.object({}).passthrough() as never);
  expect(await listAll(viaB)).toMatchObject([{ taskId, status: 'completed' }]);
});

test('tasks/list pages with an opaque cursor and refuses one it did not give out', async () => {
  const client = await sessionClient(urls[1] ?? '');
  const started = [
    await startTask(client, 'page-1'),
    await startTask(client, 'page-2'),
    await startTask(client, 'page-3'),
  ];
  const first = await client.experimental.tasks.listTasks();
  expect(first.tasks).toHaveLength(2);
  const next = first.nextCursor ?? expect.fail('a first page of two out of three tasks has a nextCursor');
  const second = await client.experimental.tasks.listTasks(next);
  expect(second.nextCursor).toBeUndefined();
  expect([...first.tasks, ...second.tasks].map((task) => task.taskId).sort()).toEqual(started.sort());
  const refused = await client.experimental.tasks.listTasks('not-a-cursor').then(
    () => undefined,
    (error: unknown) => error as { code?: number },
  );
  expect(refused?.code).toBe(-32602);
  for (const label of ['page-1', 'page-2', 'page-3']) upstream.release(label);
});

test('a task its upstream no longer has drops out of the list', async () => {
  const own = await startSdkV1TaskUpstream();
  cleanups.push(() => own.close());
  const gateway = await createGateway({ config: { mcpServers: { up: { url: own.url } } } });
  cleanups.push(() => gateway.close());
  const handle = await serve(gateway, { transport: { type: 'http', port: 0, session: true } });
  cleanups.push(() => handle.close());
  const client = await sessionClient(handle.url as string);
  const taskId = await startTask(client, 'lost');
  expect(await listAll(client)).toMatchObject([{ taskId, status: 'working' }]);
  // The upstream forgets every task (as when it restarts, or its tasks expire).
  own.store.cleanup();
  expect(await listAll(client)).toEqual([]);
  expect(await listAll(client)).toEqual([]);
});

test('without auth and without sessions every client is one caller: its tasks are not listed to anyone', async () => {
  const gateway = await createGateway({ config: { mcpServers: { up: { url: upstream.url } } } });
  cleanups.push(() => gateway.close());
  const handle = await serve(gateway, { transport: { type: 'http', port: 0, session: false } });
  cleanups.push(() => handle.close());
  const starter = await sessionClient(handle.url as string);
  expect(starter.transport?.sessionId).toBeUndefined();
  const taskId = await startTask(starter, 'anonymous');
  // The task itself works for whoever holds its id; the list would hand that id to every client.
  expect((await starter.experimental.tasks.getTask(taskId)).status).toBe('working');
  const other = await sessionClient(handle.url as string);
  expect(await listAll(other)).toEqual([]);
  expect(await listAll(starter)).toEqual([]);
  upstream.release('anonymous');
});
