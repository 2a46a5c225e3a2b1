// The AI SDK adapter in the AI SDK's own loop (`generateText` with `stopWhen`), a scripted model
// as the only stand-in, and real MCP servers behind the tools: results, images, errors,
// approval through tool-approval-request/response, cancellation, per-step selection.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createToolRegistry, type RegisteredTool } from '@switchboard/core';
import { everythingStdio, filesystemStdio, memoryStdio } from '@switchboard/test-helpers';
import { generateText, type ModelMessage, stepCountIs, streamText } from 'ai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAISDKPrepareStep, toAISDKTools } from '../../src/ai-sdk/index.js';
import { connectMcp, type McpConnection } from '../../src/index.js';
// @ts-expect-error a JavaScript fixture (also run as a stdio server)
import { slowCalls } from '../fixtures/sdk-v2-server.mjs';
import { startSdkV2Server } from '../helpers/http-mcp-server.js';
import { offeredTools, scriptedModel, toolResultsIn } from './scripted-model.js';

let everything: McpConnection;
const cleanups: Array<() => Promise<unknown> | unknown> = [];
beforeAll(async () => {
  everything = await connectMcp({ everything: everythingStdio() }, { approval: 'never' });
});
afterAll(async () => {
  await everything?.close();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const echo = 'mcp__everything__echo';
const tinyImage = 'mcp__everything__get-tiny-image';

describe('toAISDKTools in generateText', () => {
  it('runs the MCP tool and hands its result to the model on the next step', async () => {
    const model = scriptedModel([
      { toolCalls: [{ name: echo, input: { message: 'hello' } }] },
      { text: 'It said hello.' },
    ]);
    const result = await generateText({
      model,
      tools: toAISDKTools(everything),
      stopWhen: stepCountIs(3),
      prompt: 'Echo hello',
    });
    expect(result.text).toBe('It said hello.');
    expect(result.steps).toHaveLength(2);
    expect(result.steps[0]?.toolResults[0]).toMatchObject({
      toolName: echo,
      dynamic: true,
      output: { isError: false, text: 'Echo: hello' },
    });
    // The model got the text as a text output, and the tools as JSON Schema functions.
    expect(toolResultsIn(model.doGenerateCalls[1])).toEqual([
      expect.objectContaining({ toolName: echo, output: { type: 'text', value: 'Echo: hello' } }),
    ]);
    expect(model.doGenerateCalls[0]?.tools?.find((tool) => tool.name === echo)).toMatchObject({
      type: 'function',
      inputSchema: { type: 'object', properties: { message: { type: 'string' } } },
    });
    // The tool-result lands in the response messages the application keeps.
    const toolMessage = result.response.messages.find((message) => message.role === 'tool');
    expect(toolMessage?.content).toEqual([
      expect.objectContaining({ type: 'tool-result', output: { type: 'text', value: 'Echo: hello' } }),
    ]);
  });

  it('gives the model an image result as an image part', async () => {
    const raw = (await everything.tools[tinyImage]?.execute?.({}, { rawResult: true })) as {
      content: Array<{ type: string; data?: string }>;
    };
    const data = raw.content.find((item) => item.type === 'image')?.data;
    const model = scriptedModel([{ toolCalls: [{ name: tinyImage, input: {} }] }, { text: 'A tiny image.' }]);
    await generateText({
      model,
      tools: toAISDKTools(everything),
      stopWhen: stepCountIs(3),
      prompt: 'Show me',
    });
    const [result] = toolResultsIn(model.doGenerateCalls[1]);
    expect(result?.output).toEqual({
      type: 'content',
      value: [
        { type: 'text', text: expect.stringContaining("Here's the image you requested") },
        { type: 'image-data', data, mediaType: 'image/png' },
      ],
    });
  });

  it('puts media the model does not take, or over budget, as a text stand-in', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: tinyImage, input: {} }] }]);
    await generateText({
      model,
      tools: toAISDKTools(everything, { content: { maxMediaBytes: 64 } }),
      stopWhen: stepCountIs(2),
      prompt: 'Show me',
    });
    const [result] = toolResultsIn(model.doGenerateCalls[1]);
    expect(result?.output).toEqual({
      type: 'text',
      value: expect.stringContaining('not shown: over the 64 B budget of media per tool result'),
    });
  });

  it('sends an error result and a failed call to the model as error text, and the loop goes on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-aisdk-fs-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const files = await connectMcp({ files: filesystemStdio(dir) }, { approval: 'never' });
    cleanups.push(() => files.close());
    const model = scriptedModel([
      {
        toolCalls: [
          // Outside the allowed directory: the server answers with an isError result.
          { name: 'mcp__files__read_text_file', input: { path: '/etc/hostname' } },
          // Missing `message`: the client refuses the call before it reaches the server.
          { name: echo, input: {} },
        ],
      },
      { text: 'Both failed.' },
    ]);
    const result = await generateText({
      model,
      tools: { ...toAISDKTools(files), ...toAISDKTools(everything) },
      stopWhen: stepCountIs(3),
      prompt: 'Read it',
    });
    expect(result.text).toBe('Both failed.');
    const outputs = toolResultsIn(model.doGenerateCalls[1]).map((part) => part.output);
    expect(outputs).toEqual([
      { type: 'error-text', value: expect.stringMatching(/access denied|outside allowed/i) },
      { type: 'error-text', value: expect.stringContaining('message') },
    ]);
    expect(result.steps[0]?.content.filter((part) => part.type === 'tool-error')).toHaveLength(1);
  });
});

describe('approval through the AI SDK', () => {
  let dir: string;
  let memory: McpConnection;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sb-aisdk-memory-'));
    writeFileSync(join(dir, 'memory.jsonl'), '');
    // The default policy ('annotations') and no `approve` callback: server-memory's delete tools
    // (destructiveHint: true) need approval, and only the AI SDK's approval path can give it.
    memory = await connectMcp({ memory: memoryStdio(join(dir, 'memory.jsonl')) });
  });
  afterAll(async () => {
    await memory?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const deleteEntities = 'mcp__memory__delete_entities';
  const stored = () => readFileSync(join(dir, 'memory.jsonl'), 'utf8');
  const needs = (tool: unknown) =>
    (tool as { needsApproval: (input: unknown, options: unknown) => boolean }).needsApproval(
      {},
      { toolCallId: 'c', messages: [] },
    );

  /** Stores an entity (create_entities is not destructive: it runs without asking). */
  async function remember(name: string) {
    await memory.tools.mcp__memory__create_entities?.execute?.({
      entities: [{ name, entityType: 'test', observations: ['made by a test'] }],
    });
    expect(stored()).toContain(`"${name}"`);
  }

  /** Runs a turn up to the approval request, then answers it in a second generateText. */
  async function turnWithAnswer(name: string, approved: boolean) {
    await remember(name);
    const model = scriptedModel([
      { toolCalls: [{ name: deleteEntities, input: { entityNames: [name] } }] },
      { text: 'Finished.' },
    ]);
    const tools = toAISDKTools(memory);
    const messages: ModelMessage[] = [{ role: 'user', content: `Forget ${name}` }];
    const first = await generateText({ model, tools, stopWhen: stepCountIs(3), messages });
    const request = first.content.find((part) => part.type === 'tool-approval-request');
    expect(request).toMatchObject({ type: 'tool-approval-request', toolCall: { toolName: deleteEntities } });
    // The loop stopped before running the tool.
    expect(first.steps).toHaveLength(1);
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(stored()).toContain(`"${name}"`);

    messages.push(...first.response.messages, {
      role: 'tool',
      content: [{ type: 'tool-approval-response', approvalId: request?.approvalId ?? '', approved }],
    });
    const second = await generateText({ model, tools, stopWhen: stepCountIs(3), messages });
    return { model, second };
  }

  it('asks first, and runs the tool only after a person approves', async () => {
    const { model, second } = await turnWithAnswer('Ada', true);
    expect(stored()).not.toContain('"Ada"');
    expect(second.text).toBe('Finished.');
    expect(toolResultsIn(model.doGenerateCalls[1])).toEqual([
      expect.objectContaining({
        toolName: deleteEntities,
        output: { type: 'text', value: expect.stringMatching(/deleted/i) },
      }),
    ]);
  });

  it('does not run a denied tool: the model gets execution-denied', async () => {
    const { model } = await turnWithAnswer('Grace', false);
    expect(stored()).toContain('"Grace"');
    expect(toolResultsIn(model.doGenerateCalls[1])).toEqual([
      expect.objectContaining({
        toolName: deleteEntities,
        output: expect.objectContaining({ type: 'execution-denied' }),
      }),
    ]);
  });

  it('never approves on its own: an execute without a person’s yes in the messages is refused', async () => {
    await remember('Linus');
    const tool = toAISDKTools(memory)[deleteEntities];
    await expect(
      tool?.execute?.({ entityNames: ['Linus'] }, { toolCallId: 'call-x', messages: [] }),
    ).rejects.toMatchObject({ code: 'APPROVAL_REQUIRED' });
    expect(stored()).toContain('"Linus"');
  });

  it('asks only for tools whose policy says ask, and not at all with approvals: "client"', () => {
    const tools = toAISDKTools(memory);
    expect(needs(tools[deleteEntities])).toBe(true);
    expect(needs(tools.mcp__memory__read_graph)).toBe(false);
    expect(needs(tools.mcp__memory__create_entities)).toBe(false);
    expect(needs(toAISDKTools(memory, { approvals: 'client' })[deleteEntities])).toBe(false);
  });
});

describe('cancellation', () => {
  it('aborting generateText cancels the MCP call: the server sees notifications/cancelled', async () => {
    const server = await startSdkV2Server();
    cleanups.push(() => server.close());
    const connection = await connectMcp({ v2: { url: server.url } }, { approval: 'never' });
    cleanups.push(() => connection.close());
    const started = slowCalls.started.entries.length;
    const cancelled = slowCalls.cancelled.entries.length;
    const abort = new AbortController();
    const model = scriptedModel([{ toolCalls: [{ name: 'mcp__v2__slow', input: { steps: 500 } }] }]);
    const run = generateText({
      model,
      tools: toAISDKTools(connection),
      stopWhen: stepCountIs(3),
      prompt: 'Take your time',
      abortSignal: abort.signal,
    });
    await slowCalls.started.atLeast(started + 1, { what: 'the slow call to start' });
    abort.abort();
    await expect(run).rejects.toThrow();
    await slowCalls.cancelled.atLeast(cancelled + 1, { what: 'the server to see the cancellation' });
    // The model was never called again: the turn ended with the abort.
    expect(model.doGenerateCalls).toHaveLength(1);
  });
});

describe('per-step selection with createAISDKPrepareStep', () => {
  /** A selector matching words of the query against tool names (the neighbour: a stand-in for the embedding selector). */
  const keywordSelector = {
    queries: [] as string[],
    async select(query: string) {
      this.queries.push(query);
      const words = query
        .toLowerCase()
        .split(/\W+/)
        .filter((word) => word.length > 2);
      return Object.values(everything.tools)
        .filter((tool) => words.some((word) => tool.originalName.includes(word)))
        .map((tool) => ({ tool }));
    },
  };

  /** A local `discover_tools` that "finds" get-sum (shape of tool-selection's createDiscoverToolsTool). */
  function discoverTools(): RegisteredTool {
    return createToolRegistry().register({
      server: 'switchboard',
      name: 'discover_tools',
      publicName: 'discover_tools',
      description: 'Finds tools that were not offered',
      inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
      annotations: { readOnlyHint: true },
      execute: async () => ({
        content: [{ type: 'text', text: 'Found mcp__everything__get-sum' }],
        structuredContent: {
          tools: [{ name: 'mcp__everything__get-sum', description: 'Adds', server: 'everything', score: 1 }],
        },
      }),
    });
  }

  it('offers only the selected tools and discover_tools, plus what discover_tools found', async () => {
    const source = [...Object.values(everything.tools), discoverTools()];
    const options = { select: { selector: keywordSelector, k: 4 } };
    const model = scriptedModel([
      { toolCalls: [{ name: 'discover_tools', input: { query: 'add numbers' } }] },
      { toolCalls: [{ name: 'mcp__everything__get-sum', input: { a: 2, b: 3 } }] },
      { text: '5' },
    ]);
    const result = await generateText({
      model,
      tools: toAISDKTools(source, options),
      prepareStep: createAISDKPrepareStep(source, options),
      stopWhen: stepCountIs(5),
      prompt: 'Please echo something, then add 2 and 3',
    });
    expect(result.text).toBe('5');
    // In the tool set's order: the AI SDK filters `tools` by `activeTools`.
    expect(offeredTools(model.doGenerateCalls[0])).toEqual([echo, 'discover_tools']);
    expect(offeredTools(model.doGenerateCalls[1])).toEqual([
      echo,
      'mcp__everything__get-sum',
      'discover_tools',
    ]);
    expect(offeredTools(model.doGenerateCalls[2])).toEqual([
      echo,
      'mcp__everything__get-sum',
      'discover_tools',
    ]);
    expect(result.steps[1]?.toolResults[0]).toMatchObject({ output: { text: expect.stringContaining('5') } });
    // One selection for the turn: the steps reuse it.
    expect(keywordSelector.queries).toEqual(['Please echo something, then add 2 and 3']);
  });

  it('works the same in streamText: selected tools per step, and the image reaches the model', async () => {
    const options = { select: { selector: keywordSelector, alwaysInclude: [] } };
    const model = scriptedModel([{ toolCalls: [{ name: tinyImage, input: {} }] }, { text: 'Seen.' }]);
    const stream = streamText({
      model,
      tools: toAISDKTools(everything, options),
      prepareStep: createAISDKPrepareStep(everything, options),
      stopWhen: stepCountIs(3),
      prompt: 'Show me the tiny image',
    });
    expect(await stream.text).toBe('Seen.');
    expect(offeredTools(model.doStreamCalls[0])).toEqual([tinyImage]);
    expect(toolResultsIn(model.doStreamCalls[1])[0]?.output).toMatchObject({
      type: 'content',
      value: [{ type: 'text' }, { type: 'image-data', mediaType: 'image/png' }],
    });
  });
});
