import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '@mastra/core/agent';
import { Mastra } from '@mastra/core/mastra';
import { InMemoryStore } from '@mastra/core/storage';
import { everythingStdio, memoryStdio } from '@switchboard/test-helpers';
import { afterEach, describe, expect, it } from 'vitest';
import { toAISDKMessages } from '../../src/ai-sdk/index.js';
import { connectMcp, type McpConnection } from '../../src/index.js';
import { createMastraPrepareStep, type MastraToolOutput, toMastraTools } from '../../src/mastra/index.js';
// @ts-expect-error a JavaScript fixture (also run as a stdio server)
import { slowCalls } from '../fixtures/sdk-v2-server.mjs';
import { startSdkV2Server } from '../helpers/http-mcp-server.js';
import { createScriptedModel } from './scripted-language-model.js';

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
  const dir = mkdtempSync(join(tmpdir(), 'sb-mastra-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The tool-result parts of the prompts the model was given. */
function toolResultsIn(prompt: { prompt: Array<{ role: string; content: unknown }> } | undefined) {
  return (prompt?.prompt ?? [])
    .filter((message) => message.role === 'tool')
    .flatMap((message) => message.content as Array<{ type: string; toolName?: string; output?: unknown }>)
    .filter((part) => part.type === 'tool-result');
}

describe('toMastraTools in a Mastra Agent', () => {
  it('runs a scripted tool call on a real server and gives the result back to the model and the output', async () => {
    const connection = await connect({ everything: everythingStdio() }, { approval: 'never' });
    const { model, prompts } = createScriptedModel([
      { toolCalls: [{ name: 'mcp__everything__get-sum', args: { a: 2, b: 40 } }] },
      { text: 'It is 42.' },
    ]);
    const agent = new Agent({
      id: 'sum',
      name: 'sum',
      instructions: 'Add numbers.',
      model,
      tools: toMastraTools(connection),
    });
    const result = await agent.generate('What is 2 + 40?');
    expect(result.text).toBe('It is 42.');
    const [call] = result.toolResults;
    expect(call?.payload.toolName).toBe('mcp__everything__get-sum');
    expect((call?.payload.result as MastraToolOutput | undefined)?.text).toContain('42');
    expect(prompts[0]?.tools?.map((tool) => tool.name)).toContain('mcp__everything__get-sum');
    const [fed] = toolResultsIn(prompts[1] as never);
    expect(JSON.stringify(fed?.output)).toContain('42');
  });

  it('gives the model an image result as a media part', async () => {
    const connection = await connect({ everything: everythingStdio() }, { approval: 'never' });
    const { model, prompts } = createScriptedModel([
      { toolCalls: [{ name: 'mcp__everything__get-tiny-image', args: {} }] },
      { text: 'A tiny image.' },
    ]);
    const agent = new Agent({
      id: 'img',
      name: 'img',
      instructions: 'Show images.',
      model,
      tools: toMastraTools(connection),
    });
    await agent.generate('Show me the tiny image');
    const [fed] = toolResultsIn(prompts[1] as never);
    const output = fed?.output as { type: string; value: Array<Record<string, unknown>> };
    expect(output.type).toBe('content');
    expect(output.value).toContainEqual(
      expect.objectContaining({ mediaType: 'image/png', data: expect.stringMatching(/^iVBOR/) }),
    );
  });

  it('asks through Mastra’s requireApproval: the tool runs only after approveToolCallGenerate, not after a decline', async () => {
    const dir = temporaryDirectory();
    const memoryFile = join(dir, 'memory.jsonl');
    const connection = await connect({ memory: { ...memoryStdio(memoryFile), approval: 'always' } });
    const stored = () => {
      try {
        return readFileSync(memoryFile, 'utf8').includes('"secret"');
      } catch {
        return false;
      }
    };
    const run = async (approve: boolean) => {
      const { model } = createScriptedModel([
        {
          toolCalls: [
            {
              name: 'mcp__memory__create_entities',
              args: { entities: [{ name: 'secret', entityType: 'note', observations: ['x'] }] },
            },
          ],
        },
        { text: 'finished' },
      ]);
      // A suspended run is resumed from its snapshot, which needs Mastra's storage.
      const mastra = new Mastra({
        agents: {
          mem: new Agent({
            id: 'mem',
            name: 'mem',
            instructions: 'Remember.',
            model,
            tools: toMastraTools(connection),
          }),
        },
        storage: new InMemoryStore(),
        logger: false,
      });
      const agent = mastra.getAgent('mem');
      const paused = await agent.generate('store a secret');
      expect(paused.finishReason).toBe('suspended');
      expect(stored()).toBe(false);
      const toolCallId = (paused.suspendPayload as { toolCallId?: string } | undefined)?.toolCallId;
      return approve
        ? agent.approveToolCallGenerate({
            runId: paused.runId as string,
            ...(toolCallId ? { toolCallId } : {}),
          })
        : agent.declineToolCallGenerate({
            runId: paused.runId as string,
            ...(toolCallId ? { toolCallId } : {}),
          });
    };
    const declined = await run(false);
    expect(stored()).toBe(false);
    expect(declined.text).toBe('finished');
    const approved = await run(true);
    expect(stored()).toBe(true);
    expect(approved.text).toBe('finished');
  });

  it('cancels the MCP call when the run’s abort signal fires (the server sees the cancellation)', async () => {
    const server = await startSdkV2Server({ legacy: 'reject' });
    cleanups.push(() => server.close());
    const connection = await connect({ v2: { url: server.url } }, { approval: 'never' });
    const { model } = createScriptedModel([
      { toolCalls: [{ name: 'mcp__v2__slow', args: { steps: 1000 } }] },
      { text: 'never' },
    ]);
    const agent = new Agent({
      id: 'slow',
      name: 'slow',
      instructions: 'Wait.',
      model,
      tools: toMastraTools(connection),
    });
    const before = {
      started: slowCalls.started.entries.length,
      cancelled: slowCalls.cancelled.entries.length,
    };
    const abort = new AbortController();
    const run = agent.generate('slow', { abortSignal: abort.signal }).catch((error: unknown) => error);
    await slowCalls.started.atLeast(before.started + 1, { what: 'the slow call to start' });
    abort.abort();
    await run;
    await slowCalls.cancelled.atLeast(before.cancelled + 1, { what: 'the server to see the cancellation' });
  });

  it('offers per step only the tools selected for the latest user message (prepareStep → activeTools)', async () => {
    const dir = temporaryDirectory();
    const connection = await connect(
      { everything: everythingStdio(), memory: memoryStdio(join(dir, 'memory.jsonl')) },
      { approval: 'never' },
    );
    const queries: string[] = [];
    // The neighbour: a selector matching query words against tool names (a stand-in for the embedding selector).
    const selector = {
      async select(query: string) {
        queries.push(query);
        const words = query
          .toLowerCase()
          .split(/\W+/)
          .filter((word) => word.length > 2);
        return Object.values(connection.tools)
          .filter((tool) => words.some((word) => tool.originalName.includes(word)))
          .map((tool) => ({ tool }));
      },
    };
    const { model, prompts } = createScriptedModel([
      { toolCalls: [{ name: 'mcp__everything__get-sum', args: { a: 20, b: 22 } }] },
      { text: 'It is 42.' },
    ]);
    const agent = new Agent({
      id: 'select',
      name: 'select',
      instructions: 'Use tools.',
      model,
      tools: toMastraTools(connection),
    });
    const result = await agent.generate('Compute the sum of 20 and 22', {
      prepareStep: createMastraPrepareStep(connection, { select: { selector } }),
    });
    expect(result.text).toBe('It is 42.');
    const offered = prompts.map((prompt) => (prompt.tools ?? []).map((tool) => tool.name).sort());
    // Only the tool whose name the request names: not the other 20-odd tools of the two servers.
    expect(offered[0]).toEqual(['mcp__everything__get-sum']);
    expect(offered[1]).toEqual(['mcp__everything__get-sum']);
    expect(Object.keys(toMastraTools(connection)).length).toBeGreaterThan(10);
    // One selection for the turn: its steps reuse it.
    expect(queries).toEqual(['Compute the sum of 20 and 22']);
    expect(JSON.stringify(result.toolResults[0]?.payload.result)).toContain('42');
  });

  it('starts a run from an MCP prompt of the connection (toAISDKMessages: Mastra takes AI SDK messages)', async () => {
    const connection = await connect({ everything: everythingStdio() }, { approval: 'never' });
    const prompt = await connection.getPrompt('mcp__everything__args-prompt', {
      city: 'Lisbon',
      state: 'PT',
    });
    const { model, prompts } = createScriptedModel([{ text: 'Sunny in Lisbon.' }]);
    const agent = new Agent({
      id: 'prompted',
      name: 'prompted',
      instructions: 'Answer.',
      model,
      tools: toMastraTools(connection),
    });
    const result = await agent.generate(toAISDKMessages(prompt) as never);
    expect(result.text).toBe('Sunny in Lisbon.');
    expect(JSON.stringify(prompts[0]?.prompt)).toContain('Lisbon');
  });
});
