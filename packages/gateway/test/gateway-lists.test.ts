/**
 * How a gateway gathers its upstreams' resource and prompt lists: an upstream that hangs is left
 * out of the answer once its bounded wait is over (logged), so the other upstreams' items still
 * arrive; a 2025 upstream that announces its changes is asked once and kept until it announces
 * one; a 2026-07-28 upstream whose cache hints allow no caching is asked each time. Gateway tool
 * calls are counted by the upstream set (metrics in `/health`, `afterToolCall`).
 */
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ToolCallEvent } from '@switchboard/client';
import type { Logger } from '@switchboard/core';
import { type ServeHandle, serve } from '@switchboard/server';
import { afterEach, describe, expect, test } from 'vitest';
import { createGateway, type GatewayOptions } from '../src/index.js';
import { startSdkV1Upstream } from './fixtures/sdk-v1-upstream.js';
import { startSdkV2Upstream } from './fixtures/sdk-v2-upstream.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length)
    await cleanups
      .pop()?.()
      .catch(() => {});
});

/** A logger that keeps its warnings. */
function recordingLogger(warnings: string[]): Logger {
  const logger: Logger = {
    debug: () => {},
    info: () => {},
    warn: (_fields: unknown, message?: string) => {
      warnings.push(String(message));
    },
    error: () => {},
    child: () => logger,
  } as unknown as Logger;
  return logger;
}

async function start(options: GatewayOptions) {
  const gateway = await createGateway(options);
  cleanups.push(() => gateway.close());
  const handle = (await serve(gateway, {
    transport: { type: 'http', port: 0, session: true },
  })) as ServeHandle & {
    url: string;
  };
  cleanups.push(() => handle.close());
  const client = new V1Client({ name: 'lists', version: '1.0.0' });
  await client.connect(new V1Http(new URL(handle.url)));
  cleanups.push(() => client.close());
  return { gateway, handle, client };
}

describe('gateway lists', () => {
  test('a hung upstream is left out (with a warning); the others are served', async () => {
    const [hung, legacy] = await Promise.all([
      startSdkV2Upstream('reject', { hangLists: true }),
      startSdkV1Upstream(),
    ]);
    cleanups.push(
      () => hung.close(),
      () => legacy.close(),
    );
    const warnings: string[] = [];
    const { client } = await start({
      config: { mcpServers: { hung: { url: hung.url }, v1: { url: legacy.url } } },
      upstreamListTimeoutMs: 200,
      logger: recordingLogger(warnings),
    });
    const resources = (await client.listResources()).resources.map((resource) => resource.uri);
    expect(resources).toEqual(['note://1']);
    const prompts = (await client.listPrompts()).prompts.map((prompt) => prompt.name);
    expect(prompts).toEqual(['mcp__v1__greeting']);
    expect(warnings).toContainEqual(
      expect.stringContaining('resources/list of upstream "hung" did not answer within 200 ms'),
    );
    expect(warnings).toContainEqual(
      expect.stringContaining('prompts/list of upstream "hung" did not answer within 200 ms'),
    );
    // The gateway keeps serving: tools of the hung upstream still work, and so do reads of the other.
    const slow = await client.callTool({ name: 'mcp__hung__slow', arguments: { steps: 1 } });
    expect(slow.content).toEqual([{ type: 'text', text: 'slow: 1 steps' }]);
    const read = await client.readResource({ uri: 'note://1' });
    expect(read.contents[0]).toMatchObject({ uri: 'note://1', text: 'note 1' });
  }, 30_000);

  test('a 2025 upstream with listChanged is asked once until it announces a change; a modern one with no cache hint each time', async () => {
    const [modern, legacy] = await Promise.all([startSdkV2Upstream('reject'), startSdkV1Upstream()]);
    cleanups.push(
      () => modern.close(),
      () => legacy.close(),
    );
    const { client } = await start({
      config: { mcpServers: { modern: { url: modern.url }, v1: { url: legacy.url } } },
    });
    const asked = () => ({
      v1: legacy.ledger.methods.filter((method) => method === 'resources/list').length,
      modern: modern.received.filter((message) => message.method === 'resources/list').length,
    });
    const start0 = asked();
    for (let round = 0; round < 3; round++) {
      expect((await client.listResources()).resources.map((resource) => resource.uri).sort()).toEqual([
        'doc://one',
        'note://1',
      ]);
    }
    expect(asked()).toEqual({ v1: start0.v1 + 1, modern: start0.modern + 3 });
    // The upstream announces a change: the next list asks it again, and shows the change.
    await client.callTool({ name: 'mcp__v1__add_note', arguments: {} });
    await expect
      .poll(async () => (await client.listResources()).resources.map((resource) => resource.uri), {
        timeout: 10_000,
      })
      .toContain('note://2');
    expect(asked().v1).toBeGreaterThan(start0.v1 + 1);
  }, 30_000);

  test('gateway tool calls are counted by the upstream set: /health metrics and afterToolCall', async () => {
    const legacy = await startSdkV1Upstream();
    cleanups.push(() => legacy.close());
    const events: ToolCallEvent[] = [];
    const { client, handle } = await start({
      config: { mcpServers: { v1: { url: legacy.url } } },
      connectOptions: { afterToolCall: (event) => void events.push(event) },
    });
    await client.callTool({ name: 'mcp__v1__slow', arguments: { steps: 1 } });
    await client.callTool({ name: 'mcp__v1__slow', arguments: { steps: 1 } });
    await client.callTool({ name: 'mcp__v1__touch', arguments: { uri: 'note://1' } });
    const health = (await (await fetch(handle.url.replace('/mcp', '/health'))).json()) as {
      metrics: {
        servers: Record<string, { calls: number }>;
        tools: Record<string, Record<string, { calls: number }>>;
      };
    };
    expect(health.metrics.tools.v1?.slow?.calls).toBe(2);
    expect(health.metrics.servers.v1?.calls).toBe(3);
    expect(events.map((event) => [event.publicName, event.ok])).toEqual([
      ['mcp__v1__slow', true],
      ['mcp__v1__slow', true],
      ['mcp__v1__touch', true],
    ]);
  }, 30_000);
});
