/**
 * Tasks (SEP-2663) through the gateway: a Switchboard server with task tools upstream, two gateway
 * replicas over it, and a client that takes tasks downstream. The task is created through one
 * replica and polled, answered and cancelled through the other.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { connectMcp, type McpClient } from '@switchboard/client';
import { createMcpServer, defineTool, type ServeHandle, serve } from '@switchboard/server';
import { createEventLog } from '@switchboard/test-helpers';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { z } from 'zod';
import { gatewayTaskId, upstreamTaskOf } from '../src/gateway-tasks.js';
import { createGateway } from '../src/index.js';

const started = createEventLog<string>('upstream task runs started');
const cancelled = createEventLog<string>('upstream task runs cancelled');
/** Labels the test let finish: a run waits until its label is released. */
const releasedLabels = createEventLog<string>('labels released');
const release = releasedLabels.push;

const upstream = createMcpServer({
  name: 'task-upstream',
  version: '1.0.0',
  tools: [
    defineTool({
      name: 'gated',
      description: 'Waits until the test releases it, then answers (a task).',
      input: z.object({ label: z.string() }),
      task: { mode: 'optional', pollIntervalMs: 20 },
      execute: async ({ label }, { signal }) => {
        started.push(label);
        await new Promise<void>((resolve, reject) => {
          // Runs of a client that cannot be told to release go on at once.
          if (label.startsWith('plain-')) resolve();
          void releasedLabels
            .find((entry) => entry === label, { timeoutMs: 60_000 })
            .then(() => resolve(), reject);
          signal.addEventListener('abort', () => {
            cancelled.push(label);
            reject(new Error('cancelled'));
          });
        });
        return { content: [{ type: 'text', text: `done: ${label}` }], structuredContent: { label } };
      },
    }),
    defineTool({
      name: 'confirm',
      description: 'Asks inside its task.',
      task: { mode: 'required', pollIntervalMs: 20 },
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

const cleanups: Array<() => Promise<unknown>> = [];
let upstreamHandle: ServeHandle & { url: string };
let replicaA: McpClient;
let replicaB: McpClient;
const urls: string[] = [];

/** One gateway replica over the upstream, served on HTTP, and a client of it that takes tasks. */
async function replica(name: string): Promise<McpClient> {
  const gateway = await createGateway({ config: { mcpServers: { up: { url: upstreamHandle.url } } } });
  cleanups.push(() => gateway.close());
  const handle = await serve(gateway, { transport: { type: 'http', port: 0 } });
  cleanups.push(() => handle.close());
  urls.push(handle.url as string);
  const connection = await connectMcp(
    { [name]: { url: handle.url as string } },
    { elicitation: async () => ({ action: 'accept', content: { ok: true } }) },
  );
  cleanups.push(() => connection.close());
  return connection.client(name) ?? expect.fail(`replica ${name} is not connected`);
}

beforeAll(async () => {
  upstreamHandle = (await serve(upstream, { transport: { type: 'http', port: 0 } })) as ServeHandle & {
    url: string;
  };
  replicaA = await replica('a');
  replicaB = await replica('b');
}, 60_000);

afterAll(async () => {
  while (cleanups.length) await cleanups.pop()?.();
  await upstreamHandle.close();
  await upstream.close();
});

test('a task created through one replica is polled to its result through the other, unchanged', async () => {
  const start = await replicaA.startTool('mcp__up__gated', { label: 'first' });
  const task = start.task ?? expect.fail('the gateway answered without a task');
  expect(task.state.status).toBe('working');
  // The id names its origin: upstream "up" and the upstream's own id.
  expect(upstreamTaskOf(task.taskId)?.server).toBe('up');
  await started.find((label) => label === 'first');
  const seen = await replicaB.getTask(task.taskId, 'mcp__up__gated');
  expect(seen.state).toMatchObject({ taskId: task.taskId, status: 'working', pollIntervalMs: 20 });
  release('first');
  const result = await seen.result();
  expect(result).toEqual({
    content: [{ type: 'text', text: 'done: first' }],
    structuredContent: { label: 'first' },
  });
});

test('a cancellation through the other replica reaches the upstream run', async () => {
  const task = (await replicaA.startTool('mcp__up__gated', { label: 'second' })).task;
  await started.find((label) => label === 'second');
  const seen = await replicaB.getTask(task?.taskId ?? expect.fail('no task'), 'mcp__up__gated');
  await seen.cancel();
  await cancelled.find((label) => label === 'second');
  expect((await seen.refresh()).status).toBe('cancelled');
});

test('an upstream task that asks for input is answered through the gateway', async () => {
  const start = await replicaA.startTool('mcp__up__confirm', {});
  const task = start.task ?? expect.fail('the gateway answered without a task');
  const result = await (await replicaB.getTask(task.taskId, 'mcp__up__confirm')).result();
  expect(result.content).toEqual([{ type: 'text', text: 'confirmed: true' }]);
});

test('an id the gateway never issued, or of an upstream it does not have, is refused by name', async () => {
  const unknown = await replicaB.getTask('not-a-gateway-id').then(
    () => undefined,
    (error: unknown) => error as Error,
  );
  expect(unknown?.message).toContain('not-a-gateway-id');
  const elsewhere = await replicaB.getTask(gatewayTaskId('nowhere', 'x')).then(
    () => undefined,
    (error: unknown) => error as Error,
  );
  expect(elsewhere?.message).toContain('"nowhere"');
});

test.each(['modern', 'legacy'] as const)(
  'an official %s client that does not take tasks gets the call result, the task polled by the gateway',
  async (era) => {
    const client = new Client({ name: `no-tasks-${era}`, version: '1.0.0' }, {
      ...(era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    } as never);
    await client.connect(new StreamableHTTPClientTransport(new URL(urls[0] as string)));
    cleanups.push(() => client.close());
    const result = await client.callTool({ name: 'mcp__up__gated', arguments: { label: `plain-${era}` } });
    expect(result.structuredContent).toEqual({ label: `plain-${era}` });
  },
);
