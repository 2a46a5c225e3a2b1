/**
 * The 2025-11-25 task methods through the gateway: an official SDK v1 client (a 2025 session)
 * calls a tool with `params.task`; the gateway starts the upstream's task (a Switchboard server's
 * SEP-2663 task tool, 2026-07-28 upstream) and answers with a 2025-11-25 `CreateTaskResult`, then
 * `tasks/get`, `tasks/result` and `tasks/cancel` are relayed. A second session cannot touch the
 * first one's task (the id is bound to its session).
 */
import { randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { createMcpServer, type ServeHandle, serve } from '@switchboard/server';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { z } from 'zod';
import { createGateway } from '../src/index.js';
import { createGatedRuns, gatedTaskTool } from './fixtures/gated-task-tool.js';

const { started, cancelled, released } = createGatedRuns();
const upstream = createMcpServer({
  name: 'task-upstream',
  version: '1.0.0',
  tools: [gatedTaskTool({ started, cancelled, released })],
});

const cleanups: Array<() => Promise<unknown>> = [];
let url: string;

beforeAll(async () => {
  const upstreamHandle = (await serve(upstream, { transport: { type: 'http', port: 0 } })) as ServeHandle & {
    url: string;
  };
  cleanups.push(
    () => upstream.close(),
    () => upstreamHandle.close(),
  );
  const gateway = await createGateway({
    config: { mcpServers: { up: { url: upstreamHandle.url } } },
    requestState: { key: randomBytes(32) },
  });
  cleanups.push(() => gateway.close());
  const handle = await serve(gateway, { transport: { type: 'http', port: 0, session: true } });
  cleanups.push(() => handle.close());
  url = handle.url as string;
}, 60_000);

afterAll(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

/** An SDK v1 client in a 2025-11-25 session of the gateway. */
async function sessionClient(name: string): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' }, { capabilities: {} });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  cleanups.push(() => client.close());
  return client;
}

test("declares 2025-11-25 task support for tools/call, and tasks/list of the caller's own tasks", async () => {
  const client = await sessionClient('capabilities');
  expect(client.getServerCapabilities()?.tasks).toEqual({
    list: {},
    cancel: {},
    requests: { tools: { call: {} } },
  });
});

test('a task-augmented call gets the upstream task, polled and read through tasks/get and tasks/result', async () => {
  const client = await sessionClient('streamer');
  const messages: Array<{ type: string; [key: string]: unknown }> = [];
  const stream = client.experimental.tasks.callToolStream(
    { name: 'mcp__up__gated', arguments: { label: 'legacy-first' } },
    CallToolResultSchema,
    { task: { ttl: 60_000 } },
  );
  for await (const message of stream) {
    messages.push(message as never);
    // Released once the task exists and is polled: the stream saw it working first.
    if (message.type === 'taskStatus') released.push('legacy-first');
  }
  const created = messages[0] as {
    type: string;
    task: { taskId: string; status: string; createdAt: string };
  };
  expect(created.type).toBe('taskCreated');
  expect(created.task).toMatchObject({ status: 'working', pollInterval: 20 });
  expect(created.task.taskId.startsWith('sbt2.')).toBe(true);
  expect(messages.some((message) => message.type === 'taskStatus')).toBe(true);
  const last = messages.at(-1) as {
    type: string;
    result?: { content: unknown; structuredContent?: unknown; _meta?: Record<string, unknown> };
  };
  expect(last.type).toBe('result');
  expect(last.result?.content).toEqual([{ type: 'text', text: 'done: legacy-first' }]);
  expect(last.result?.structuredContent).toEqual({ label: 'legacy-first' });
  expect(last.result?._meta?.['io.modelcontextprotocol/related-task']).toEqual({
    taskId: created.task.taskId,
  });
});

test('tasks/cancel reaches the upstream run; another session cannot read or cancel the task', async () => {
  const owner = await sessionClient('owner');
  const other = await sessionClient('other');
  const created = (await owner.request(
    {
      method: 'tools/call',
      params: { name: 'mcp__up__gated', arguments: { label: 'legacy-cancel' }, task: {} },
    },
    // The 2025-11-25 CreateTaskResult.
    z.object({ task: z.object({ taskId: z.string(), status: z.string() }) }).passthrough() as never,
  )) as { task: { taskId: string } };
  const { taskId } = created.task;
  await started.find((label) => label === 'legacy-cancel');
  // The id is bound to the owner's session: the other session is refused, by code.
  const refused = await other.experimental.tasks.getTask(taskId).then(
    () => undefined,
    (error: unknown) => error as { code?: number; data?: unknown },
  );
  expect(refused?.code).toBe(-32602);
  expect(refused?.data).toEqual({ taskId, reason: 'TASK_NOT_OWNED' });
  const refusedCancel = await other.experimental.tasks.cancelTask(taskId).then(
    () => undefined,
    (error: unknown) => error as { data?: unknown },
  );
  expect(refusedCancel?.data).toEqual({ taskId, reason: 'TASK_NOT_OWNED' });
  expect((await owner.experimental.tasks.getTask(taskId)).status).toBe('working');
  const afterCancel = await owner.experimental.tasks.cancelTask(taskId);
  await cancelled.find((label) => label === 'legacy-cancel');
  expect(afterCancel).toMatchObject({ taskId, status: 'cancelled' });
  expect((await owner.experimental.tasks.getTask(taskId)).status).toBe('cancelled');
});
