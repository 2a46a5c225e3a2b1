/**
 * What goes wrong on a bridge, and how it ends: clear errors, and a gateway that keeps serving.
 * - An upstream that crashes mid-call: the downstream call fails naming the upstream.
 * - An upstream asks for input the downstream client cannot give (it declared no elicitation):
 *   the upstream gets an error that says so and its call fails cleanly; the downstream call fails
 *   too (a 2026-07-28 client with -32021, as the spec says).
 * - A 2026-07-28 client that never retries: after the `requestState` lifetime the suspended call is
 *   released and the upstream sees its call cancelled; a late retry is told the state expired.
 * - A tampered `requestState` is refused with -32602; the suspended call it tried to reach is
 *   untouched and the real retry still finishes it.
 */
import { fileURLToPath } from 'node:url';
import type { McpConnection } from '@switchboard/client';
import { type ServeHandle, serve } from '@switchboard/server';
import { createEventLog, envelope, post, serverScript } from '@switchboard/test-helpers';
import { afterEach, describe, expect, test } from 'vitest';
import { createGateway, type GatewayOptions } from '../src/index.js';
import { connectDownstream, type Downstream, type DownstreamKind } from './fixtures/downstream-clients.js';
import { startSdkV1Upstream } from './fixtures/sdk-v1-upstream.js';
import { startSdkV2Upstream } from './fixtures/sdk-v2-upstream.js';

const everything = serverScript('server-everything');

const v1Script = fileURLToPath(new URL('./fixtures/sdk-v1-upstream.ts', import.meta.url));

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length)
    await cleanups
      .pop()?.()
      .catch(() => {});
});

async function start(options: GatewayOptions) {
  const gateway = await createGateway(options);
  cleanups.push(() => gateway.close());
  const handle = (await serve(gateway, {
    transport: { type: 'http', port: 0, session: true },
  })) as ServeHandle & {
    url: string;
  };
  cleanups.push(() => handle.close());
  return { gateway, url: handle.url };
}

async function downstream(
  kind: DownstreamKind,
  url: string,
  options?: Parameters<typeof connectDownstream>[2],
) {
  const connected: Downstream = await connectDownstream(kind, url, options);
  cleanups.push(() => connected.close());
  return connected;
}

async function upstreams() {
  const [v1, modern] = await Promise.all([startSdkV1Upstream(), startSdkV2Upstream('reject')]);
  cleanups.push(
    () => v1.close(),
    () => modern.close(),
  );
  return { v1, modern, config: { mcpServers: { v1: { url: v1.url }, modern: { url: modern.url } } } };
}

const textOf = (result: Record<string, unknown>) => JSON.stringify(result.content);

describe('an upstream that crashes mid-call', () => {
  test.each(['v1', 'modern'] as const)(
    '%s client, a call that is not retry-safe: it fails naming the upstream; the rest keeps working',
    async (kind) => {
      const { config } = await upstreams();
      const { gateway, url } = await start({
        config: {
          mcpServers: {
            ...config.mcpServers,
            child: { command: process.execPath, args: ['--import', 'tsx', v1Script, 'stdio'] },
          },
        },
      });
      const client = await downstream(kind, url);
      const progress = createEventLog<unknown>('progress of the slow call');
      const call = client.call(
        'mcp__child__slow',
        { steps: 200 },
        { onprogress: progress.push, timeout: 60_000 },
      );
      await progress.atLeast(1);
      process.kill((gateway.clients as McpConnection).client('child')?.pid as number, 'SIGKILL');
      const result = await call;
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain('MCP server \\"child\\"');
      expect(textOf(result)).toContain('not retried');
      // The other upstreams still answer.
      const other = await client.call('mcp__modern__slow', { steps: 1 });
      expect(other.content).toEqual([{ type: 'text', text: 'slow: 1 steps' }]);
    },
    60_000,
  );

  test('a read-only call to a stdio upstream killed mid-call: respawned and run again, the result arrives', async () => {
    const { gateway, url } = await start({
      config: { mcpServers: { everything: { command: process.execPath, args: [everything, 'stdio'] } } },
    });
    const client = await downstream('v1', url);
    const firstPid = (gateway.clients as McpConnection).client('everything')?.pid;
    const progress = createEventLog<unknown>('progress of the long operation');
    const call = client.call(
      'mcp__everything__trigger-long-running-operation',
      { duration: 2, steps: 2 },
      { onprogress: progress.push, timeout: 60_000 },
    );
    await progress.atLeast(1);
    process.kill(firstPid as number, 'SIGKILL');
    const result = await call;
    expect(result.isError).toBeUndefined();
    expect(textOf(result)).toContain('Long running operation completed');
    expect((gateway.clients as McpConnection).client('everything')?.pid).not.toBe(firstPid);
  }, 60_000);
});

describe('an upstream asks for input the downstream client cannot give', () => {
  test('2025 client without elicitation: the upstream is told why, and the call fails cleanly', async () => {
    const { v1, config } = await upstreams();
    const { url } = await start({ config });
    const client = await downstream('v1', url, { elicitation: false });
    const result = await client.call('mcp__v1__ask');
    expect(result.isError).toBe(true);
    expect(v1.ledger.inputErrors.entries).toHaveLength(1);
    expect(v1.ledger.inputErrors.entries[0]?.message).toContain(
      `The gateway's client could not answer elicitation/create of upstream MCP server "v1" (tool "ask")`,
    );
    expect(v1.ledger.inputErrors.entries[0]?.message).toContain('needs the client capability elicitation');
    // The same client and upstream go on working.
    expect((await client.call('mcp__v1__slow', { steps: 1 })).content).toEqual([
      { type: 'text', text: 'slow: 1 steps' },
    ]);
  });

  test('2026-07-28 client without elicitation: -32021 for the client, an error for the upstream', async () => {
    const { v1, config } = await upstreams();
    const { url } = await start({ config });
    const answer = await post(url, 'tools/call', {
      name: 'mcp__v1__ask',
      arguments: {},
      _meta: envelope({}),
    });
    expect(answer.body.error?.code).toBe(-32021);
    expect(answer.body.error?.message).toContain('elicitation');
    const [inputError] = await v1.ledger.inputErrors.atLeast(1);
    expect(v1.ledger.inputErrors.entries).toHaveLength(1);
    expect(inputError?.message).toContain('needs the client capability elicitation');
  });

  test('2025 client without elicitation, 2026-07-28-only upstream: the call fails cleanly', async () => {
    const { modern, config } = await upstreams();
    const { url } = await start({ config });
    const client = await downstream('v1', url, { elicitation: false });
    const result = await client.call('mcp__modern__ask_name');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('needs the client capability elicitation');
    // The upstream only saw the first round: no answer was made up for it.
    expect(modern.received.filter((message) => message.params?.name === 'ask_name')).toHaveLength(1);
  });
});

describe('a 2026-07-28 client that never retries', () => {
  test('the suspended call is released after the state lifetime: the upstream sees its call cancelled', async () => {
    const { v1, config } = await upstreams();
    const { url } = await start({ config, requestState: { ttlSeconds: 1 } });
    const caps = { elicitation: {} };
    const first = await post(url, 'tools/call', {
      name: 'mcp__v1__ask',
      arguments: {},
      _meta: envelope(caps),
    });
    expect(first.body.result?.resultType).toBe('input_required');
    expect(v1.ledger.cancelled.entries).toEqual([]);
    // No retry comes: the gateway lets the upstream call go.
    expect(await v1.ledger.cancelled.atLeast(1)).toEqual(['ask']);
    const late = await post(url, 'tools/call', {
      name: 'mcp__v1__ask',
      arguments: {},
      inputResponses: { elicitation_1: { action: 'accept', content: { name: 'Late' } } },
      requestState: first.body.result?.requestState,
      _meta: envelope(caps),
    });
    expect(late.body.error?.code).toBe(-32602);
    expect(late.body.error?.message).toMatch(/requestState|suspended call/);
    // The gateway keeps serving.
    const again = await post(url, 'tools/call', {
      name: 'mcp__v1__slow',
      arguments: { steps: 1 },
      _meta: envelope(),
    });
    expect(again.body.result).toMatchObject({ content: [{ type: 'text', text: 'slow: 1 steps' }] });
  }, 30_000);
});

describe('a tampered requestState', () => {
  test('is refused with -32602; the real retry still finishes the suspended call', async () => {
    const { v1, config } = await upstreams();
    const { url } = await start({ config });
    const caps = { elicitation: {} };
    const first = await post(url, 'tools/call', {
      name: 'mcp__v1__ask',
      arguments: {},
      _meta: envelope(caps),
    });
    const state = first.body.result?.requestState as string;
    const answer = { elicitation_1: { action: 'accept', content: { name: 'Real' } } };
    const tampered = await post(url, 'tools/call', {
      name: 'mcp__v1__ask',
      arguments: {},
      inputResponses: answer,
      requestState: `${state.slice(0, -2)}xx`,
      _meta: envelope(caps),
    });
    expect(tampered.body.error?.code).toBe(-32602);
    expect(tampered.body.error?.message).toContain('integrity check');
    const real = await post(url, 'tools/call', {
      name: 'mcp__v1__ask',
      arguments: {},
      inputResponses: answer,
      requestState: state,
      _meta: envelope(caps),
    });
    expect(real.body.result).toMatchObject({ content: [{ type: 'text', text: 'accept: Real' }] });
    expect(v1.ledger.runs.ask).toBe(1);
    expect(v1.ledger.cancelled.entries).toEqual([]);
  });
});
