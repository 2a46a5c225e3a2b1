import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { createToolRegistry } from '@switchboard/core';
import { connectInMemory, createEventLog } from '@switchboard/test-helpers';
import { afterEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { createMcpServer, defineTool, type McpServer } from '../src/index.js';

const add = defineTool({
  name: 'add',
  description: 'Adds two numbers',
  input: z.object({ a: z.number(), b: z.number() }),
  output: z.object({ sum: z.number() }),
  annotations: { readOnlyHint: true },
  execute: ({ a, b }) => ({ sum: a + b }),
});
const fail = defineTool({
  name: 'fail',
  description: 'Always throws',
  execute: () => {
    throw new Error('disk is full');
  },
});

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

async function connect(server: McpServer, capabilities = {}): Promise<Client> {
  const { client, close } = await connectInMemory(server, { capabilities });
  cleanups.push(close);
  cleanups.push(() => server.close());
  return client;
}

describe('createMcpServer', () => {
  test('lists tools with JSON Schema from zod and runs them with structured output', async () => {
    const client = await connect(createMcpServer({ name: 't', version: '1.0.0', tools: [add] }));
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['add']);
    expect(tools[0]?.inputSchema.properties).toMatchObject({ a: { type: 'number' }, b: { type: 'number' } });
    expect(tools[0]?.annotations?.readOnlyHint).toBe(true);
    const result = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ sum: 5 });
  });

  test('invalid arguments give an isError result naming the tool and the problem', async () => {
    const client = await connect(createMcpServer({ name: 't', version: '1.0.0', tools: [add] }));
    const result = await client.callTool({ name: 'add', arguments: { a: 'two', b: 3 } });
    expect(result.isError).toBe(true);
    const text = (result.content as Array<{ text: string }>)[0]?.text ?? '';
    expect(text).toContain('add');
    expect(text).toMatch(/number/);
  });

  test('a throwing tool gives isError with its message and no stack trace', async () => {
    const client = await connect(createMcpServer({ name: 't', version: '1.0.0', tools: [fail] }));
    const result = await client.callTool({ name: 'fail', arguments: {} });
    expect(result.isError).toBe(true);
    const text = (result.content as Array<{ text: string }>)[0]?.text ?? '';
    expect(text).toBe('disk is full');
    expect(text).not.toContain('at ');
  });

  test('debug mode puts the stack trace into the error result', async () => {
    const client = await connect(
      createMcpServer({ name: 't', version: '1.0.0', tools: [fail], debug: true }),
    );
    const result = await client.callTool({ name: 'fail', arguments: {} });
    expect((result.content as Array<{ text: string }>)[0]?.text).toContain('disk is full\n    at ');
  });

  test('an unknown tool is a JSON-RPC error (-32602) listing the available tools', async () => {
    const client = await connect(createMcpServer({ name: 't', version: '1.0.0', tools: [add] }));
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('Available tools: add'),
    });
  });

  test('tools added and removed at run time send tools/list_changed', async () => {
    const registry = createToolRegistry();
    const server = createMcpServer({ name: 't', version: '1.0.0', registry });
    const client = await connect(server);
    const changes = createEventLog<unknown>('tools/list_changed notifications');
    client.setNotificationHandler(ToolListChangedNotificationSchema, changes.push);
    server.addTool(add);
    expect(await changes.atLeast(1)).toHaveLength(1);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['add']);
    registry.register({
      server: 'remote',
      name: 'echo',
      description: 'Echoes',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
      execute: async (args) => `echo: ${String(args.text)}`,
    });
    expect(await changes.atLeast(2)).toHaveLength(2);
    const names = (await client.listTools()).tools.map((tool) => tool.name).sort();
    expect(names).toEqual(['add', 'mcp__remote__echo']);
    const result = await client.callTool({ name: 'mcp__remote__echo', arguments: { text: 'hi' } });
    expect(result.content).toEqual([{ type: 'text', text: 'echo: hi' }]);
    expect(server.removeTool('add')).toBe(true);
    expect(await changes.atLeast(3)).toHaveLength(3);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['mcp__remote__echo']);
  });

  test('approval: tools that need a person are hidden unless allowed, and never advertised read-only', async () => {
    const registry = createToolRegistry();
    registry.register({
      server: 'fs',
      name: 'read',
      description: 'reads',
      inputSchema: { type: 'object' },
      annotations: { readOnlyHint: true },
      execute: async () => 'ok',
    });
    registry.register({
      server: 'fs',
      name: 'delete',
      description: 'deletes',
      inputSchema: { type: 'object' },
      annotations: { readOnlyHint: true, destructiveHint: true, title: 'misleading' },
      execute: async () => 'gone',
    });
    registry.register({
      server: 'fs',
      name: 'write',
      description: 'writes',
      inputSchema: { type: 'object' },
    });
    const hidden = await connect(createMcpServer({ name: 't', version: '1', registry, approval: 'always' }));
    expect((await hidden.listTools()).tools).toEqual([]);
    await expect(hidden.callTool({ name: 'mcp__fs__write', arguments: {} })).rejects.toMatchObject({
      code: -32602,
    });

    const defaultPolicy = await connect(
      createMcpServer({ name: 't', version: '1', registry, approval: 'annotations' }),
    );
    expect((await defaultPolicy.listTools()).tools.map((tool) => tool.name).sort()).toEqual([
      'mcp__fs__delete',
      'mcp__fs__read',
    ]);

    const allowed = await connect(
      createMcpServer({ name: 't', version: '1', registry, approval: 'always', allowApprovalTools: true }),
    );
    const tools = (await allowed.listTools()).tools;
    expect(tools).toHaveLength(3);
    for (const tool of tools) expect(tool.annotations?.readOnlyHint).not.toBe(true);
  });

  test('resources, templates, prompts and completion', async () => {
    const server = createMcpServer({
      name: 't',
      version: '1',
      resources: [{ uri: 'mem://a', name: 'a', mimeType: 'text/plain', read: () => 'A' }],
      resourceTemplates: [
        {
          uriTemplate: 'mem://items/{id}',
          name: 'item',
          read: (_uri, { id }) => `item ${String(id)}`,
          complete: { id: (value) => ['1', '12', '2'].filter((id) => id.startsWith(value)) },
        },
      ],
      prompts: [
        {
          name: 'greet',
          description: 'Greets',
          arguments: [{ name: 'who', required: true }],
          get: ({ who }) => `Hello ${who}`,
          complete: { who: (value) => ['world', 'wally'].filter((name) => name.startsWith(value)) },
        },
      ],
    });
    const client = await connect(server);
    expect((await client.listResources()).resources).toEqual([
      { uri: 'mem://a', name: 'a', mimeType: 'text/plain' },
    ]);
    expect((await client.readResource({ uri: 'mem://a' })).contents[0]).toMatchObject({ text: 'A' });
    expect((await client.readResource({ uri: 'mem://items/7' })).contents[0]).toMatchObject({
      text: 'item 7',
    });
    await expect(client.readResource({ uri: 'mem://missing' })).rejects.toMatchObject({ code: -32602 });
    const prompt = await client.getPrompt({ name: 'greet', arguments: { who: 'Ada' } });
    expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'Hello Ada' });
    await expect(client.getPrompt({ name: 'greet', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    const completion = await client.complete({
      ref: { type: 'ref/prompt', name: 'greet' },
      argument: { name: 'who', value: 'w' },
    });
    expect(completion.completion.values).toEqual(['world', 'wally']);
    const templateCompletion = await client.complete({
      ref: { type: 'ref/resource', uri: 'mem://items/{id}' },
      argument: { name: 'id', value: '1' },
    });
    expect(templateCompletion.completion.values).toEqual(['1', '12']);
  });

  test('progress and log messages reach the client; the log level filters', async () => {
    const server = createMcpServer({
      name: 't',
      version: '1',
      tools: [
        defineTool({
          name: 'work',
          description: 'works',
          execute: async (_args, { progress, log }) => {
            await log('debug', 'noisy');
            await log('warning', 'careful');
            await progress(1, 2, 'half');
            await progress(2, 2);
            return 'done';
          },
        }),
      ],
    });
    const client = await connect(server);
    const logs = createEventLog<unknown>('log messages');
    const { LoggingMessageNotificationSchema } = await import('@modelcontextprotocol/sdk/types.js');
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      logs.push(notification.params.data);
    });
    await client.setLoggingLevel('info');
    const progress: number[] = [];
    const result = await client.callTool({ name: 'work', arguments: {} }, undefined, {
      onprogress: (update) => progress.push(update.progress),
    });
    expect(result.content).toEqual([{ type: 'text', text: 'done' }]);
    expect(progress).toEqual([1, 2]);
    // 'noisy' (debug, under the level) would have come before 'careful': one message is all.
    expect(await logs.atLeast(1)).toEqual(['careful']);
  });

  test('server.log reaches every session, filtered by the level each client set', async () => {
    const server = createMcpServer({ name: 't', version: '1' });
    const { LoggingMessageNotificationSchema } = await import('@modelcontextprotocol/sdk/types.js');
    const verbose = await connect(server);
    const quiet = await connect(server);
    const seen = {
      verbose: createEventLog<unknown>('log messages of the verbose client'),
      quiet: createEventLog<unknown>('log messages of the quiet client'),
    };
    verbose.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      seen.verbose.push(n.params.data);
    });
    quiet.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      seen.quiet.push(n.params.data);
    });
    await quiet.setLoggingLevel('error');
    await server.log('info', 'started');
    await server.log('critical', 'on fire');
    expect(await seen.verbose.atLeast(2)).toEqual(['started', 'on fire']);
    // In order on one connection: a wrongly sent 'started' would have come before 'on fire'.
    expect(await seen.quiet.atLeast(1)).toEqual(['on fire']);
  });

  test('cancelling a call aborts the tool through its signal', async () => {
    const runs = createEventLog<'started' | 'aborted'>('runs of the slow tool');
    const server = createMcpServer({
      name: 't',
      version: '1',
      tools: [
        defineTool({
          name: 'slow',
          description: 'waits for cancellation',
          execute: (_args, { signal }) =>
            new Promise((resolve) => {
              signal.addEventListener('abort', () => {
                runs.push('aborted');
                resolve('stopped');
              });
              runs.push('started');
            }),
        }),
      ],
    });
    const client = await connect(server);
    const controller = new AbortController();
    const call = client.callTool({ name: 'slow', arguments: {} }, undefined, { signal: controller.signal });
    await runs.find((run) => run === 'started');
    controller.abort('user');
    await expect(call).rejects.toThrow();
    await runs.find((run) => run === 'aborted', { what: "the tool's signal to abort" });
  });

  test('defineTool rejects bad names and non-object inputs with clear errors', () => {
    expect(() => defineTool({ name: 'bad name!', description: '', execute: () => 1 })).toThrow(
      /not a valid MCP tool name/,
    );
    expect(() =>
      defineTool({ name: 'x', description: '', input: z.string() as never, execute: () => 1 }),
    ).toThrow(/must describe an object/);
  });
});
