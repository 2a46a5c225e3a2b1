// Cache hints of list results (2026-07-28): a tool list is not fetched again within its `ttlMs`,
// and a list_changed (on the subscriptions/listen stream a modern client opens) invalidates it.
import { createEventLog } from '@switchboard/test-helpers';
import { afterEach, describe, expect, it } from 'vitest';
import { connectMcp, createMcpClient } from '../src/index.js';
import { type RunningMcpServer, startSdkV2Server } from './helpers/http-mcp-server.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

async function server(options: Parameters<typeof startSdkV2Server>[0]): Promise<RunningMcpServer> {
  const running = await startSdkV2Server(options);
  cleanups.push(() => running.close());
  return running;
}

const toolLists = (running: RunningMcpServer) =>
  running.requests.filter((request) => request.body?.method === 'tools/list').length;

describe('tools/list cache hints', () => {
  it('does not fetch the list again within ttlMs; list_changed on the listen stream invalidates it', async () => {
    const modern = await server({ legacy: 'reject', toolsTtlMs: 60_000 });
    const client = await createMcpClient('x', { url: modern.url }, { listChangedDebounceMs: 10 });
    cleanups.push(() => client.close());
    await client.listTools();
    await client.listTools({ refresh: true });
    await client.listTools({ refresh: true });
    expect(toolLists(modern)).toBe(1);
    const listen = modern.requests.find((request) => request.body?.method === 'subscriptions/listen');
    expect(listen?.body?.params?.notifications).toMatchObject({ toolsListChanged: true });

    const changed = createEventLog<number>('refreshed tool lists');
    client.onToolsChanged((tools) => changed.push(tools.length));
    modern.handler.notify.toolsChanged();
    await changed.atLeast(1);
    expect(toolLists(modern)).toBe(2);
  });

  it('fetches again when the server gives no cache hint (ttlMs 0)', async () => {
    const modern = await server({ legacy: 'reject' });
    const client = await createMcpClient('x', { url: modern.url });
    cleanups.push(() => client.close());
    await client.listTools();
    await client.listTools({ refresh: true });
    expect(toolLists(modern)).toBe(2);
  });

  it('delivers resource updates of a subscribed resource on a listen stream, and stops after unsubscribe', async () => {
    const modern = await server({ legacy: 'reject' });
    const updated = createEventLog<string>('resource updates');
    const client = await createMcpClient('x', { url: modern.url }, { onResourceUpdated: updated.push });
    cleanups.push(() => client.close());
    expect((await client.readResource('config://app')).contents[0]).toMatchObject({
      text: '{"mode":"test"}',
    });
    await client.subscribeResource('config://app');
    const listen = modern.requests
      .filter((request) => request.body?.method === 'subscriptions/listen')
      .at(-1);
    expect(listen?.body?.params?.notifications).toEqual({ resourceSubscriptions: ['config://app'] });
    modern.handler.notify.resourceUpdated('config://app');
    expect(await updated.atLeast(1)).toEqual(['config://app']);
    await client.unsubscribeResource('config://app');
    // A subscription to another resource puts a barrier on the listen stream: an update of the
    // unsubscribed one, sent first, would arrive before the other's.
    await client.subscribeResource('meta://request');
    modern.handler.notify.resourceUpdated('config://app');
    modern.handler.notify.resourceUpdated('meta://request');
    expect(await updated.atLeast(2)).toEqual(['config://app', 'meta://request']);
  });

  it('keeps tool schemas as the server wrote them in the registry', async () => {
    const modern = await server({ legacy: 'reject' });
    const client = await createMcpClient('x', { url: modern.url });
    cleanups.push(() => client.close());
    const listed = (await client.listTools()).find((tool) => tool.name === 'regional');
    const connection = await connectMcp({ x: { url: modern.url } });
    cleanups.push(() => connection.close());
    const registered = connection.tools.mcp__x__regional;
    expect(registered?.inputSchema).toEqual(listed?.inputSchema);
    expect(JSON.stringify(registered?.inputSchema)).toContain('x-mcp-header');
  });
});
