import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { Command, MemorySaver } from '@langchain/langgraph';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import type { RegisteredTool } from '@switchboard/core';
import { everythingStdio, filesystemStdio, memoryStdio } from '@switchboard/test-helpers';
import { afterEach, describe, expect, it } from 'vitest';
import { connectMcp, type McpConnection } from '../../src/index.js';
import {
  createLangChainToolSelection,
  type LangChainApprovalRequest,
  type LangChainToolArtifact,
  ToolException,
  toLangChainTools,
} from '../../src/langchain/index.js';
// @ts-expect-error a JavaScript fixture (also run as a stdio server)
import { slowCalls } from '../fixtures/sdk-v2-server.mjs';
import { startSdkV2Server } from '../helpers/http-mcp-server.js';
import { callTool, ScriptedChatModel } from './scripted-chat-model.js';

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function connect(...args: Parameters<typeof connectMcp>): Promise<McpConnection> {
  const connection = await connectMcp(...args);
  cleanups.push(() => connection.close());
  return connection;
}

function temporaryDirectory(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sb-langchain-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const toolMessages = (messages: BaseMessage[]) =>
  messages.filter((message): message is ToolMessage => ToolMessage.isInstance(message));

describe('toLangChainTools in LangGraph’s createReactAgent', () => {
  it('runs tool calls of the agent loop on real servers (everything, filesystem, memory) and feeds the results back', async () => {
    const dir = temporaryDirectory();
    writeFileSync(join(dir, 'notes.txt'), 'the launch is on Tuesday');
    const memoryFile = join(dir, 'memory.jsonl');
    const connection = await connect(
      {
        everything: everythingStdio(),
        files: filesystemStdio(dir),
        memory: memoryStdio(memoryFile),
      },
      { approval: 'never' },
    );
    const tools = toLangChainTools(connection);
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining([
        'mcp__everything__echo',
        'mcp__files__read_text_file',
        'mcp__memory__create_entities',
      ]),
    );
    const model = new ScriptedChatModel([
      new AIMessage({
        content: '',
        tool_calls: [
          { id: 'c1', name: 'mcp__everything__get-sum', args: { a: 2, b: 40 }, type: 'tool_call' },
          {
            id: 'c2',
            name: 'mcp__files__read_text_file',
            args: { path: join(dir, 'notes.txt') },
            type: 'tool_call',
          },
        ],
      }),
      callTool('mcp__memory__create_entities', {
        entities: [{ name: 'launch', entityType: 'event', observations: ['on Tuesday'] }],
      }),
      new AIMessage('The sum is 42 and the launch is on Tuesday.'),
    ]);
    const agent = createReactAgent({ llm: model, tools });
    const result = await agent.invoke({
      messages: [new HumanMessage('Add 2 and 40, read my notes, remember the launch.')],
    });

    const results = toolMessages(result.messages);
    expect(results.map((message) => [message.tool_call_id, message.status])).toEqual([
      ['c1', 'success'],
      ['c2', 'success'],
      ['call_mcp__memory__create_entities', 'success'],
    ]);
    expect(results[0]?.content).toContain('42');
    expect(results[1]?.content).toBe('the launch is on Tuesday');
    // The model's second turn was given both results as ToolMessages.
    const secondTurn = model.turns[1]?.messages ?? [];
    expect(toolMessages(secondTurn).map((message) => message.content)).toEqual([
      expect.stringContaining('42'),
      'the launch is on Tuesday',
    ]);
    expect(model.turns[0]?.tools).toContain('mcp__memory__create_entities');
    // The memory server really wrote the entity.
    expect(readFileSync(memoryFile, 'utf8')).toContain('"launch"');
    expect(result.messages.at(-1)?.text).toBe('The sum is 42 and the launch is on Tuesday.');
  });

  it('gives the model an image result as a standard image block, structured content in the artifact', async () => {
    const connection = await connect({ everything: everythingStdio() }, { approval: 'never' });
    const model = new ScriptedChatModel([
      callTool('mcp__everything__get-tiny-image', {}),
      callTool('mcp__everything__get-structured-content', { location: 'New York' }),
      new AIMessage('done'),
    ]);
    const agent = createReactAgent({ llm: model, tools: toLangChainTools(connection) });
    await agent.invoke({ messages: [new HumanMessage('show me the image, then the weather')] });

    const imageResult = toolMessages(model.turns[1]?.messages ?? [])[0];
    expect(Array.isArray(imageResult?.content)).toBe(true);
    const blocks = imageResult?.content as Array<Record<string, unknown>>;
    expect(blocks).toContainEqual({
      type: 'image',
      mimeType: 'image/png',
      data: expect.stringMatching(/^iVBOR/),
    });
    expect(blocks[0]).toMatchObject({ type: 'text' });
    const imageArtifact = imageResult?.artifact as LangChainToolArtifact;
    expect(imageArtifact.media).toEqual([expect.objectContaining({ type: 'image', mimeType: 'image/png' })]);

    const weather = toolMessages(model.turns[2]?.messages ?? [])[1];
    expect((weather?.artifact as LangChainToolArtifact | undefined)?.structuredContent).toMatchObject({
      temperature: expect.any(Number),
    });
  });

  it('hands an isError result to the model as an error ToolMessage with the server’s words; a direct invoke throws ToolException', async () => {
    const dir = temporaryDirectory();
    const connection = await connect({ files: filesystemStdio(dir) }, { approval: 'never' });
    const tools = toLangChainTools(connection);
    const model = new ScriptedChatModel([
      callTool('mcp__files__read_text_file', { path: '/etc/hostname' }),
      new AIMessage('I may not read that file.'),
    ]);
    const result = await createReactAgent({ llm: model, tools }).invoke({
      messages: [new HumanMessage('read /etc/hostname')],
    });
    const [refused] = toolMessages(result.messages);
    expect(refused?.status).toBe('error');
    expect(refused?.content).toMatch(/access denied|outside allowed/i);
    expect(refused?.content).not.toMatch(/Please fix your mistakes/);

    const read = tools.find((tool) => tool.name === 'mcp__files__read_text_file');
    const thrown = await read?.invoke({ path: '/etc/hostname' }).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(ToolException);
    expect((thrown as Error).message).toMatch(/access denied|outside allowed/i);
  });

  it('interrupts the graph before a tool that needs approval, and runs it only after a yes', async () => {
    const dir = temporaryDirectory();
    const memoryFile = join(dir, 'memory.jsonl');
    const connection = await connect({ memory: { ...memoryStdio(memoryFile), approval: 'always' } });
    const tools = toLangChainTools(connection);
    const script = () => [
      callTool('mcp__memory__create_entities', {
        entities: [{ name: 'secret', entityType: 'note', observations: ['x'] }],
      }),
      new AIMessage('finished'),
    ];
    const entityStored = () =>
      existsSync(memoryFile) && readFileSync(memoryFile, 'utf8').includes('"secret"');

    // Approved.
    const yesModel = new ScriptedChatModel(script());
    const yesAgent = createReactAgent({ llm: yesModel, tools, checkpointer: new MemorySaver() });
    const yesThread = { configurable: { thread_id: 'approve' } };
    const paused = await yesAgent.invoke({ messages: [new HumanMessage('store a secret')] }, yesThread);
    const interrupts = (paused as { __interrupt__?: Array<{ value: LangChainApprovalRequest }> })
      .__interrupt__;
    expect(interrupts?.[0]?.value).toMatchObject({
      type: 'tool_approval',
      toolName: 'mcp__memory__create_entities',
      server: 'memory',
      tool: 'create_entities',
      toolCallId: 'call_mcp__memory__create_entities',
    });
    expect(entityStored()).toBe(false);
    const resumed = await yesAgent.invoke(new Command({ resume: true }), yesThread);
    expect(toolMessages(resumed.messages)[0]?.status).toBe('success');
    expect(entityStored()).toBe(true);
    expect(resumed.messages.at(-1)?.text).toBe('finished');

    // Refused: on a fresh memory file, the tool never runs and the model reads the refusal.
    rmSync(memoryFile, { force: true });
    const noModel = new ScriptedChatModel(script());
    const noAgent = createReactAgent({ llm: noModel, tools, checkpointer: new MemorySaver() });
    const noThread = { configurable: { thread_id: 'refuse' } };
    await noAgent.invoke({ messages: [new HumanMessage('store a secret')] }, noThread);
    const refused = await noAgent.invoke(
      new Command({ resume: { approved: false, reason: 'not today' } }),
      noThread,
    );
    const [answer] = toolMessages(refused.messages);
    expect(answer?.status).toBe('error');
    expect(answer?.content).toContain('User rejected the tool call for `mcp__memory__create_entities`');
    expect(answer?.content).toContain('not today');
    expect(toolMessages(noModel.turns[1]?.messages ?? [])[0]?.status).toBe('error');
    expect(entityStored()).toBe(false);
  });

  it('leaves approval to the client’s approve callback outside a graph that can pause', async () => {
    const dir = temporaryDirectory();
    const asked: string[] = [];
    const connection = await connect(
      { memory: { ...memoryStdio(join(dir, 'memory.jsonl')), approval: 'always' } },
      {
        approve: (prompt) => {
          asked.push(prompt.originalName);
          return false;
        },
      },
    );
    const tools = toLangChainTools(connection);
    const create = tools.find((tool) => tool.name === 'mcp__memory__create_entities');
    await expect(create?.invoke({ entities: [] })).rejects.toMatchObject({ code: 'APPROVAL_DENIED' });
    // A graph without a checkpointer cannot pause: the callback asks there too.
    const model = new ScriptedChatModel([callTool('mcp__memory__read_graph', {}), new AIMessage('ok')]);
    const result = await createReactAgent({ llm: model, tools }).invoke({
      messages: [new HumanMessage('read')],
    });
    expect(toolMessages(result.messages)[0]?.status).toBe('error');
    expect(asked).toEqual(['create_entities', 'read_graph']);
  });

  it('cancels the MCP call when the graph’s signal aborts (the server sees the cancellation)', async () => {
    const server = await startSdkV2Server({ legacy: 'reject' });
    cleanups.push(() => server.close());
    const connection = await connect({ v2: { url: server.url } }, { approval: 'never' });
    const model = new ScriptedChatModel([callTool('mcp__v2__slow', { steps: 1000 }), new AIMessage('never')]);
    const agent = createReactAgent({ llm: model, tools: toLangChainTools(connection) });
    const before = {
      started: slowCalls.started.entries.length,
      cancelled: slowCalls.cancelled.entries.length,
    };
    const abort = new AbortController();
    const run = agent.invoke({ messages: [new HumanMessage('slow')] }, { signal: abort.signal });
    await slowCalls.started.atLeast(before.started + 1, { what: 'the slow call to start' });
    abort.abort();
    await expect(run).rejects.toThrow();
    await slowCalls.cancelled.atLeast(before.cancelled + 1, { what: 'the server to see the cancellation' });
    expect(model.turns).toHaveLength(1);
  });
});

describe('createLangChainToolSelection', () => {
  it('binds only the turn’s selected tools (plus alwaysInclude) to the model, while the tool node runs any', async () => {
    const connection = await connect({ everything: everythingStdio() }, { approval: 'never' });
    const queries: string[] = [];
    // The selector is the neighbour here: a keyword match stands in for embeddings.
    const selector = {
      async select(query: string, options?: { k?: number }) {
        queries.push(query);
        const words = query.toLowerCase().split(/\W+/);
        return Object.values(connection.tools)
          .filter((tool: RegisteredTool) => words.some((word) => word.length > 2 && tool.name.includes(word)))
          .slice(0, options?.k ?? 8)
          .map((tool) => ({ tool }));
      },
    };
    const selection = createLangChainToolSelection(connection, {
      select: { selector, k: 2, alwaysInclude: ['mcp__everything__echo'] },
    });
    expect(selection.tools().length).toBe(Object.keys(connection.tools).length);
    const model = new ScriptedChatModel([
      callTool('mcp__everything__get-sum', { a: 1, b: 2 }),
      new AIMessage('3'),
    ]);
    const agent = createReactAgent({
      llm: async (state) => model.bindTools(await selection.select(state.messages)),
      tools: selection.tools(),
    });
    const result = await agent.invoke({ messages: [new HumanMessage('what is the sum of 1 and 2?')] });
    expect(model.turns.map((turn) => turn.tools)).toEqual([
      ['mcp__everything__get-sum', 'mcp__everything__echo'],
      ['mcp__everything__get-sum', 'mcp__everything__echo'],
    ]);
    expect(queries[0]).toBe('what is the sum of 1 and 2?');
    expect(toolMessages(result.messages)[0]?.content).toContain('3');
    // The same tool objects in both lists.
    const [first] = await selection.select([new HumanMessage('sum')]);
    expect(selection.tools()).toContain(first);
  });
});
