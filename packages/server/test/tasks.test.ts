/**
 * The tasks extension (SEP-2663): a long-running tool is a task for clients that declare the
 * extension (handle at once, `tasks/get` until done, questions answered with `tasks/update`,
 * `tasks/cancel`), a plain call for others; `required` task tools refuse clients without it.
 */
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { envelope, post } from '@switchboard/test-helpers';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import {
  createMcpServer,
  defineTool,
  type ServeHandle,
  serve,
  type TaskRelay,
  tasksExtensionId,
} from '../src/index.js';

const withTasks = { elicitation: {}, extensions: { [tasksExtensionId]: {} } };
let handle: ServeHandle & { url: string };
const server = createMcpServer({
  name: 'tasks',
  version: '1.0.0',
  tools: [
    defineTool({
      name: 'slow',
      description: 'waits, then answers (a task)',
      input: z.object({ ms: z.number() }),
      task: true,
      execute: async ({ ms }, { signal }) => {
        await new Promise((resolve) => {
          const timer = setTimeout(resolve, ms);
          signal.addEventListener('abort', () => clearTimeout(timer));
        });
        return `waited ${ms} ms`;
      },
    }),
    defineTool({
      name: 'confirm',
      description: 'asks inside its task',
      task: { mode: 'required', pollIntervalMs: 50 },
      execute: async (_args, { elicit }) => {
        const answer = await elicit({
          message: 'Sure?',
          requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
        });
        return `confirmed: ${String(answer.content?.ok)}`;
      },
    }),
  ],
});
beforeAll(async () => {
  handle = (await serve(server, { transport: { type: 'http', port: 0 } })) as ServeHandle & { url: string };
});
afterAll(async () => {
  await handle.close();
  await server.close();
});

async function until(taskId: string, statuses: string[]): Promise<Record<string, unknown>> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const got = await post(handle.url, 'tasks/get', { taskId, _meta: envelope(withTasks) });
    const task = got.body.result as Record<string, unknown>;
    if (statuses.includes(String(task.status))) return task;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`task ${taskId} never reached ${statuses.join('/')}`);
}

describe('tasks', () => {
  test('a task tool answers a handle at once; tasks/get gives the result when done', async () => {
    const created = await post(handle.url, 'tools/call', {
      name: 'slow',
      arguments: { ms: 50 },
      _meta: envelope(withTasks),
    });
    expect(created.body.result).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 3_600_000 });
    const taskId = created.body.result?.taskId as string;
    const done = await until(taskId, ['completed']);
    expect(done).toMatchObject({
      resultType: 'complete',
      result: { content: [{ type: 'text', text: 'waited 50 ms' }] },
    });
  });

  test('questions of a task are its inputRequests; tasks/update answers them', async () => {
    const created = await post(handle.url, 'tools/call', {
      name: 'confirm',
      arguments: {},
      _meta: envelope(withTasks),
    });
    const taskId = created.body.result?.taskId as string;
    const waiting = await until(taskId, ['input_required']);
    const [key] = Object.keys(waiting.inputRequests as object);
    expect(waiting.inputRequests).toMatchObject({
      [key as string]: { method: 'elicitation/create', params: { message: 'Sure?' } },
    });
    const ack = await post(handle.url, 'tasks/update', {
      taskId,
      inputResponses: { [key as string]: { action: 'accept', content: { ok: true } } },
      _meta: envelope(withTasks),
    });
    expect(ack.body.result).toMatchObject({ resultType: 'complete' });
    const done = await until(taskId, ['completed']);
    expect(done.result).toMatchObject({ content: [{ text: 'confirmed: true' }] });
  });

  test('tasks/cancel cancels a running task; an unknown task is -32602', async () => {
    const created = await post(handle.url, 'tools/call', {
      name: 'slow',
      arguments: { ms: 60_000 },
      _meta: envelope(withTasks),
    });
    const taskId = created.body.result?.taskId as string;
    const ack = await post(handle.url, 'tasks/cancel', { taskId, _meta: envelope(withTasks) });
    expect(ack.body.result).toMatchObject({ resultType: 'complete' });
    expect(await until(taskId, ['cancelled'])).toMatchObject({ status: 'cancelled' });
    const unknown = await post(handle.url, 'tasks/get', { taskId: 'nope', _meta: envelope(withTasks) });
    expect(unknown.body.error?.code).toBe(-32602);
  });

  test('without the extension: an optional task tool runs plainly, a required one is -32021, tasks/get is -32021', async () => {
    const plain = await post(handle.url, 'tools/call', {
      name: 'slow',
      arguments: { ms: 1 },
      _meta: envelope({}),
    });
    expect(plain.body.result).toMatchObject({ resultType: 'complete', content: [{ text: 'waited 1 ms' }] });
    const refused = await post(handle.url, 'tools/call', {
      name: 'confirm',
      arguments: {},
      _meta: envelope({ elicitation: {} }),
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [tasksExtensionId]: {} } } },
    });
    const gated = await post(handle.url, 'tasks/get', { taskId: 'x', _meta: envelope({}) });
    expect(gated.body.error?.code).toBe(-32021);
  });

  test('a 2025 client calls a task tool as a plain tool', async () => {
    const client = new V1Client({ name: 'v1', version: '1.0.0' });
    await client.connect(new V1Http(new URL(handle.url)));
    expect((await client.callTool({ name: 'slow', arguments: { ms: 1 } })).content).toEqual([
      { type: 'text', text: 'waited 1 ms' },
    ]);
    // Without a relay that takes 2025-11-25 tasks: no `tasks` capability, and the methods are -32601.
    expect(client.getServerCapabilities()?.tasks).toBeUndefined();
    const refused = await client.experimental.tasks.getTask('any').then(
      () => undefined,
      (error: unknown) => error as { code?: number },
    );
    expect(refused?.code).toBe(-32601);
    await client.close();
  });
});

test('a task relay answers for ids the store does not hold, and a relayed task answer goes out as is', async () => {
  const asked: Array<{ method: string; taskId: string }> = [];
  const relay: TaskRelay = {
    specificationVersion: 'v1',
    relay: async (method, params) => {
      if (!params.taskId.startsWith('remote-')) return undefined;
      asked.push({ method, taskId: params.taskId });
      return method === 'tasks/get' ? { taskId: params.taskId, status: 'working', ttlMs: null } : {};
    },
  };
  const relaying = createMcpServer({
    name: 'relaying',
    version: '1.0.0',
    taskRelay: relay,
    tools: [
      defineTool({
        name: 'elsewhere',
        description: 'hands on a task it got from elsewhere',
        execute: () => ({ resultType: 'task', taskId: 'remote-7', status: 'working', ttlMs: null }) as never,
      }),
    ],
  });
  const served = (await serve(relaying, { transport: { type: 'http', port: 0 } })) as ServeHandle & {
    url: string;
  };
  try {
    const call = await post(served.url, 'tools/call', {
      name: 'elsewhere',
      arguments: {},
      _meta: envelope(withTasks),
    });
    expect(call.body.result).toMatchObject({ resultType: 'task', taskId: 'remote-7', status: 'working' });
    const got = await post(served.url, 'tasks/get', { taskId: 'remote-7', _meta: envelope(withTasks) });
    expect(got.body.result).toMatchObject({ taskId: 'remote-7', status: 'working' });
    await post(served.url, 'tasks/cancel', { taskId: 'remote-7', _meta: envelope(withTasks) });
    expect(asked).toEqual([
      { method: 'tasks/get', taskId: 'remote-7' },
      { method: 'tasks/cancel', taskId: 'remote-7' },
    ]);
    const unknown = await post(served.url, 'tasks/get', { taskId: 'nope', _meta: envelope(withTasks) });
    expect(unknown.body.error?.message).toContain('"nope"');
  } finally {
    await served.close();
    await relaying.close();
  }
});
