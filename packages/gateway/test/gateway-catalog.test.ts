import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  McpError,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { McpConnection } from '@switchboard/client';
import { createToolRegistry } from '@switchboard/core';
import { serve } from '@switchboard/server';
import { connectInMemory, createEventLog, everythingStdio, serverScript } from '@switchboard/test-helpers';
import { afterEach, describe, expect, test } from 'vitest';
import { createGateway } from '../src/index.js';

const everything = everythingStdio();
const memory = { command: process.execPath, args: [serverScript('server-memory')] };

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

async function startGateway(options: Parameters<typeof createGateway>[0], session = true) {
  const gateway = await createGateway(options);
  cleanups.push(() => gateway.close());
  const handle = await serve(gateway, { transport: { type: 'http', port: 0, session } });
  cleanups.push(() => handle.close());
  const client = new Client({ name: 'gateway-catalog-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(handle.url as string)));
  cleanups.push(() => client.close());
  return { gateway, client, connection: gateway.clients as McpConnection };
}

/** The JSON-RPC error a request rejected with. */
async function wireError(promise: Promise<unknown>): Promise<McpError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}

const textOf = (result: { contents: object[] }) =>
  result.contents.map((content) => ('text' in content ? String(content.text) : '')).join('\n');

describe('gateway resources and prompts', () => {
  test('lists and reads the resources of two upstreams, namespacing only colliding URIs', async () => {
    const { client } = await startGateway({
      config: { mcpServers: { everything, again: everything, memory } },
    });
    expect(client.getServerCapabilities()?.resources).toMatchObject({ listChanged: true, subscribe: true });
    const { resources } = await client.listResources();
    const uris = resources.map((resource) => resource.uri);
    expect(new Set(uris).size).toBe(uris.length);
    // Unique to one upstream: kept as is. Listed by both everything servers: `<server>+<uri>`.
    expect(uris).toContain('memory://knowledge-graph');
    const document = 'demo://resource/static/document/architecture.md';
    expect(uris).toContain(`everything+${document}`);
    expect(uris).toContain(`again+${document}`);
    expect(uris).not.toContain(document);
    const graph = resources.find((resource) => resource.uri === 'memory://knowledge-graph');
    expect(graph?._meta?.['switchboard/server']).toBe('memory');

    const read = await client.readResource({ uri: `again+${document}` });
    expect(read.contents[0]?.uri).toBe(`again+${document}`);
    expect(textOf(read).length).toBeGreaterThan(0);
    const knowledge = await client.readResource({ uri: 'memory://knowledge-graph' });
    expect(knowledge.contents[0]?.uri).toBe('memory://knowledge-graph');
    expect(() => JSON.parse(textOf(knowledge))).not.toThrow();
  }, 120_000);

  test('reads a template-expanded resource, with and without a server prefix', async () => {
    const { client } = await startGateway({ config: { mcpServers: { everything, memory } } });
    const { resourceTemplates } = await client.listResourceTemplates();
    const templates = resourceTemplates.map((template) => template.uriTemplate);
    expect(templates).toContain('demo://resource/dynamic/text/{resourceId}');
    expect(resourceTemplates[0]?._meta?.['switchboard/server']).toBe('everything');
    // Read without listing resources first: the gateway finds the owner by template.
    const dynamic = await client.readResource({ uri: 'demo://resource/dynamic/text/7' });
    expect(dynamic.contents[0]?.uri).toBe('demo://resource/dynamic/text/7');
    expect(textOf(dynamic)).toContain('7');
    const explicit = await client.readResource({ uri: 'everything+demo://resource/dynamic/text/8' });
    expect(explicit.contents[0]?.uri).toBe('everything+demo://resource/dynamic/text/8');
    expect(textOf(explicit)).toContain('8');
  }, 90_000);

  test('lists prompts namespaced and gets one with arguments', async () => {
    const { client } = await startGateway({ config: { mcpServers: { everything, memory } } });
    expect(client.getServerCapabilities()?.prompts).toMatchObject({ listChanged: true });
    const { prompts } = await client.listPrompts();
    const names = prompts.map((prompt) => prompt.name);
    expect(names).toContain('mcp__everything__simple-prompt');
    expect(names).toContain('mcp__everything__args-prompt');
    const argsPrompt = prompts.find((prompt) => prompt.name === 'mcp__everything__args-prompt');
    expect(argsPrompt?.arguments?.map((argument) => argument.name)).toEqual(['city', 'state']);
    const result = await client.getPrompt({
      name: 'mcp__everything__args-prompt',
      arguments: { city: 'Lyon', state: 'Rhône' },
    });
    expect(JSON.stringify(result.messages)).toContain('Lyon');
    expect(JSON.stringify(result.messages)).toContain('Rhône');
    // The upstream refuses a missing required argument: its error comes back naming the server.
    const missing = await wireError(
      client.getPrompt({ name: 'mcp__everything__args-prompt', arguments: {} }),
    );
    expect(missing.message).toContain('"everything"');
    expect(missing.message).toContain('mcp__everything__args-prompt');
    const unknown = await wireError(client.getPrompt({ name: 'mcp__nowhere__nothing' }));
    expect(unknown.code).toBe(-32602);
    expect(unknown.message).toContain('mcp__nowhere__nothing');
    expect(unknown.message).toContain('mcp__everything__simple-prompt');
  }, 90_000);

  test('completion of prompt arguments and template variables is asked of the upstream', async () => {
    const { client } = await startGateway({ config: { mcpServers: { everything, again: everything } } });
    const departments = await client.complete({
      ref: { type: 'ref/prompt', name: 'mcp__again__completable-prompt' },
      argument: { name: 'department', value: 'S' },
    });
    expect(departments.completion.values.sort()).toEqual(['Sales', 'Support']);
    const people = await client.complete({
      ref: { type: 'ref/prompt', name: 'mcp__everything__completable-prompt' },
      argument: { name: 'name', value: '' },
      context: { arguments: { department: 'Engineering' } },
    });
    expect(people.completion.values).toEqual(['Alice', 'Bob', 'Charlie']);
    // Both upstreams list the template, so it is served prefixed; the upstream gets its own form.
    const ids = await client.complete({
      ref: { type: 'ref/resource', uri: 'again+demo://resource/dynamic/text/{resourceId}' },
      argument: { name: 'resourceId', value: '12' },
    });
    expect(ids.completion.values).toEqual(['12']);
    const unknown = await client.complete({
      ref: { type: 'ref/prompt', name: 'mcp__nowhere__nothing' },
      argument: { name: 'x', value: '' },
    });
    expect(unknown.completion.values).toEqual([]);
  }, 90_000);

  test('an unknown resource is a JSON-RPC error naming the URI and the servers; the gateway keeps serving', async () => {
    const { client } = await startGateway({ config: { mcpServers: { everything, memory } } });
    const notFound = await wireError(client.readResource({ uri: 'nowhere://nothing' }));
    expect(notFound.code).toBe(-32602);
    expect(notFound.message).toContain('nowhere://nothing');
    expect(notFound.message).toContain('everything');
    expect(notFound.message).toContain('memory');
    // Routed to an upstream that does not have it: its answer, naming the server.
    const upstream = await wireError(
      client.readResource({ uri: 'everything+demo://resource/static/document/nope.md' }),
    );
    expect(upstream.message).toContain('"everything"');
    expect(upstream.message).toContain('nope.md');
    const still = await client.readResource({ uri: 'memory://knowledge-graph' });
    expect(still.contents).toHaveLength(1);
  }, 90_000);

  test('an upstream that dies or is removed takes its resources and prompts along; the rest keep working', async () => {
    const { client, connection } = await startGateway({
      config: { mcpServers: { everything, again: everything, memory } },
      connectOptions: { supervision: { respawn: false } },
    });
    const resourceChanges = createEventLog<unknown>('resources/list_changed notifications');
    const promptChanges = createEventLog<unknown>('prompts/list_changed notifications');
    client.setNotificationHandler(ResourceListChangedNotificationSchema, resourceChanges.push);
    client.setNotificationHandler(PromptListChangedNotificationSchema, promptChanges.push);
    expect((await client.listResources()).resources.map((resource) => resource.uri)).toContain(
      'memory://knowledge-graph',
    );
    await client.listPrompts();

    const pid = connection.client('memory')?.pid;
    expect(pid).toBeTypeOf('number');
    process.kill(pid as number, 'SIGKILL');
    await resourceChanges.atLeast(1, { timeoutMs: 30_000 });
    const afterCrash = (await client.listResources()).resources.map((resource) => resource.uri);
    expect(afterCrash).not.toContain('memory://knowledge-graph');
    expect(afterCrash).toContain('everything+demo://resource/static/document/architecture.md');
    const gone = await wireError(client.readResource({ uri: 'memory://knowledge-graph' }));
    expect(gone.message).toContain('memory://knowledge-graph');

    const before = promptChanges.entries.length;
    await connection.removeServer('again');
    await promptChanges.atLeast(before + 1, { timeoutMs: 30_000 });
    const prompts = (await client.listPrompts()).prompts.map((prompt) => prompt.name);
    expect(prompts).toContain('mcp__everything__simple-prompt');
    expect(prompts.some((name) => name.startsWith('mcp__again__'))).toBe(false);
    // With one everything server left, its URIs are no longer ambiguous: they are served as is.
    const uris = (await client.listResources()).resources.map((resource) => resource.uri);
    expect(uris).toContain('demo://resource/static/document/architecture.md');
    const read = await client.readResource({ uri: 'demo://resource/static/document/architecture.md' });
    expect(textOf(read).length).toBeGreaterThan(0);
    const prompt = await client.getPrompt({ name: 'mcp__everything__simple-prompt' });
    expect(prompt.messages.length).toBeGreaterThan(0);
  }, 120_000);

  test('subscriptions are forwarded to an upstream that supports them', async () => {
    const { client } = await startGateway({ config: { mcpServers: { memory } } });
    await expect(client.subscribeResource({ uri: 'memory://knowledge-graph' })).resolves.toEqual({});
    await expect(client.unsubscribeResource({ uri: 'memory://knowledge-graph' })).resolves.toEqual({});
    const unknown = await wireError(client.subscribeResource({ uri: 'nowhere://nothing' }));
    expect(unknown.code).toBe(-32602);
  }, 60_000);

  test('upstream resources/updated and list_changed reach the sessions of two gateways over one set', async () => {
    const first = await startGateway({ config: { mcpServers: { everything } }, allowApprovalTools: true });
    const second = await startGateway({ clients: first.gateway.clients, allowApprovalTools: true });
    const document = 'demo://resource/static/document/architecture.md';
    const sessions = ['first', 'second'] as const;
    const updated = sessions.map((name) =>
      createEventLog<string>(`resources/updated on the ${name} session`),
    );
    const listChanges = sessions.map((name) =>
      createEventLog<unknown>(`resources/list_changed on the ${name} session`),
    );
    [first.client, second.client].forEach((client, index) => {
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
        updated[index]?.push(notification.params.uri);
      });
      client.setNotificationHandler(ResourceListChangedNotificationSchema, (notification) =>
        listChanges[index]?.push(notification),
      );
    });
    await first.client.subscribeResource({ uri: document });
    await second.client.subscribeResource({ uri: document });
    await first.client.callTool({ name: 'mcp__everything__toggle-subscriber-updates', arguments: {} });
    await Promise.all(updated.map((log) => log.atLeast(1, { timeoutMs: 30_000 })));
    expect(updated[0]?.entries[0]).toBe(document);
    await first.client.callTool({ name: 'mcp__everything__toggle-subscriber-updates', arguments: {} });

    // The upstream registers a session resource and announces it with list_changed.
    const before = listChanges.map((log) => log.entries.length);
    const made = await first.client.callTool({
      name: 'mcp__everything__gzip-file-as-resource',
      arguments: { name: 'hello.txt.gz', data: 'data:text/plain;base64,aGVsbG8=' },
    });
    expect(made.isError).not.toBe(true);
    await Promise.all(
      listChanges.map((log, index) => log.atLeast((before[index] ?? 0) + 1, { timeoutMs: 30_000 })),
    );
    const names = (await second.client.listResources()).resources.map((resource) => resource.name);
    expect(names).toContain('hello.txt.gz');
  }, 90_000);

  test('resources: false and prompts: false serve tools only', async () => {
    const { client } = await startGateway({
      config: { mcpServers: { everything } },
      resources: false,
      prompts: false,
    });
    expect(client.getServerCapabilities()?.resources).toBeUndefined();
    expect(client.getServerCapabilities()?.prompts).toBeUndefined();
    const raw = await wireError(client.listResources());
    expect(raw.code).toBe(-32601);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  }, 60_000);

  test('stateless HTTP and a directly connected transport serve them too', async () => {
    const { client, gateway } = await startGateway({ config: { mcpServers: { everything } } }, false);
    const read = await client.readResource({ uri: 'demo://resource/dynamic/text/3' });
    expect(textOf(read)).toContain('3');
    // `connect` (what stdio serving uses) attaches resources and prompts like HTTP sessions.
    await using direct = await connectInMemory(gateway, { name: 'direct' });
    const result = await direct.client.getPrompt({ name: 'mcp__everything__simple-prompt' });
    expect(result.messages.length).toBeGreaterThan(0);
  }, 60_000);

  test('a custom client set without per-server clients serves empty resource and prompt lists', async () => {
    // A plain registry stands in for the connectMcp set (a neighbour, not the thing under test).
    const clients = { registry: createToolRegistry(), status: () => ({}), metrics: () => ({}) };
    const { client } = await startGateway({ clients });
    expect((await client.listResources()).resources).toEqual([]);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([]);
    expect((await client.listPrompts()).prompts).toEqual([]);
  }, 30_000);
});
