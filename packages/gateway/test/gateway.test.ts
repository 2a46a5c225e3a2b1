import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { createToolRegistry } from '@switchboard/core';
import { serve } from '@switchboard/server';
import { createEventLog, type EventLog, serverScript } from '@switchboard/test-helpers';
import { afterEach, describe, expect, test } from 'vitest';
import { createGateway } from '../src/index.js';

const everything = serverScript('server-everything');
const config = { mcpServers: { everything: { command: process.execPath, args: [everything, 'stdio'] } } };

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

/**
 * An SDK v1 client of the gateway; `getStreams` (when given) logs the status of each GET stream
 * it opens, as its answer comes: notifications outside any call travel on that stream.
 */
async function connectClient(url: string, getStreams?: EventLog<number>): Promise<Client> {
  const client = new Client({ name: 'gateway-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if ((init?.method ?? 'GET') === 'GET') getStreams?.push(response.status);
        return response;
      },
    }),
  );
  cleanups.push(() => client.close());
  return client;
}

describe('createGateway', () => {
  test('never serves an upstream tool its entry hides (includeTools / excludeTools), nor relays a call of one', async () => {
    const gateway = await createGateway({
      config: {
        mcpServers: {
          everything: {
            ...config.mcpServers.everything,
            includeTools: ['echo', 'get-*'],
            excludeTools: ['get-env'],
          },
        },
      },
    });
    cleanups.push(() => gateway.close());
    const handle = await serve(gateway, { transport: { type: 'http', port: 0, session: true } });
    cleanups.push(() => handle.close());
    const client = await connectClient(handle.url as string);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('mcp__everything__echo');
    expect(names).toContain('mcp__everything__get-sum');
    expect(names).not.toContain('mcp__everything__get-env');
    expect(names).not.toContain('mcp__everything__trigger-long-running-operation');
    const hidden = await client.callTool({ name: 'mcp__everything__get-env', arguments: {} }).then(
      (result) => result,
      (error: unknown) => ({ thrown: String(error) }),
    );
    expect(JSON.stringify(hidden)).toMatch(/get-env/);
    expect(JSON.stringify(hidden)).not.toMatch(/PATH/);
  });

  test('serves an upstream server-everything namespaced over HTTP, with progress and /health', async () => {
    const gateway = await createGateway({ config });
    cleanups.push(() => gateway.close());
    const handle = await serve(gateway, { transport: { type: 'http', port: 0, session: true } });
    cleanups.push(() => handle.close());
    const client = await connectClient(handle.url as string);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('mcp__everything__echo');
    expect(names).toContain('mcp__everything__get-sum');
    const echo = await client.callTool({
      name: 'mcp__everything__echo',
      arguments: { message: 'through the gateway' },
    });
    expect(JSON.stringify(echo.content)).toContain('through the gateway');
    const sum = await client.callTool({ name: 'mcp__everything__get-sum', arguments: { a: 2, b: 40 } });
    expect(JSON.stringify(sum.content)).toContain('42');
    const progress: number[] = [];
    await client.callTool(
      { name: 'mcp__everything__trigger-long-running-operation', arguments: { duration: 1, steps: 2 } },
      undefined,
      { onprogress: (update) => progress.push(update.progress), timeout: 30_000 },
    );
    expect(progress.length).toBeGreaterThanOrEqual(1);
    const health = await fetch((handle.url as string).replace('/mcp', '/health'));
    const body = (await health.json()) as { upstreams: Record<string, { state: string }>; metrics: unknown };
    expect(body.upstreams.everything?.state).toBe('connected');
    expect(body.metrics).toBeTypeOf('object');
    expect(JSON.stringify(body.metrics)).toContain('echo');
  }, 90_000);

  test('upstream log messages reach downstream clients, tagged with the upstream name', async () => {
    const gateway = await createGateway({ config });
    cleanups.push(() => gateway.close());
    const handle = await serve(gateway, { transport: { type: 'http', port: 0, session: true } });
    cleanups.push(() => handle.close());
    const client = await connectClient(handle.url as string);
    const loggers = createEventLog<string>('log messages');
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      loggers.push(String(notification.params.logger));
    });
    await client.callTool({ name: 'mcp__everything__toggle-simulated-logging', arguments: {} });
    const [first] = await loggers.atLeast(1, { timeoutMs: 30_000 });
    expect(first).toMatch(/^everything/);
  }, 60_000);

  test('cancelling a gateway call stops it and the gateway keeps serving', async () => {
    const gateway = await createGateway({ config });
    cleanups.push(() => gateway.close());
    const handle = await serve(gateway, { transport: { type: 'http', port: 0, session: true } });
    cleanups.push(() => handle.close());
    const client = await connectClient(handle.url as string);
    const controller = new AbortController();
    // The first progress says the upstream runs the operation: cancel it then.
    const progress = createEventLog<number>('progress of the long operation');
    const slow = client.callTool(
      { name: 'mcp__everything__trigger-long-running-operation', arguments: { duration: 20, steps: 20 } },
      undefined,
      { signal: controller.signal, timeout: 60_000, onprogress: (update) => progress.push(update.progress) },
    );
    await progress.atLeast(1);
    controller.abort();
    await expect(slow).rejects.toThrow();
    const echo = await client.callTool({ name: 'mcp__everything__echo', arguments: { message: 'still' } });
    expect(JSON.stringify(echo.content)).toContain('still');
  }, 90_000);

  test('upstream tool changes are mirrored and announced with list_changed', async () => {
    // A plain registry stands in for the connectMcp set (a neighbour, not the thing under test).
    const registry = createToolRegistry();
    const clients = { registry, status: () => ({ fake: { state: 'connected' } }), metrics: () => ({}) };
    const gateway = await createGateway({ clients });
    const handle = await serve(gateway, { transport: { type: 'http', port: 0, session: true } });
    cleanups.push(() => handle.close());
    const getStreams = createEventLog<number>('GET streams opened by the client');
    const client = await connectClient(handle.url as string, getStreams);
    const changes = createEventLog<unknown>('tools/list_changed notifications');
    client.setNotificationHandler(ToolListChangedNotificationSchema, changes.push);
    // list_changed goes on the session's GET stream: change the tools once it is open.
    expect(await getStreams.atLeast(1)).toEqual([200]);
    registry.register({
      server: 'fake',
      name: 'hello',
      description: 'says hello',
      inputSchema: { type: 'object' },
      annotations: { readOnlyHint: true },
      execute: async () => ({ content: [{ type: 'text', text: 'hello!' }] }),
    });
    await changes.atLeast(1);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['mcp__fake__hello']);
    expect((await client.callTool({ name: 'mcp__fake__hello', arguments: {} })).content).toEqual([
      { type: 'text', text: 'hello!' },
    ]);
    registry.unregisterServer('fake');
    await changes.atLeast(2);
    expect((await client.listTools()).tools).toEqual([]);
  }, 60_000);

  test('with a selector: discover_tools plus the discovered subset', async () => {
    const gateway = await createGateway({
      config,
      // A keyword selector stands in for @switchboard/tool-selection (a neighbour).
      selector: {
        select: async (query) =>
          gateway.clients.registry
            .list()
            .filter((tool) => query.split(' ').some((word) => tool.originalName.includes(word)))
            .map((tool) => ({ name: tool.name })),
      },
    });
    cleanups.push(() => gateway.close());
    const handle = await serve(gateway, { transport: { type: 'http', port: 0, session: true } });
    cleanups.push(() => handle.close());
    const client = await connectClient(handle.url as string);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['discover_tools']);
    const found = await client.callTool({ name: 'discover_tools', arguments: { query: 'sum' } });
    expect(found.structuredContent).toMatchObject({ tools: [{ name: 'mcp__everything__get-sum' }] });
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual([
      'discover_tools',
      'mcp__everything__get-sum',
    ]);
    const sum = await client.callTool({ name: 'mcp__everything__get-sum', arguments: { a: 1, b: 2 } });
    expect(JSON.stringify(sum.content)).toContain('3');
  }, 90_000);
  test('discover_tools only reports tools the gateway serves (not those needing approval)', async () => {
    const filesystem = serverScript('server-filesystem');
    const root = mkdtempSync(join(tmpdir(), 'gateway-discover-'));
    cleanups.push(async () => rmSync(root, { recursive: true, force: true }));
    const gateway = await createGateway({
      // server-filesystem has tools that need approval (write_file, move_file...).
      config: { mcpServers: { files: { command: process.execPath, args: [filesystem, root] } } },
      // Every upstream tool is a hit: the gateway itself must leave out what it will not serve.
      selector: { select: async () => gateway.clients.registry.list().map((tool) => ({ name: tool.name })) },
      discoverLimit: 50,
      maxExposedTools: 100,
    });
    cleanups.push(() => gateway.close());
    const handle = await serve(gateway, { transport: { type: 'http', port: 0, session: true } });
    cleanups.push(() => handle.close());
    const client = await connectClient(handle.url as string);
    const found = await client.callTool({
      name: 'discover_tools',
      arguments: { query: 'anything', limit: 50 },
    });
    const foundNames = (found.structuredContent as { tools: Array<{ name: string }> }).tools.map(
      (tool) => tool.name,
    );
    const listed = (await client.listTools()).tools
      .map((tool) => tool.name)
      .filter((name) => name !== 'discover_tools');
    const upstream = gateway.clients.registry.list();
    const hidden = upstream.filter((tool) => !gateway.isServed(tool)).map((tool) => tool.name);
    expect(hidden.length).toBeGreaterThan(0);
    expect(foundNames.sort()).toEqual(listed.sort());
    for (const name of hidden) expect(foundNames).not.toContain(name);
    expect(foundNames.length).toBe(upstream.length - hidden.length);
  }, 90_000);
});
