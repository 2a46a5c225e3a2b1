import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectInMemory, createEventLog } from '@switchboard/test-helpers';
import { afterEach, expect, test } from 'vitest';
import { defineTool, type McpServer, serveAgent } from '../src/index.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

async function connect(server: McpServer): Promise<Client> {
  const { client, close } = await connectInMemory(server, { name: 'agent-test' });
  cleanups.push(close);
  cleanups.push(() => server.close());
  return client;
}

test('the agent is one tool taking {message}; each call runs it afresh', async () => {
  const seen: string[] = [];
  const server = serveAgent({
    name: 'research agent',
    description: 'Researches a topic and answers',
    agent: async (message) => {
      seen.push(message);
      return `answer to: ${message}`;
    },
  });
  const client = await connect(server);
  const { tools } = await client.listTools();
  expect(tools).toHaveLength(1);
  expect(tools[0]).toMatchObject({ name: 'research_agent', description: 'Researches a topic and answers' });
  expect(tools[0]?.inputSchema.required).toEqual(['message']);
  const first = await client.callTool({
    name: 'research_agent',
    arguments: { message: 'why is the sky blue?' },
  });
  expect(first.content).toEqual([{ type: 'text', text: 'answer to: why is the sky blue?' }]);
  await client.callTool({ name: 'research_agent', arguments: { message: 'second' } });
  expect(seen).toEqual(['why is the sky blue?', 'second']);
  const invalid = await client.callTool({ name: 'research_agent', arguments: {} });
  expect(invalid.isError).toBe(true);
});

test('a failing agent gives isError with a clear message', async () => {
  const client = await connect(
    serveAgent({
      name: 'flaky',
      description: 'fails',
      agent: async () => {
        throw new Error('model quota exceeded');
      },
    }),
  );
  const result = await client.callTool({ name: 'flaky', arguments: { message: 'hi' } });
  expect(result.isError).toBe(true);
  expect((result.content as Array<{ text: string }>)[0]?.text).toBe(
    'Agent "flaky" failed: model quota exceeded',
  );
});

test('cancelling the MCP request aborts the agent run through its signal', async () => {
  const runs = createEventLog<'started' | 'aborted'>('runs of the slow agent');
  const client = await connect(
    serveAgent({
      name: 'slow',
      description: 'takes long',
      agent: (_message, { signal }) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => {
            runs.push('aborted');
            reject(new Error('aborted'));
          });
          runs.push('started');
        }),
    }),
  );
  const controller = new AbortController();
  const call = client.callTool({ name: 'slow', arguments: { message: 'go' } }, undefined, {
    signal: controller.signal,
  });
  await runs.find((run) => run === 'started');
  controller.abort();
  await expect(call).rejects.toThrow();
  await runs.find((run) => run === 'aborted', { what: "the agent's signal to abort" });
});

test('tools exposed beside the agent follow the approval policy', async () => {
  const read = defineTool({
    name: 'lookup',
    description: 'reads',
    annotations: { readOnlyHint: true },
    execute: () => 'found',
  });
  const wipe = defineTool({
    name: 'wipe',
    description: 'deletes everything',
    annotations: { destructiveHint: true },
    execute: () => 'wiped',
  });
  const agent = async () => 'ok';
  const strict = await connect(serveAgent({ name: 'a', description: 'd', agent, tools: [read, wipe] }));
  expect((await strict.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['a', 'lookup']);
  const allowed = await connect(
    serveAgent({ name: 'a', description: 'd', agent, tools: [read, wipe], allowApprovalTools: true }),
  );
  expect((await allowed.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['a', 'lookup', 'wipe']);
  expect((await allowed.callTool({ name: 'wipe', arguments: {} })).content).toEqual([
    { type: 'text', text: 'wiped' },
  ]);
  // When every tool needs approval, even a read-only one is not advertised as read-only.
  const asking = await connect(
    serveAgent({
      name: 'a',
      description: 'd',
      agent,
      tools: [read],
      approval: 'always',
      allowApprovalTools: true,
    }),
  );
  const lookup = (await asking.listTools()).tools.find((tool) => tool.name === 'lookup');
  expect(lookup?.annotations?.readOnlyHint).toBe(false);
});

test('an agent loop calling the served tools through the registry gets their results; client input is refused by code', async () => {
  const server = serveAgent({
    name: 'assistant',
    description: 'answers',
    agent: async () => 'unused',
    tools: [
      defineTool({
        name: 'shout',
        description: 'Upper-cases a text',
        input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
        execute: ({ text }: { text: string }) => text.toUpperCase(),
      }),
      defineTool({
        name: 'ask',
        description: 'Asks the client',
        input: { type: 'object', properties: {} },
        execute: async (_args, context) => {
          try {
            await context.elicit({ message: 'name?', requestedSchema: { type: 'object', properties: {} } });
            return 'asked';
          } catch (error) {
            return `refused: ${(error as { code?: string }).code}`;
          }
        },
      }),
    ],
  });
  cleanups.push(() => server.close());
  const shout = server.registry.get('shout');
  expect(await shout?.execute?.({ text: 'hi' })).toEqual({ content: [{ type: 'text', text: 'HI' }] });
  const ask = server.registry.get('ask');
  expect(await ask?.execute?.({})).toEqual({
    content: [{ type: 'text', text: 'refused: CLIENT_INPUT_UNAVAILABLE' }],
  });
});
