// The Agents SDK adapter under the SDK's own run loop (`run` of @openai/agents) with a scripted
// model, against real MCP servers: results reach the run's history and the next model turn,
// images arrive as image inputs, approvals interrupt the run, an abort cancels the MCP call.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, run, setTracingDisabled } from '@openai/agents';
import type { RegisteredTool } from '@switchboard/core';
import {
  createTemporaryDirectories,
  everythingStdio,
  filesystemStdio,
  memoryStdio,
} from '@switchboard/test-helpers';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, type McpConnection } from '../../src/index.js';
import {
  toOpenAIAgentsInput,
  toOpenAIAgentsMcpServer,
  toOpenAIAgentsTools,
  withOpenAIAgentsToolSelection,
} from '../../src/openai-agents/index.js';
// @ts-expect-error a JavaScript fixture (also run as a stdio server)
import { slowCalls } from '../fixtures/sdk-v2-server.mjs';
import { startSdkV2Server } from '../helpers/http-mcp-server.js';
import { createScriptedModel, toolOutputsOf } from './scripted-model.js';

beforeAll(() => setTracingDisabled(true));

describe('toOpenAIAgentsTools under the Agents SDK run loop', () => {
  let everything: McpConnection;
  const open: McpConnection[] = [];
  const temporary = createTemporaryDirectories();
  beforeAll(async () => {
    everything = await connectMcp({ everything: everythingStdio() }, { approval: 'never' });
  });
  afterAll(async () => {
    await everything.close();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((connection) => connection.close()));
    temporary.removeAll();
  });
  const tempDir = () => {
    const dir = temporary.make('sb-openai-agents-');
    return dir;
  };

  it('runs a tool call on the real server, and the result is in the history and the next model input', async () => {
    const model = createScriptedModel([
      { call: 'mcp__everything__echo', args: { message: 'hello agents' } },
      { text: 'echoed' },
    ]);
    const agent = new Agent({ name: 'echoer', model, tools: toOpenAIAgentsTools(everything) });
    const result = await run(agent, 'say hello');
    expect(result.finalOutput).toBe('echoed');
    const outputs = result.newItems.filter((item) => item.type === 'tool_call_output_item');
    expect(outputs).toHaveLength(1);
    expect(String(outputs[0]?.output)).toContain('hello agents');
    // The second model turn got the function call's output.
    const [second] = model.requests.slice(1);
    expect(JSON.stringify(toolOutputsOf(second!))).toContain('Echo: hello agents');
    // The tools the model was offered keep the server's JSON Schema, non-strict.
    const offered = model.requests[0]!.tools.find((tool) => tool.name === 'mcp__everything__echo');
    expect(offered).toMatchObject({ type: 'function', strict: false });
    expect(JSON.stringify(offered)).toContain('Message to echo');
  });

  it('hands an image result to the next model turn as an image input', async () => {
    const model = createScriptedModel([
      { call: 'mcp__everything__get_tiny_image' },
      { text: 'a tiny image' },
    ]);
    const agent = new Agent({ name: 'viewer', model, tools: toOpenAIAgentsTools(everything) });
    await run(agent, 'show me the image');
    const [output] = toolOutputsOf(model.requests[1]!);
    const parts = output!.output as Array<{ type: string; image?: string; text?: string }>;
    expect(Array.isArray(parts)).toBe(true);
    const image = parts.find((part) => part.type === 'input_image');
    expect(image?.image).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
    // Base64 as text would cost thousands of tokens: it must not be in the text parts.
    const texts = parts.filter((part) => part.type === 'input_text').map((part) => part.text ?? '');
    expect(texts.join('')).not.toContain(image!.image!.slice(30, 80));
  });

  it('gives the model the text of an isError result', async () => {
    const dir = tempDir();
    const files = await connectMcp({ files: filesystemStdio(dir) }, { approval: 'never' });
    open.push(files);
    const model = createScriptedModel([
      { call: 'mcp__files__read_text_file', args: { path: join(dir, 'missing.txt') } },
      { text: 'no such file' },
    ]);
    const agent = new Agent({ name: 'reader', model, tools: toOpenAIAgentsTools(files) });
    await run(agent, 'read missing.txt');
    const [output] = toolOutputsOf(model.requests[1]!);
    expect(JSON.stringify(output)).toMatch(/ENOENT|no such file|not found/i);
  });

  it('interrupts for an approval, runs the call only after state.approve, never after reject', async () => {
    const dir = tempDir();
    const memoryFile = join(dir, 'memory.jsonl');
    const memory = await connectMcp(
      { memory: memoryStdio(memoryFile) },
      { approval: { mode: 'always', allow: ['read_graph'] } },
    );
    open.push(memory);
    const create = (name: string) => ({
      call: 'mcp__memory__create_entities',
      args: { entities: [{ name, entityType: 'person', observations: ['met in a test'] }] },
    });
    const stored = () => {
      try {
        return readFileSync(memoryFile, 'utf8');
      } catch {
        return '';
      }
    };

    // Approved: the run stops, nothing ran; after approve it runs with `approved: true`.
    const model = createScriptedModel([create('Ada'), { text: 'stored Ada' }]);
    const agent = new Agent({ name: 'memory', model, tools: toOpenAIAgentsTools(memory) });
    const first = await run(agent, 'remember Ada');
    expect(first.interruptions).toHaveLength(1);
    expect(first.interruptions[0]?.name).toBe('mcp__memory__create_entities');
    expect(stored()).not.toContain('Ada');
    first.state.approve(first.interruptions[0]!);
    const resumed = await run(agent, first.state);
    expect(resumed.interruptions).toHaveLength(0);
    expect(resumed.finalOutput).toBe('stored Ada');
    expect(stored()).toContain('Ada');

    // Rejected: the tool never runs and the model gets the SDK's rejection.
    const rejecting = createScriptedModel([create('Grace'), { text: 'not stored' }]);
    const agent2 = new Agent({ name: 'memory2', model: rejecting, tools: toOpenAIAgentsTools(memory) });
    const asked = await run(agent2, 'remember Grace');
    expect(asked.interruptions).toHaveLength(1);
    asked.state.reject(asked.interruptions[0]!);
    const after = await run(agent2, asked.state);
    expect(after.finalOutput).toBe('not stored');
    expect(stored()).not.toContain('Grace');
    expect(JSON.stringify(toolOutputsOf(rejecting.requests[1]!))).toContain('not approved');

    // Approval left to the client: without an approve callback the call is refused, and the model reads why.
    const clientSide = createScriptedModel([create('Linus'), { text: 'refused' }]);
    const agent3 = new Agent({
      name: 'memory3',
      model: clientSide,
      tools: toOpenAIAgentsTools(memory, { approvals: 'client' }),
    });
    const refused = await run(agent3, 'remember Linus');
    expect(refused.interruptions).toHaveLength(0);
    expect(JSON.stringify(toolOutputsOf(clientSide.requests[1]!))).toMatch(/approv/i);
    expect(stored()).not.toContain('Linus');
  });

  it('an abort of the run cancels the MCP call: the server sees notifications/cancelled', async () => {
    const server = await startSdkV2Server();
    const connection = await connectMcp({ modern: { url: server.url } }, { approval: 'never' });
    open.push(connection);
    const before = {
      started: slowCalls.started.entries.length,
      cancelled: slowCalls.cancelled.entries.length,
    };
    const model = createScriptedModel([
      { call: 'mcp__modern__slow', args: { steps: 500 } },
      { text: 'never' },
    ]);
    const agent = new Agent({ name: 'slow', model, tools: toOpenAIAgentsTools(connection) });
    const abort = new AbortController();
    const running = run(agent, 'go slow', { signal: abort.signal });
    await slowCalls.started.atLeast(before.started + 1, { what: 'the slow call to start' });
    abort.abort();
    await expect(running).rejects.toThrow();
    await slowCalls.cancelled.atLeast(before.cancelled + 1, { what: 'the server to see the cancellation' });
    expect(model.requests).toHaveLength(1);
    await server.close();
  });

  it('offers per run only the tools selected for the latest user input (isEnabled)', async () => {
    // A keyword selector: the neighbour of the adapter, as tool selection would be.
    const selector = {
      async select(query: string) {
        const words = query.toLowerCase().split(/\W+/).filter(Boolean);
        return Object.values(everything.tools)
          .filter((tool: RegisteredTool) => words.some((word) => tool.name.toLowerCase().includes(word)))
          .map((tool) => ({ tool }));
      },
    };
    const model = createScriptedModel([
      { text: 'first' },
      { call: 'mcp__everything__get_sum', args: { a: 2, b: 3 } },
      { text: 'five' },
    ]);
    const agent = withOpenAIAgentsToolSelection(
      new Agent({
        name: 'selective',
        model,
        tools: toOpenAIAgentsTools(everything, { select: { selector } }),
      }),
    );
    await run(agent, 'please echo this');
    expect(model.requests[0]!.tools.map((tool) => tool.name)).toEqual(['mcp__everything__echo']);
    const result = await run(agent, 'what is the sum of 2 and 3');
    expect(model.requests[1]!.tools.map((tool) => tool.name)).toEqual(['mcp__everything__get_sum']);
    // The turn after the tool call keeps the selection of the same user input.
    expect(model.requests[2]!.tools.map((tool) => tool.name)).toEqual(['mcp__everything__get_sum']);
    expect(JSON.stringify(toolOutputsOf(model.requests[2]!))).toContain('5');
    expect(result.finalOutput).toBe('five');

    // Without the wrapper there is no input to select from: the run fails with a clear error.
    const unwrapped = new Agent({
      name: 'unwrapped',
      model: createScriptedModel([]),
      tools: toOpenAIAgentsTools(everything, { select: { selector } }),
    });
    await expect(run(unwrapped, 'echo')).rejects.toThrow(/withOpenAIAgentsToolSelection/);
  });

  it('Agent({ mcpServers }) runs tools of many servers end to end, namespaced', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'note.txt'), 'a note for the agent');
    const connection = await connectMcp(
      {
        everything: everythingStdio(),
        files: filesystemStdio(dir),
      },
      { approval: 'never' },
    );
    open.push(connection);
    const model = createScriptedModel([
      {
        calls: [
          { name: 'mcp__files__read_text_file', args: { path: join(dir, 'note.txt') } },
          { name: 'mcp__everything__get_tiny_image' },
        ],
      },
      { text: 'read it' },
    ]);
    const server = toOpenAIAgentsMcpServer(connection);
    const agent = new Agent({ name: 'mcp', model, mcpServers: [server] });
    const result = await run(agent, 'read the note');
    expect(result.finalOutput).toBe('read it');
    const names = model.requests[0]!.tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['mcp__files__read_text_file', 'mcp__everything__echo']));
    const outputs = toolOutputsOf(model.requests[1]!);
    expect(JSON.stringify(outputs[0])).toContain('a note for the agent');
    expect(JSON.stringify(outputs[1])).toMatch(/"input_image".*data:image\/png;base64,/);
  });

  it('the MCP server offers per run only the tools selected for the latest user input (toolFilter)', async () => {
    const queries: string[] = [];
    // A keyword selector: the neighbour of the adapter, as tool selection would be.
    const selector = {
      async select(query: string) {
        queries.push(query);
        const words = query
          .toLowerCase()
          .split(/\W+/)
          .filter((word) => word.length > 2);
        return Object.values(everything.tools)
          .filter((tool: RegisteredTool) => words.some((word) => tool.originalName.includes(word)))
          .map((tool) => ({ tool }));
      },
    };
    const model = createScriptedModel([
      { call: 'mcp__everything__get_sum', args: { a: 20, b: 22 } },
      { text: 'forty-two' },
    ]);
    const server = toOpenAIAgentsMcpServer(everything, { select: { selector } });
    const agent = withOpenAIAgentsToolSelection(
      new Agent({ name: 'mcp-selective', model, mcpServers: [server] }),
    );
    const result = await run(agent, 'what is the sum of 20 and 22');
    expect(result.finalOutput).toBe('forty-two');
    // Of the server's many tools, the model saw only the one the request names, on both turns.
    expect(model.requests[0]!.tools.map((tool) => tool.name)).toEqual(['mcp__everything__get_sum']);
    expect(model.requests[1]!.tools.map((tool) => tool.name)).toEqual(['mcp__everything__get_sum']);
    expect((await server.listTools()).length).toBeGreaterThan(10);
    expect(JSON.stringify(toolOutputsOf(model.requests[1]!))).toContain('42');
    expect(new Set(queries)).toEqual(new Set(['what is the sum of 20 and 22']));
  });

  it('starts a run from an MCP prompt (toOpenAIAgentsInput)', async () => {
    const client = everything.client('everything')!;
    const prompt = await client.getPrompt('args-prompt', { city: 'Lisbon', state: 'Lisboa' });
    const input = toOpenAIAgentsInput(prompt);
    expect(input[0]).toMatchObject({ role: 'user', content: [{ type: 'input_text' }] });
    const model = createScriptedModel([{ text: 'sunny' }]);
    const result = await run(new Agent({ name: 'prompted', model }), input);
    expect(result.finalOutput).toBe('sunny');
    expect(JSON.stringify(model.requests[0]!.input)).toContain('Lisbon');
  });
});
