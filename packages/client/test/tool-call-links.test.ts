// Each link of a tool call, on real servers: validate refuses before anything is sent, approve
// asks or refuses, observe records a call once (one metric, one usage row, one span) however many
// attempts supervision made, supervise reconnects and retries what is safe to retry, and send is
// the one way calls leave — with or without handlers of their own, relayed or not.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { McpServer } from '@modelcontextprotocol/server';
import { SpanKind } from '@opentelemetry/api';
import { createTemporaryDirectories } from '@switchboard/test-helpers';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ClientError,
  connectMcp,
  createMcpClient,
  type McpConnection,
  type ProtocolMessageEvent,
  type ToolCallEvent,
} from '../src/index.js';
import { type RunningMcpServer, startSdkV2Server } from './helpers/http-mcp-server.js';
import { fixture, followFileLines } from './helpers/servers.js';
import { registerInMemoryTelemetry } from './helpers/telemetry.js';

const telemetry = registerInMemoryTelemetry();
const temporary = createTemporaryDirectories();
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
  temporary.removeAll();
});

async function modernServer(): Promise<RunningMcpServer> {
  const server = await startSdkV2Server({ legacy: 'reject' });
  cleanups.push(() => server.close());
  return server;
}

async function connect(...args: Parameters<typeof connectMcp>): Promise<McpConnection> {
  const connection = await connectMcp(...args);
  cleanups.push(() => connection.close());
  return connection;
}

const toolCalls = (server: RunningMcpServer, name: string) =>
  server.requests.filter(
    (request) => request.body?.method === 'tools/call' && request.body.params?.name === name,
  );

describe('validate', () => {
  it('refuses arguments that break the schema with a VALIDATION_FAILED ClientError; nothing is sent or counted', async () => {
    const server = await modernServer();
    const events: ToolCallEvent[] = [];
    const connection = await connect(
      { x: { url: server.url } },
      { approval: 'never', afterToolCall: (event) => void events.push(event) },
    );
    const error = await connection
      .callTool('mcp__x__add', { a: 'two', b: 2 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ClientError);
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect((error as Error).message).toContain('mcp__x__add');
    expect(toolCalls(server, 'add')).toHaveLength(0);
    expect(connection.metrics().tools.x?.add?.calls ?? 0).toBe(0);
    expect(events).toEqual([]);
  });
});

describe('approve', () => {
  it('asks when the policy says ask, runs only on yes, and refuses a denied tool without asking', async () => {
    const server = await modernServer();
    const asked: Array<{ name: string; args: unknown }> = [];
    let answer = false;
    const connection = await connect(
      { x: { url: server.url, approval: { mode: 'always', deny: ['echo'] } } },
      {
        approve: (prompt) => {
          asked.push({ name: prompt.name, args: prompt.args });
          return answer;
        },
      },
    );
    await expect(connection.callTool('mcp__x__add', { a: 1, b: 2 })).rejects.toMatchObject({
      code: 'APPROVAL_DENIED',
    });
    expect(toolCalls(server, 'add')).toHaveLength(0);
    answer = true;
    expect(await connection.callTool('mcp__x__add', { a: 1, b: 2 })).toMatchObject({ status: 'success' });
    // A caller that asked already (a framework pausing its run) passes `approved`.
    expect(await connection.callTool('mcp__x__add', { a: 3, b: 4 }, { approved: true })).toMatchObject({
      status: 'success',
    });
    expect(asked).toEqual([
      { name: 'mcp__x__add', args: { a: 1, b: 2 } },
      { name: 'mcp__x__add', args: { a: 1, b: 2 } },
    ]);
    await expect(connection.callTool('mcp__x__echo', { message: 'no' })).rejects.toMatchObject({
      code: 'APPROVAL_DENIED',
    });
    expect(asked).toHaveLength(2);
    expect(toolCalls(server, 'echo')).toHaveLength(0);
  });
});

describe('observe and supervise', () => {
  const counterServer = () => {
    const log = join(temporary.make('sb-links-'), 'calls.log');
    const entry = {
      command: process.execPath,
      args: [fixture('counter-server.mjs')],
      env: { COUNTER_FILE: log },
    };
    const ran = (value: string, tool = 'lookup') =>
      existsSync(log)
        ? readFileSync(log, 'utf8')
            .split('\n')
            .filter((line) => line.startsWith(`${tool}:${value}`))
        : [];
    return { entry, log, ran };
  };

  it('a read-only call retried after its server died is one metric, one usage row and one span', async () => {
    const { entry, log, ran } = counterServer();
    const events: ToolCallEvent[] = [];
    const connection = await connect(
      { counter: entry },
      {
        approval: 'never',
        supervision: { baseDelayMs: 50 },
        afterToolCall: (event) => void events.push(event),
      },
    );
    telemetry.reset();
    const pid = connection.client('counter')?.pid;
    using calls = followFileLines(log);
    const call = connection.callTool('mcp__counter__lookup', { value: 'twice', delayMs: 1500 });
    await calls.lines.find((line) => line.startsWith('lookup:twice'), {
      what: 'the first attempt to reach the server',
    });
    process.kill(pid!, 'SIGKILL');
    expect(JSON.stringify(await call)).toContain('found twice');
    // Supervision ran it again on the respawned server: two attempts, one call.
    expect(ran('twice')).toHaveLength(2);
    expect(connection.client('counter')?.pid).not.toBe(pid);
    expect(connection.metrics().tools.counter?.lookup).toMatchObject({ calls: 1, errors: 0 });
    expect(events.map((event) => [event.tool, event.ok])).toEqual([['lookup', true]]);
    const spans = telemetry
      .spans()
      .filter((span) => span.kind === SpanKind.CLIENT && span.name === 'tools/call lookup');
    expect(spans).toHaveLength(1);
  });

  it('a destructive call that failed on the connection is not retried, and counts as one failed call', async () => {
    const { entry, log, ran } = counterServer();
    const events: ToolCallEvent[] = [];
    const connection = await connect(
      { counter: entry },
      {
        approval: 'never',
        supervision: { baseDelayMs: 50 },
        afterToolCall: (event) => void events.push(event),
      },
    );
    const pid = connection.client('counter')?.pid;
    using calls = followFileLines(log);
    const call = connection.callTool('mcp__counter__record', { value: 'once', delayMs: 20_000 });
    await calls.lines.find((line) => line.startsWith('record:once'), {
      what: 'the call to reach the server',
    });
    process.kill(pid!, 'SIGKILL');
    const error = await call.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ClientError);
    expect(error).toMatchObject({ context: { retried: false } });
    expect(ran('once', 'record')).toHaveLength(1);
    expect(connection.metrics().tools.counter?.record).toMatchObject({ calls: 1, errors: 1 });
    expect(events.map((event) => [event.tool, event.ok])).toEqual([['record', false]]);
  });

  it('a call past its deadline is a TIMEOUT, and the connection serves the next one', async () => {
    const { entry } = counterServer();
    const connection = await connect({ counter: entry }, { approval: 'never' });
    await expect(
      connection.callTool('mcp__counter__lookup', { value: 'slow', delayMs: 5000 }, { timeoutMs: 200 }),
    ).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(JSON.stringify(await connection.callTool('mcp__counter__lookup', { value: 'next' }))).toContain(
      'found next',
    );
  });
});

describe('send', () => {
  it('every call leaves one way: registry, relayed, with handlers of its own or not — one id sequence, each answered', async () => {
    const server = await modernServer();
    const events: ProtocolMessageEvent[] = [];
    const connection = await connect(
      { x: { url: server.url } },
      {
        approval: 'never',
        elicitation: () => ({ action: 'accept', content: { confirm: false } }),
        onMessage: (_server, event) => events.push(event),
      },
    );
    await connection.callTool('mcp__x__echo', { message: 'registry' });
    await connection.relayTool('x', 'echo', { message: 'relayed' });
    const confirmed = await connection.relayTool(
      'x',
      'confirm',
      { action: 'ship' },
      { onElicitation: () => ({ action: 'accept', content: { confirm: true } }) },
    );
    expect(JSON.stringify(confirmed)).toContain('ship: confirmed');
    const sent = events
      .filter(
        (event) =>
          event.direction === 'out' && 'method' in event.message && event.message.method === 'tools/call',
      )
      .map((event) => (event.message as { id: unknown }).id);
    // echo, echo, confirm, and confirm's second round carrying the answer.
    expect(sent).toHaveLength(4);
    expect(sent.every((id) => typeof id === 'number')).toBe(true);
    expect([...sent].sort((a, b) => Number(a) - Number(b))).toEqual(sent);
    for (const id of sent) {
      expect(
        events.some((event) => event.direction === 'in' && (event.message as { id?: unknown }).id === id),
      ).toBe(true);
    }
  });

  it("a HeaderMismatch (the tool's x-mcp-header declaration changed) reads the tool list again and sends once more", async () => {
    let declared = false;
    const server = await startSdkV2Server({
      legacy: 'reject',
      factory: () => {
        const moving = new McpServer({ name: 'moving', version: '1.0.0' });
        moving.registerTool(
          'regional',
          {
            inputSchema: z.object({
              region: declared ? z.string().meta({ 'x-mcp-header': 'Region' }) : z.string(),
            }),
          },
          async ({ region }) => ({ content: [{ type: 'text', text: `region ${region}` }] }),
        );
        return moving;
      },
    });
    cleanups.push(() => server.close());
    const client = await createMcpClient('moving', { url: server.url });
    cleanups.push(() => client.close());
    await client.listTools();
    declared = true;
    expect(await client.callTool('regional', { region: 'eu' })).toMatchObject({
      content: [{ type: 'text', text: 'region eu' }],
    });
    const methods = server.requests
      .map((request) => request.body?.method)
      .filter((method) => method !== undefined);
    expect(methods.slice(-3)).toEqual(['tools/call', 'tools/list', 'tools/call']);
    const [first, second] = toolCalls(server, 'regional');
    expect(first?.headers['mcp-param-region']).toBeUndefined();
    expect(second?.headers['mcp-param-region']).toBe('eu');
  });
});
