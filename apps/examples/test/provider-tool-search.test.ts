// Claude's and OpenAI's tool search answered by Switchboard's selector, end to end: connectMcp to
// the examples' 537 tools (three official servers and the catalogue server), the real offline
// selector, the client's deferred converters and search handlers, and a scripted model per
// provider shape that sees only what the provider would show it. It searches once per step with a
// few words, calls the tool the search loaded, and is checked to see no deferred tool before.

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  connectMcp,
  createAnthropicToolSearch,
  createOpenAIToolSearch,
  type McpConnection,
  toAnthropicToolResult,
  toAnthropicTools,
  toOpenAINamespaces,
  toOpenAIToolOutput,
} from '@switchboard/client';
import {
  anthropicVisibleTools,
  createTemporaryDirectory,
  openAIVisibleTools,
  type TemporaryDirectory,
} from '@switchboard/test-helpers';
import { createToolSelector, type ToolSelector } from '@switchboard/tool-selection';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { largeToolSet } from '../src/catalogue-servers.js';

/** The task's steps: the few words the model searches with, the tool it picks, its arguments. */
function steps(folder: string, person: string) {
  return [
    { query: 'list the files in a folder', pick: /list_directory$/, args: { path: folder } },
    {
      query: 'store a new entity in the knowledge graph',
      pick: /create_entities$/,
      args: { entities: [{ name: person, entityType: 'person', observations: ['likes tea'] }] },
    },
  ];
}

let folder: TemporaryDirectory;
let connection: McpConnection;
let selector: ToolSelector;
beforeAll(async () => {
  folder = createTemporaryDirectory('switchboard-tool-search-');
  await writeFile(join(folder.path, 'notes.txt'), 'hello');
  connection = await connectMcp(largeToolSet(folder.path), { approval: 'never' });
  selector = createToolSelector({ registry: connection.registry });
  await selector.ready();
});
afterAll(async () => {
  await selector?.close();
  await connection?.close();
  folder?.[Symbol.dispose]();
});

describe('provider tool search over 537 tools with the offline selector', () => {
  it('Anthropic: the model sees only the search tool until it searches, then calls what each search loaded', async () => {
    const provider = toAnthropicTools(connection, { deferLoading: true });
    expect(provider.tools.length).toBeGreaterThanOrEqual(530);
    const search = createAnthropicToolSearch(provider, { searcher: selector });
    const request = {
      tools: [search.tool, ...provider.tools],
      messages: [{ role: 'user', content: 'List my folder, then remember Alice.' }] as Array<{
        role: string;
        content: unknown;
      }>,
    };
    const outputs: string[] = [];
    for (const [index, step] of steps(folder.path, 'Alice').entries()) {
      const before = anthropicVisibleTools(request);
      if (index === 0) expect(before).toEqual([search.tool.name]);
      expect(before.some((name) => step.pick.test(name))).toBe(false);
      const searchUse = {
        type: 'tool_use',
        id: `toolu_s${index}`,
        name: search.tool.name,
        input: { query: step.query },
      };
      request.messages.push({ role: 'assistant', content: [searchUse] });
      request.messages.push({ role: 'user', content: [await search.handle(searchUse)] });
      const after = anthropicVisibleTools(request);
      expect(after.length - before.length).toBeLessThanOrEqual(3);
      const picked = after.find((name) => step.pick.test(name));
      expect(picked, step.query).toBeDefined();
      const call = { type: 'tool_use', id: `toolu_c${index}`, name: picked as string, input: step.args };
      request.messages.push({ role: 'assistant', content: [call] });
      const raw = await provider.toolsByName.get(call.name)?.execute?.(call.input, { rawResult: true });
      const result = toAnthropicToolResult(call.id, raw);
      expect(result.is_error).toBeUndefined();
      request.messages.push({ role: 'user', content: [result] });
      outputs.push(JSON.stringify(result.content));
    }
    expect(outputs[0]).toContain('notes.txt');
    expect(outputs[1]).toContain('Alice');
    // Nothing fits a search of unknown words: no reference, a text saying so.
    const none = await search.handle({ id: 'toolu_n', input: { query: 'qzxv wprt' } });
    expect(none.content).toEqual([{ type: 'text', text: expect.stringMatching(/^No tool fits/) }]);
  });

  it('OpenAI: namespaces only until it searches, then the functions each tool_search_output loaded', async () => {
    const provider = toOpenAINamespaces(connection);
    expect(provider.tools.map((namespace) => namespace.name).sort()).toEqual([
      'catalogue',
      'everything',
      'filesystem',
      'memory',
    ]);
    const search = createOpenAIToolSearch(provider, { searcher: selector });
    const request = { tools: [...provider.tools, search.tool], input: [] as Array<Record<string, unknown>> };
    request.input.push({ role: 'user', content: 'List my folder, then remember Bob.' });
    const outputs: string[] = [];
    for (const [index, step] of steps(folder.path, 'Bob').entries()) {
      const before = openAIVisibleTools(request as Parameters<typeof openAIVisibleTools>[0]);
      expect(before.namespaces).toHaveLength(4);
      if (index === 0) expect(before.functions).toEqual([]);
      const call = {
        type: 'tool_search_call',
        call_id: `call_s${index}`,
        execution: 'client',
        arguments: { query: step.query },
      };
      expect(search.isSearch(call)).toBe(true);
      request.input.push(call, { ...(await search.handle(call as Parameters<typeof search.handle>[0])) });
      const after = openAIVisibleTools(request as Parameters<typeof openAIVisibleTools>[0]);
      const picked = after.functions.find((name) => step.pick.test(name));
      expect(picked, step.query).toBeDefined();
      const tool = provider.toolsByName.get(picked as string);
      const functionCall = {
        type: 'function_call',
        call_id: `call_c${index}`,
        namespace: tool?.server,
        name: picked,
        arguments: JSON.stringify(step.args),
      };
      request.input.push(functionCall);
      const raw = await tool?.execute?.(JSON.parse(functionCall.arguments), { rawResult: true });
      const output = toOpenAIToolOutput(functionCall.call_id, raw);
      request.input.push({ ...output });
      outputs.push(JSON.stringify(output));
    }
    expect(outputs[0]).toContain('notes.txt');
    expect(outputs[1]).toContain('Bob');
  });
});
