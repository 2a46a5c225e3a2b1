/**
 * `switchboard serve --http --redis … --session-key-file …`: which relayed 2025 tasks are whose
 * lives in Redis, so two replicas (two real `switchboard serve` processes) answer a 2025 client's
 * `tasks/list` alike: a task started through replica A in a 2025 session (official SDK v1 client)
 * is listed through replica B in the same session, and another session lists none.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { createMcpServer, defineTool, type ServeHandle, serve } from '@switchboard/server';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createSandbox } from './run-cli-helper.js';
import { startServeProcess } from './serve-process.js';

const redisUrl = process.env.SWITCHBOARD_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `switchboard-test-cli-task-list-${randomBytes(4).toString('hex')}:`;
const token = `cli-task-list-${randomBytes(12).toString('hex')}`;
const sandbox = createSandbox();
const configFile = join(sandbox.root, 'mcp.json');
const keyFile = join(sandbox.root, 'session-keys');
const children: ChildProcess[] = [];
const clients: Client[] = [];
/** Lets the upstream's task runs end. */
const released = new AbortController();
let upstream: ServeHandle;

beforeAll(async () => {
  const waits = defineTool({
    name: 'waits',
    description: 'Runs as a task until the test ends.',
    input: { type: 'object', properties: {} },
    task: { mode: 'optional', pollIntervalMs: 20, ttlMs: 60_000 },
    execute: async (_args, { signal }) => {
      await new Promise<void>((resolve) => {
        released.signal.addEventListener('abort', () => resolve(), { once: true });
        signal.addEventListener('abort', () => resolve(), { once: true });
      });
      return { content: [{ type: 'text', text: 'done' }] };
    },
  });
  upstream = await serve(createMcpServer({ name: 'worker', version: '1.0.0', tools: [waits] }), {
    transport: { type: 'http', port: 0 },
  });
  mkdirSync(sandbox.home, { recursive: true });
  writeFileSync(configFile, JSON.stringify({ mcpServers: { worker: { url: upstream.url } } }));
  writeFileSync(keyFile, `${randomBytes(32).toString('base64')}\n`);
});

afterAll(async () => {
  released.abort();
  for (const client of clients) await client.close().catch(() => {});
  for (const child of children) child.kill('SIGKILL');
  await upstream?.close();
  sandbox.cleanup();
});

/** Starts `switchboard serve --http` sharing Redis and the session keys; resolves with its URL once it serves. */
async function replica(id: string): Promise<string> {
  const flags = ['--token', token, '--replica-id', id, '--redis', redisUrl, '--redis-prefix', prefix];
  const started = await startServeProcess(
    `replica ${id}`,
    [...flags, '--session', '--session-key-file', keyFile, '--config', configFile],
    { ...sandbox.env, SWITCHBOARD_STORE: 'off' },
    children,
  );
  return started.url;
}

/** An SDK v1 client in a 2025 session at `url` (or resuming session `sessionId` there). */
async function sessionClient(url: string, sessionId?: string): Promise<Client> {
  const client = new Client({ name: 'task-lister', version: '1.0.0' }, { capabilities: {} });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
      ...(sessionId !== undefined ? { sessionId } : {}),
    }),
  );
  if (sessionId === undefined) clients.push(client);
  return client;
}

test('a 2025 task started through replica A is listed through replica B (Redis), to its session only', async () => {
  const [urlA, urlB] = await Promise.all([replica('a'), replica('b')]);
  const viaA = await sessionClient(urlA);
  const created = await viaA.request(
    { method: 'tools/call', params: { name: 'mcp__worker__waits', arguments: {}, task: {} } },
    CreateTaskResultSchema,
  );
  const sessionId = viaA.transport?.sessionId ?? expect.fail('replica A gave no 2025 session');
  const viaB = await sessionClient(urlB, sessionId);
  const listed = await viaB.experimental.tasks.listTasks();
  expect(listed.tasks).toMatchObject([{ taskId: created.task.taskId, status: 'working' }]);
  const other = await sessionClient(urlB);
  expect((await other.experimental.tasks.listTasks()).tasks).toEqual([]);
});
