// A client's change callbacks — `onResourcesChanged`, `onPromptsChanged`, `onResourceUpdated` — in
// both eras: 2025 notifications from an SDK v1 server over stdio, and the `subscriptions/listen`
// streams of a 2026-07-28-only SDK v2 server. Each unsubscribe function stops its listener.
import { McpServer } from '@modelcontextprotocol/server';
import { createEventLog } from '@switchboard/test-helpers';
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpClient, type McpClient } from '../src/index.js';
import { startSdkV2Server } from './helpers/http-mcp-server.js';
import { fixture } from './helpers/servers.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

async function client(...args: Parameters<typeof createMcpClient>): Promise<McpClient> {
  const connected = await createMcpClient(...args);
  cleanups.push(() => connected.close());
  return connected;
}

/** Records the calls of a listener, as a log to wait on. */
function counter(name: string) {
  const calls = createEventLog<string>(name);
  return { calls, seen: calls.entries, listener: (value?: string) => calls.push(value ?? 'changed') };
}

describe('change callbacks, 2025 era (notifications)', () => {
  it('resources and prompts changed, and a subscribed resource updated', async () => {
    const connected = await client('changing', {
      command: process.execPath,
      args: [fixture('changing-server.mjs')],
    });
    expect(connected.era).toBe('legacy');
    const resources = counter('resources changed');
    const prompts = counter('prompts changed');
    const updates = counter('resources updated');
    const stopResources = connected.onResourcesChanged(resources.listener);
    connected.onPromptsChanged(prompts.listener);
    connected.onResourceUpdated(updates.listener);

    await connected.callTool('add_note');
    await resources.calls.atLeast(1);
    expect(prompts.seen).toEqual([]);
    await connected.callTool('add_prompt');
    await prompts.calls.atLeast(1);

    await connected.subscribeResource('note://1');
    await connected.callTool('touch', { uri: 'note://1' });
    expect(await updates.calls.atLeast(1)).toEqual(['note://1']);

    // Unsubscribed: another change reaches the prompts listener but not the resources one (its
    // notification came first, on the same connection).
    stopResources();
    const before = resources.seen.length;
    await connected.callTool('add_note');
    await connected.callTool('add_prompt');
    await prompts.calls.atLeast(2);
    expect(resources.seen.length).toBe(before);
  });
});

describe('change callbacks, 2026-07-28 (subscriptions/listen)', () => {
  it('resources and prompts changed, and a subscribed resource updated', async () => {
    const running = await startSdkV2Server({
      legacy: 'reject',
      factory: () => {
        const server = new McpServer(
          { name: 'modern-changes', version: '1.0.0' },
          {
            capabilities: {
              resources: { subscribe: true, listChanged: true },
              prompts: { listChanged: true },
            },
          },
        );
        server.registerResource('doc', 'doc://one', { mimeType: 'text/plain' }, async (uri) => ({
          contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'one' }],
        }));
        server.registerPrompt('hello', { description: 'Says hello' }, async () => ({
          messages: [{ role: 'user', content: { type: 'text', text: 'hello' } }],
        }));
        return server;
      },
    });
    cleanups.push(() => running.close());
    const connected = await client('modern', { url: running.url });
    expect(connected.era).toBe('modern');
    const resources = counter('resources changed');
    const prompts = counter('prompts changed');
    const updates = counter('resources updated');
    connected.onResourcesChanged(resources.listener);
    const stopPrompts = connected.onPromptsChanged(prompts.listener);
    connected.onResourceUpdated(updates.listener);

    running.handler.notify.resourcesChanged();
    expect(await resources.calls.atLeast(1)).toHaveLength(1);
    running.handler.notify.promptsChanged();
    expect(await prompts.calls.atLeast(1)).toHaveLength(1);

    await connected.subscribeResource('doc://one');
    running.handler.notify.resourceUpdated('doc://one');
    expect(await updates.calls.atLeast(1)).toEqual(['doc://one']);

    stopPrompts();
    // On one listen stream, in order: the prompts change comes before the resources one.
    running.handler.notify.promptsChanged();
    running.handler.notify.resourcesChanged();
    expect(await resources.calls.atLeast(2)).toHaveLength(2);
    expect(prompts.seen.length).toBe(1);
  });
});
