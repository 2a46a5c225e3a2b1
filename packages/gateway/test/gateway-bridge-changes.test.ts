/**
 * Change notifications cross the gateway: an upstream's tools, resources or prompts changing (a
 * 2025 upstream's notifications, a 2026-07-28-only upstream's `subscriptions/listen` stream)
 * reaches 2025 sessions as notifications and 2026-07-28 clients on their listen stream, and the
 * lists they read next show the change (a kept list is dropped on the upstream's word).
 * `resources/updated` for a subscribed upstream resource likewise.
 */
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { type ServeHandle, serve } from '@switchboard/server';
import { createEventLog, type EventLog } from '@switchboard/test-helpers';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createGateway, type Gateway } from '../src/index.js';
import { type SdkV1Upstream, startSdkV1Upstream } from './fixtures/sdk-v1-upstream.js';
import { type SdkV2Upstream, startSdkV2Upstream } from './fixtures/sdk-v2-upstream.js';

let modernOnly: SdkV2Upstream;
let legacyV1: SdkV1Upstream;
let gateway: Gateway;
let handle: ServeHandle & { url: string };
const closers: Array<() => Promise<unknown>> = [];

/** What each downstream client heard: notification methods, and updated URIs. */
interface Heard {
  methods: EventLog<string>;
  updated: EventLog<string>;
}

/** Empty logs of what `client` hears. */
const heardBy = (client: string): Heard => ({
  methods: createEventLog(`list_changed notifications heard by the ${client} client`),
  updated: createEventLog(`resources/updated heard by the ${client} client`),
});

let session: V1Client;
let modern: V2Client;
const heardBySession = heardBy('2025 session');
const heardByModern = heardBy('2026-07-28');

beforeAll(async () => {
  [modernOnly, legacyV1] = await Promise.all([startSdkV2Upstream('reject'), startSdkV1Upstream()]);
  gateway = await createGateway({
    config: { mcpServers: { modern: { url: modernOnly.url }, v1: { url: legacyV1.url } } },
    // A new tool of a known upstream would be quarantined (tool trust, gateway-trust.test.ts): off here.
    connectOptions: { trust: { pin: 'off' } },
  });
  handle = (await serve(gateway, { transport: { type: 'http', port: 0, session: true } })) as ServeHandle & {
    url: string;
  };
  closers.push(
    () => Promise.all([modernOnly.close(), legacyV1.close()]),
    () => gateway.close(),
    () => handle.close(),
  );

  session = new V1Client({ name: 'session', version: '1.0.0' });
  const heard = (method: string) => () => {
    heardBySession.methods.push(method);
  };
  session.setNotificationHandler(ToolListChangedNotificationSchema, heard('tools'));
  session.setNotificationHandler(ResourceListChangedNotificationSchema, heard('resources'));
  session.setNotificationHandler(PromptListChangedNotificationSchema, heard('prompts'));
  session.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
    heardBySession.updated.push(notification.params.uri);
  });
  await session.connect(new V1Http(new URL(handle.url)));
  closers.push(() => session.close());

  modern = new V2Client(
    { name: 'modern', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  modern.setNotificationHandler('notifications/tools/list_changed', () => {
    heardByModern.methods.push('tools');
  });
  modern.setNotificationHandler('notifications/resources/list_changed', () => {
    heardByModern.methods.push('resources');
  });
  modern.setNotificationHandler('notifications/prompts/list_changed', () => {
    heardByModern.methods.push('prompts');
  });
  modern.setNotificationHandler('notifications/resources/updated', (notification) => {
    heardByModern.updated.push(notification.params.uri);
  });
  await modern.connect(new V2Http(new URL(handle.url)));
  closers.push(() => modern.close());
  const listening = await modern.listen({
    toolsListChanged: true,
    resourcesListChanged: true,
    promptsListChanged: true,
    resourceSubscriptions: ['doc://one'],
  });
  expect(listening.honoredFilter).toMatchObject({
    toolsListChanged: true,
    resourceSubscriptions: ['doc://one'],
  });
  closers.push(() => listening.close());
}, 60_000);

afterAll(async () => {
  while (closers.length)
    await closers
      .pop()?.()
      .catch(() => {});
});

/** How often one client heard `method` so far. */
const countOf = (heard: Heard, method: string) =>
  heard.methods.entries.filter((seen) => seen === method).length;

/** Counts of one method heard so far (by both clients). */
const counts = (method: string) => [countOf(heardBySession, method), countOf(heardByModern, method)];

/** Waits until both clients heard `method` more often than `before`. */
async function bothHear(method: string, before: number[]) {
  await Promise.all(
    [heardBySession, heardByModern].map((heard, index) =>
      heard.methods.until(() => countOf(heard, method) > (before[index] ?? 0), {
        what: `${method} list_changed`,
      }),
    ),
  );
}

describe('from a 2025 upstream (notifications)', () => {
  test('a new tool: both clients hear tools/list_changed and list it', async () => {
    const before = counts('tools');
    await session.callTool({ name: 'mcp__v1__add_tool', arguments: {} });
    await bothHear('tools', before);
    expect((await session.listTools()).tools.map((tool) => tool.name)).toContain('mcp__v1__added');
    expect(
      (await modern.listTools(undefined, { cacheMode: 'refresh' })).tools.map((tool) => tool.name),
    ).toContain('mcp__v1__added');
  });

  test('a new resource: both hear resources/list_changed; the kept list is read again', async () => {
    // Read (and let the gateway keep) the list first: a 2025 upstream with listChanged is cached.
    expect((await session.listResources()).resources.map((resource) => resource.uri)).toContain('note://1');
    const before = counts('resources');
    await session.callTool({ name: 'mcp__v1__add_note', arguments: {} });
    await bothHear('resources', before);
    const uris = (await session.listResources()).resources.map((resource) => resource.uri);
    expect(uris).toEqual(expect.arrayContaining(['note://1', 'note://2', 'doc://one']));
    expect(
      (await modern.listResources(undefined, { cacheMode: 'refresh' })).resources.map(
        (resource) => resource.uri,
      ),
    ).toContain('note://2');
  });

  test('a new prompt: both hear prompts/list_changed and list it', async () => {
    expect((await session.listPrompts()).prompts.map((prompt) => prompt.name)).not.toContain(
      'mcp__v1__extra-1',
    );
    const before = counts('prompts');
    await session.callTool({ name: 'mcp__v1__add_prompt', arguments: {} });
    await bothHear('prompts', before);
    expect((await session.listPrompts()).prompts.map((prompt) => prompt.name)).toContain('mcp__v1__extra-1');
  });

  test('resources/updated reaches the 2025 session that subscribed, not the others', async () => {
    await session.subscribeResource({ uri: 'note://1' });
    await session.callTool({ name: 'mcp__v1__touch', arguments: { uri: 'note://1' } });
    await heardBySession.updated.find((uri) => uri === 'note://1');
    expect(heardByModern.updated.entries).not.toContain('note://1');
  });
});

describe('from a 2026-07-28-only upstream (its listen stream)', () => {
  test('a new tool: both clients hear tools/list_changed and list it', async () => {
    const before = counts('tools');
    modernOnly.ledger.extraTool = true;
    modernOnly.notify.toolsChanged();
    await bothHear('tools', before);
    expect((await session.listTools()).tools.map((tool) => tool.name)).toContain('mcp__modern__extra');
  });

  test('resources and prompts changed: both clients hear it', async () => {
    const resources = counts('resources');
    modernOnly.notify.resourcesChanged();
    await bothHear('resources', resources);
    const prompts = counts('prompts');
    modernOnly.notify.promptsChanged();
    await bothHear('prompts', prompts);
  });

  test('resources/updated reaches the modern client listening for it and a subscribed 2025 session', async () => {
    await session.subscribeResource({ uri: 'doc://one' });
    modernOnly.notify.resourceUpdated('doc://one');
    await heardByModern.updated.find((uri) => uri === 'doc://one');
    await heardBySession.updated.find((uri) => uri === 'doc://one');
  });
});
