/**
 * Tasks (SEP-2663) through the gateway: a Switchboard server with task tools upstream, two gateway
 * replicas over it (sharing their key), and a client that takes tasks downstream. The task is
 * created through one replica and polled, answered and cancelled through the other. A third
 * gateway with bearer tokens serves two clients: neither may touch the other's task.
 */
import { randomBytes } from 'node:crypto';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { connectMcp, type McpClient } from '@switchboard/client';
import { createMcpServer, defineTool, type ServeHandle, serve, type TaskRelay } from '@switchboard/server';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { GatewayTaskIds, upstreamTaskOf } from '../src/gateway-task-ids.js';
import { createGateway, type Gateway } from '../src/index.js';
import { createGatedRuns, gatedTaskTool } from './fixtures/gated-task-tool.js';

const { started, cancelled, released } = createGatedRuns();
const release = released.push;

const upstream = createMcpServer({
  name: 'task-upstream',
  version: '1.0.0',
  tools: [
    gatedTaskTool({ started, cancelled, released }),
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
/** The replicas' shared key (as `serve --session-key-file` gives every replica the same ones). */
const replicaKey = randomBytes(32);

let lastGateway: Gateway | undefined;

/** A gateway over the upstream, served on HTTP (with `auth` when given); its URL. */
async function gatewayUrl(auth?: { type: 'bearer'; tokens: Array<{ token: string; principal: string }> }) {
  const gateway = await createGateway({
    config: { mcpServers: { up: { url: upstreamHandle.url } } },
    requestState: { key: replicaKey },
  });
  cleanups.push(() => gateway.close());
  const handle = await serve(gateway, {
    transport: { type: 'http', port: 0, ...(auth !== undefined ? { auth } : {}) },
  });
  cleanups.push(() => handle.close());
  lastGateway = gateway;
  return handle.url as string;
}

/** A client of the gateway at `url` that takes tasks (with a bearer `token` when given). */
async function clientOf(name: string, url: string, token?: string): Promise<McpClient> {
  const connection = await connectMcp(
    { [name]: { url, ...(token !== undefined ? { headers: { Authorization: `Bearer ${token}` } } : {}) } },
    { elicitation: async () => ({ action: 'accept', content: { ok: true } }) },
  );
  cleanups.push(() => connection.close());
  return connection.client(name) ?? expect.fail(`client ${name} is not connected`);
}

/** One gateway replica over the upstream, and a client of it that takes tasks. */
async function replica(name: string): Promise<McpClient> {
  const url = await gatewayUrl();
  urls.push(url);
  return clientOf(name, url);
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
  const elsewhere = await replicaB.getTask(new GatewayTaskIds([replicaKey]).issue('nowhere', 'x', {})).then(
    () => undefined,
    (error: unknown) => error as Error,
  );
  expect(elsewhere?.message).toContain('"nowhere"');
});

test.each(['modern', 'legacy'] as const)(
  'an official %s client that does not take tasks gets the call result (no task is asked of the upstream)',
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

test.each(['modern', 'legacy'] as const)(
  'an official %s client that does not take tasks is refused a tool that requires one (-32021), as the spec says',
  async (era) => {
    const client = new Client({ name: `no-tasks-required-${era}`, version: '1.0.0' }, {
      ...(era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    } as never);
    await client.connect(new StreamableHTTPClientTransport(new URL(urls[0] as string)));
    cleanups.push(() => client.close());
    const refused = await client.callTool({ name: 'mcp__up__confirm', arguments: {} }).then(
      () => undefined,
      (error: unknown) => error as { code?: unknown; data?: { status?: number; text?: string } },
    );
    // The server answers -32021 with HTTP 400 (as 2026-07-28 says), which the SDK's 2025 transport
    // reports as an HTTP error carrying the JSON-RPC body.
    const code = era === 'modern' ? refused?.code : JSON.parse(refused?.data?.text ?? '{}').error?.code;
    expect(code).toBe(-32021);
  },
);

test('a task is answered only to the client that started it: another principal is refused with TASK_NOT_OWNED', async () => {
  // Two downstream clients share the gateway's one connection upstream: only the id's binding tells them apart.
  const url = await gatewayUrl({
    type: 'bearer',
    tokens: [
      { token: 'alice-token-0123456789abcdef', principal: 'alice' },
      { token: 'bob-token-0123456789abcdef01', principal: 'bob' },
    ],
  });
  const alice = await clientOf('alice', url, 'alice-token-0123456789abcdef');
  const bob = await clientOf('bob', url, 'bob-token-0123456789abcdef01');
  const task = (await alice.startTool('mcp__up__gated', { label: 'owned' })).task ?? expect.fail('no task');
  await started.find((label) => label === 'owned');
  // Bob learnt Alice's id: he cannot read it (so gets no handle to answer or cancel it either).
  const refused = await bob.getTask(task.taskId).then(
    () => undefined,
    (error: unknown) => error as Error & { jsonRpcCode?: number; cause?: { data?: unknown } },
  );
  expect(refused?.jsonRpcCode).toBe(-32602);
  expect(refused?.message).toContain('started by another client of the gateway');
  // The refusal is coded (on the wire as `data.reason`), whichever request Bob sends.
  const relay =
    (lastGateway as unknown as { taskRelay?: TaskRelay } | undefined)?.taskRelay ??
    expect.fail('the gateway has no task relay');
  const asBob = { signal: new AbortController().signal, era: 'modern' as const, principal: 'bob' };
  for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel'] as const) {
    await expect(
      relay.relay(method, { taskId: task.taskId, inputResponses: {} }, asBob),
    ).rejects.toMatchObject({
      code: 'TASK_NOT_OWNED',
      data: { taskId: task.taskId, reason: 'TASK_NOT_OWNED' },
    });
  }
  // Nor can he make an id of his own for her task: one signed without the gateway's key is refused alike.
  const origin = upstreamTaskOf(task.taskId) ?? expect.fail('not a gateway id');
  const forged = new GatewayTaskIds([randomBytes(32)]).issue(origin.server, origin.taskId, {
    principal: 'bob',
  });
  await expect(relay.relay('tasks/get', { taskId: forged }, asBob)).rejects.toMatchObject({
    code: 'TASK_NOT_OWNED',
  });
  // Alice still reads, cancels and sees it cancelled: Bob's attempts changed nothing.
  const own = await alice.getTask(task.taskId);
  expect(own.state.status).toBe('working');
  await own.cancel();
  await cancelled.find((label) => label === 'owned');
  expect((await own.refresh()).status).toBe('cancelled');
});
