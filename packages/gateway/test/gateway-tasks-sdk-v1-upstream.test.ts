/**
 * A 2025-11-25 upstream's tasks through the gateway: the upstream is an official SDK v1 server
 * with tasks (`registerToolTask`, one `InMemoryTaskStore`), two gateway replicas (same key) run
 * over it, and downstream clients of both eras take its tasks: a 2026-07-28 Switchboard client
 * starts one through replica A and reads it through replica B; an SDK v1 client (a 2025 session)
 * starts, polls, reads and cancels one with the 2025-11-25 methods. A tool that requires a task is
 * run as one for a client that takes none.
 */
import { randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { connectMcp, type McpClient } from '@switchboard/client';
import { serve } from '@switchboard/server';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { z } from 'zod';
import { upstreamTaskOf } from '../src/gateway-task-ids.js';
import { createGateway } from '../src/index.js';
import { type SdkV1TaskUpstream, startSdkV1TaskUpstream } from './fixtures/sdk-v1-task-upstream.js';

const cleanups: Array<() => Promise<unknown>> = [];
let upstream: SdkV1TaskUpstream;
const urls: string[] = [];
const replicaKey = randomBytes(32);

beforeAll(async () => {
  upstream = await startSdkV1TaskUpstream();
  cleanups.push(() => upstream.close());
  for (let replica = 0; replica < 2; replica++) {
    const gateway = await createGateway({
      config: { mcpServers: { up: { url: upstream.url } } },
      requestState: { key: replicaKey },
    });
    cleanups.push(() => gateway.close());
    const handle = await serve(gateway, { transport: { type: 'http', port: 0, session: true } });
    cleanups.push(() => handle.close());
    urls.push(handle.url as string);
  }
}, 60_000);

afterAll(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

async function switchboardClient(name: string, url: string): Promise<McpClient> {
  const connection = await connectMcp({ [name]: { url } });
  cleanups.push(() => connection.close());
  return connection.client(name) ?? expect.fail(`client ${name} is not connected`);
}

async function sessionClient(name: string, url: string): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' }, { capabilities: {} });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  cleanups.push(() => client.close());
  return client;
}

const createTaskResult = z
  .object({ task: z.object({ taskId: z.string(), status: z.string() }).passthrough() })
  .passthrough();

test('the Switchboard client starts a 2025-11-25 task on the SDK v1 upstream and reads its result', async () => {
  const client = await switchboardClient('direct', upstream.url);
  expect(client.era).toBe('legacy');
  const start = await client.startTool('gated', { label: 'direct' });
  const task = start.task ?? expect.fail('the upstream answered without a task');
  expect(task.state).toMatchObject({ status: 'working', pollIntervalMs: 20, ttlMs: 60_000 });
  expect((await upstream.store.getTask(task.taskId))?.status).toBe('working');
  await upstream.started.find((label) => label === 'direct');
  upstream.release('direct');
  expect(await task.result()).toMatchObject({ content: [{ type: 'text', text: 'done: direct' }] });
  // Resumed by id: the same task, its state and result read again.
  const again = await client.getTask(task.taskId, 'gated');
  expect(again.state.status).toBe('completed');
  expect((await again.result()).structuredContent).toEqual({ label: 'direct' });
});

test('a 2026-07-28 client starts the upstream task through replica A and reads it through replica B', async () => {
  const [urlA = '', urlB = ''] = urls;
  const viaA = await switchboardClient('replica-a', urlA);
  const viaB = await switchboardClient('replica-b', urlB);
  const start = await viaA.startTool('mcp__up__gated', { label: 'switch' });
  const task = start.task ?? expect.fail('the gateway answered without a task');
  expect(task.taskId.startsWith('sbt2.')).toBe(true);
  const origin = upstreamTaskOf(task.taskId) ?? expect.fail('not a gateway task id');
  expect(origin.server).toBe('up');
  expect((await upstream.store.getTask(origin.taskId))?.status).toBe('working');
  const onB = await viaB.getTask(task.taskId);
  expect(onB.state.status).toBe('working');
  upstream.release('switch');
  expect(await onB.result()).toMatchObject({ content: [{ type: 'text', text: 'done: switch' }] });
});

test('a 2025 session starts, polls and reads the upstream task with the 2025-11-25 methods', async () => {
  const client = await sessionClient('legacy', urls[0] ?? '');
  const created = (await client.request(
    { method: 'tools/call', params: { name: 'mcp__up__gated', arguments: { label: 'legacy' }, task: {} } },
    createTaskResult as never,
  )) as { task: { taskId: string; status: string; pollInterval?: number } };
  expect(created.task).toMatchObject({ status: 'working', pollInterval: 20 });
  const { taskId } = created.task;
  expect(taskId.startsWith('sbt2.')).toBe(true);
  expect((await client.experimental.tasks.getTask(taskId)).status).toBe('working');
  upstream.release('legacy');
  const result = (await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema)) as {
    content: unknown;
    _meta?: Record<string, unknown>;
  };
  expect(result.content).toEqual([{ type: 'text', text: 'done: legacy' }]);
  expect(result._meta?.['io.modelcontextprotocol/related-task']).toEqual({ taskId });
  expect((await client.experimental.tasks.getTask(taskId)).status).toBe('completed');
});

test('tasks/cancel from a 2025 session cancels the upstream task', async () => {
  const client = await sessionClient('canceller', urls[1] ?? '');
  const created = (await client.request(
    { method: 'tools/call', params: { name: 'mcp__up__gated', arguments: { label: 'cancel' }, task: {} } },
    createTaskResult as never,
  )) as { task: { taskId: string } };
  const { taskId } = created.task;
  const origin = upstreamTaskOf(taskId) ?? expect.fail('not a gateway task id');
  expect(await client.experimental.tasks.cancelTask(taskId)).toMatchObject({ taskId, status: 'cancelled' });
  expect((await upstream.store.getTask(origin.taskId))?.status).toBe('cancelled');
});

test('a tool that requires a task runs as one for a client that takes tasks, directly or through the gateway', async () => {
  const direct = await switchboardClient('direct-must', upstream.url);
  expect(await direct.callTool('must', { word: 'direct' })).toMatchObject({
    content: [{ type: 'text', text: 'must: direct' }],
  });
  const viaGateway = await switchboardClient('gateway-must', urls[1] ?? '');
  expect(await viaGateway.callTool('mcp__up__must', { word: 'relayed' })).toMatchObject({
    content: [{ type: 'text', text: 'must: relayed' }],
  });
});

test('a client that takes no tasks is refused a tool that requires one (-32021), not given a bridged task', async () => {
  const before = (await upstream.store.listTasks()).tasks.length;
  const client = await sessionClient('plain', urls[0] ?? '');
  const refused = await client.callTool({ name: 'mcp__up__must', arguments: { word: 'hi' } }).then(
    () => undefined,
    (error: unknown) => error as { code?: number },
  );
  expect(refused?.code).toBe(-32021);
  // Refused before the upstream was asked: no task was created for it.
  expect((await upstream.store.listTasks()).tasks.length).toBe(before);
});
