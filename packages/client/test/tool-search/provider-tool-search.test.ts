// Provider tool search over a real server-everything connection: the deferred request bodies of
// both providers against the documented shapes (recorded fixtures, and the providers' SDK types at
// compile time), the search handlers' top-k, threshold, alwaysInclude and refusals, and a scripted
// model per provider that searches, gets references, and calls the tool it found. The searcher is a
// stand-in (a neighbour: the real selector is tool-selection's, tested with these handlers in
// apps/examples); what is under test is the conversion and the handling.

import { readFileSync } from 'node:fs';
import type Anthropic from '@anthropic-ai/sdk';
import {
  anthropicVisibleTools,
  everythingStdio,
  jsonShape,
  openAIVisibleTools,
} from '@switchboard/test-helpers';
import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectMcp,
  createAnthropicToolSearch,
  createOpenAIToolSearch,
  type McpConnection,
  noToolFoundText,
  type ToolSearcher,
  type ToolSearcherSelectOptions,
  toAnthropicToolResult,
  toAnthropicTools,
  toOpenAINamespaces,
  toOpenAIToolOutput,
} from '../../src/index.js';
import { keywordSearcher as keywordSearcherOver } from '../helpers/keyword-searcher.js';

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/provider-tool-search/${name}`, import.meta.url), 'utf8'));
const anthropicFixture = fixture('anthropic-messages.json');
const openAIFixture = fixture('openai-responses.json');

let connection: McpConnection;
beforeAll(async () => {
  connection = await connectMcp({ everything: everythingStdio() }, { approval: 'never' });
});
afterAll(async () => {
  await connection?.close();
});

/** The keyword searcher over the connection's tools. */
function keywordSearcher(
  calls: Array<{ query: string; options: ToolSearcherSelectOptions }> = [],
): ToolSearcher {
  return keywordSearcherOver(() => Object.values(connection.tools), calls);
}

/** The body with its schemas left out: the fixtures' tools have other parameters than ours. */
function withoutSchemas(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSchemas);
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (key !== 'input_schema' && key !== 'parameters') copy[key] = withoutSchemas(item);
  }
  return copy;
}

describe('Anthropic: deferred tools and a client-side search', () => {
  it('marks every tool defer_loading, or all but alwaysLoad, as documented', () => {
    const all = toAnthropicTools(connection, { deferLoading: true });
    expect(all.tools.length).toBeGreaterThan(10);
    expect(all.tools.every((tool) => tool.defer_loading === true)).toBe(true);
    const some = toAnthropicTools(connection, { deferLoading: true, alwaysLoad: ['mcp__everything__echo'] });
    expect(some.tools.filter((tool) => tool.defer_loading !== true).map((tool) => tool.name)).toEqual([
      'mcp__everything__echo',
    ]);
    expect(toAnthropicTools(connection).tools.some((tool) => 'defer_loading' in tool)).toBe(false);
    const search = createAnthropicToolSearch(all, { searcher: keywordSearcher() });
    const [searchTool] = anthropicFixture.request.tools;
    const deferred = anthropicFixture.request.tools[1];
    expect(jsonShape(withoutSchemas(search.tool))).toEqual(jsonShape(withoutSchemas(searchTool)));
    expect(jsonShape(withoutSchemas(all.tools[0]))).toEqual(jsonShape(withoutSchemas(deferred)));
    // The SDK's own types take the definitions and the result as they are.
    // (core's JsonSchema does not promise `type: 'object'`, which the converters guarantee at run time)
    const asSdk = (tool: (typeof all.tools)[number]): Anthropic.Messages.Tool => ({
      ...tool,
      input_schema: tool.input_schema as Anthropic.Messages.Tool.InputSchema,
    });
    const tools: Anthropic.Messages.ToolUnion[] = [asSdk(search.tool), ...all.tools.map(asSdk)];
    expect(tools[0]).not.toHaveProperty('defer_loading');
  });

  it('answers a search with tool_reference blocks of the top tools, in the documented shape', async () => {
    const calls: Array<{ query: string; options: ToolSearcherSelectOptions }> = [];
    const provider = toAnthropicTools(connection, { deferLoading: true });
    const search = createAnthropicToolSearch(provider, { searcher: keywordSearcher(calls), limit: 2 });
    const result = await search.handle({ id: 'toolu_1', input: { query: 'sum of two numbers' } });
    expect(jsonShape(result)).toEqual(jsonShape(anthropicFixture.searchResult));
    expect(result.content).toHaveLength(2);
    expect(result.content[0]).toEqual({ type: 'tool_reference', tool_name: 'mcp__everything__get-sum' });
    const typed: Anthropic.Messages.ToolResultBlockParam = result;
    expect(typed.tool_use_id).toBe('toolu_1');
    // The selector's threshold and no alwaysInclude of its own: the search decides what it adds.
    expect(calls[0]?.options).toMatchObject({
      minSimilarity: 0.5,
      unlessWordsMatch: true,
      alwaysInclude: [],
    });
  });

  it('adds alwaysInclude, skips tools loaded up front, and says when nothing fits', async () => {
    const provider = toAnthropicTools(connection, {
      deferLoading: true,
      alwaysLoad: ['mcp__everything__get-sum'],
    });
    const search = createAnthropicToolSearch(provider, {
      searcher: keywordSearcher(),
      alwaysInclude: ['mcp__everything__echo'],
      minSimilarity: null,
    });
    const found = await search.handle({ id: 'toolu_2', input: { query: 'sum of the numbers', limit: 1 } });
    const names = found.content.map((block) => ('tool_name' in block ? block.tool_name : block.text));
    expect(names).not.toContain('mcp__everything__get-sum');
    expect(names).toHaveLength(2);
    expect(names[1]).toBe('mcp__everything__echo');
    const none = await search.handle({ id: 'toolu_3', input: { query: 'zzzqqq' } });
    expect(none).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_3',
      content: [{ type: 'text', text: noToolFoundText }],
    });
    const refused = await search.handle({ id: 'toolu_4', input: { query: '   ' } });
    expect(refused.is_error).toBe(true);
    const tooMany = await search.handle({ id: 'toolu_5', input: { query: 'echo', limit: 50 } });
    expect(tooMany.is_error).toBe(true);
    expect(() => createAnthropicToolSearch(provider, { searcher: keywordSearcher(), limit: 20 })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
  });

  it('loads fewer tools when the best one stands out (relativeScore)', async () => {
    const provider = toAnthropicTools(connection, { deferLoading: true });
    const input = { query: 'sum of the numbers', limit: 5 };
    const all = await createAnthropicToolSearch(provider, { searcher: keywordSearcher() }).handle({
      id: 'a',
      input,
    });
    const adaptive = createAnthropicToolSearch(provider, { searcher: keywordSearcher(), relativeScore: 0.9 });
    const few = await adaptive.handle({ id: 'b', input });
    expect(all.content.length).toBeGreaterThan(1);
    expect(few.content).toEqual([{ type: 'tool_reference', tool_name: 'mcp__everything__get-sum' }]);
    expect(() =>
      createAnthropicToolSearch(provider, { searcher: keywordSearcher(), relativeScore: 2 }),
    ).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });

  it('runs a scripted model: only the search until it searches, then the tool it found, then the call', async () => {
    const provider = toAnthropicTools(connection, { deferLoading: true });
    const search = createAnthropicToolSearch(provider, { searcher: keywordSearcher() });
    const request = {
      tools: [search.tool, ...provider.tools],
      messages: [{ role: 'user', content: 'What is 2 + 3?' }] as Anthropic.Messages.MessageParam[],
    };
    const seen: string[][] = [];
    // The scripted model: searches first, calls the first tool it sees besides the search, then answers.
    const model = (): Anthropic.Messages.ContentBlockParam[] => {
      const visible = anthropicVisibleTools(request);
      seen.push(visible);
      const loaded = visible.filter((name) => name !== search.tool.name);
      if (loaded.length === 0)
        return [
          { type: 'tool_use', id: 'toolu_s', name: search.tool.name, input: { query: 'add two numbers' } },
        ];
      const last = request.messages.at(-1)?.content;
      if (
        Array.isArray(last) &&
        last.some((block) => block.type === 'tool_result' && block.tool_use_id === 'toolu_c')
      ) {
        return [{ type: 'text', text: 'done' }];
      }
      return [{ type: 'tool_use', id: 'toolu_c', name: loaded[0] as string, input: { a: 2, b: 3 } }];
    };
    let answer = '';
    for (let turn = 0; turn < 4 && answer === ''; turn++) {
      const content = model();
      request.messages.push({ role: 'assistant', content });
      const results: Anthropic.Messages.ToolResultBlockParam[] = [];
      for (const block of content) {
        if (block.type === 'text') answer = block.text;
        if (block.type !== 'tool_use') continue;
        if (search.isSearch(block)) results.push(await search.handle(block));
        else {
          const raw = await provider.toolsByName
            .get(block.name)
            ?.execute?.(block.input as Record<string, unknown>, {
              rawResult: true,
            });
          results.push(toAnthropicToolResult(block.id, raw) as Anthropic.Messages.ToolResultBlockParam);
        }
      }
      if (results.length > 0) request.messages.push({ role: 'user', content: results });
    }
    expect(answer).toBe('done');
    expect(seen[0]).toEqual([search.tool.name]);
    expect(seen[1]?.[1]).toBe('mcp__everything__get-sum');
    expect(JSON.stringify(request.messages.at(-2))).toContain('5');
  });
});

describe('OpenAI Responses: deferred namespaces and a client-executed tool_search', () => {
  it('gives one namespace per server, functions deferred, in the documented shape', () => {
    const provider = toOpenAINamespaces(connection);
    expect(provider.tools).toHaveLength(1);
    const [namespace] = provider.tools;
    expect(namespace?.name).toBe('everything');
    expect(namespace?.description).toMatch(/^Tools of the MCP server "everything": .+, and \d+ more\.$/);
    expect(namespace?.tools.every((tool) => tool.defer_loading === true)).toBe(true);
    const search = createOpenAIToolSearch(provider, { searcher: keywordSearcher() });
    const [documentedNamespace, documentedSearch] = openAIFixture.request.tools;
    expect(jsonShape(withoutSchemas(namespace))).toEqual(jsonShape(withoutSchemas(documentedNamespace)));
    expect(jsonShape(withoutSchemas(search.tool))).toEqual(jsonShape(withoutSchemas(documentedSearch)));
    const tools: OpenAI.Responses.Tool[] = [...provider.tools, search.tool];
    expect(tools.at(-1)).toMatchObject({ type: 'tool_search', execution: 'client' });
    const named = toOpenAINamespaces(connection, {
      deferLoading: false,
      descriptions: { everything: 'The reference test server.' },
    });
    expect(named.tools[0]?.description).toBe('The reference test server.');
    expect(named.tools[0]?.tools.some((tool) => 'defer_loading' in tool)).toBe(false);
  });

  it('answers a tool_search_call with the tools found, loaded, in the documented shape', async () => {
    const provider = toOpenAINamespaces(connection);
    const search = createOpenAIToolSearch(provider, { searcher: keywordSearcher(), limit: 1 });
    const call = { ...openAIFixture.searchCall, arguments: JSON.stringify({ query: 'sum of two numbers' }) };
    expect(search.isSearch(call)).toBe(true);
    const output = await search.handle(call);
    expect(jsonShape(withoutSchemas(output))).toEqual(jsonShape(withoutSchemas(openAIFixture.searchOutput)));
    expect(output.tools[0]?.tools.map((tool) => tool.name)).toEqual(['mcp__everything__get-sum']);
    expect(output.tools[0]?.tools[0]?.parameters).toMatchObject({ type: 'object' });
    const typed: OpenAI.Responses.ResponseInputItem = output;
    expect(typed.type).toBe('tool_search_output');
    const none = await search.handle({ ...call, arguments: { query: 'zzzqqq' } });
    expect(none.tools).toEqual([]);
    await expect(
      search.handle({ type: 'tool_search_call', arguments: { query: 'x' } }),
    ).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });

  it('runs a scripted model: namespaces only until it searches, then the function it loaded', async () => {
    const provider = toOpenAINamespaces(connection);
    const search = createOpenAIToolSearch(provider, { searcher: keywordSearcher() });
    const request = {
      tools: [...provider.tools, search.tool],
      input: [] as OpenAI.Responses.ResponseInputItem[],
    };
    request.input.push({ role: 'user', content: 'Echo "hi" back to me.' });
    const seen: ReturnType<typeof openAIVisibleTools>[] = [];
    const model = (): OpenAI.Responses.ResponseInputItem[] => {
      const visible = openAIVisibleTools(request);
      seen.push(visible);
      const last = request.input.at(-1);
      if (last?.type === 'function_call_output') return [{ role: 'assistant', content: 'done' }];
      if (visible.functions.length === 0) {
        return [
          {
            type: 'tool_search_call',
            call_id: 'call_s',
            execution: 'client',
            arguments: { query: 'echo a message' },
          },
        ];
      }
      return [
        {
          type: 'function_call',
          call_id: 'call_c',
          namespace: 'everything',
          name: visible.functions[0] as string,
          arguments: '{"message":"hi"}',
        },
      ];
    };
    let answer = '';
    for (let turn = 0; turn < 4 && answer === ''; turn++) {
      for (const item of model()) {
        request.input.push(item);
        if ('role' in item && item.role === 'assistant') answer = String(item.content);
        if (search.isSearch(item)) request.input.push(await search.handle(item));
        if (item.type === 'function_call') {
          const tool = provider.toolsByName.get(item.name);
          const raw = await tool?.execute?.(JSON.parse(item.arguments), { rawResult: true });
          request.input.push(toOpenAIToolOutput(item.call_id, raw) as OpenAI.Responses.ResponseInputItem);
        }
      }
    }
    expect(answer).toBe('done');
    expect(seen[0]).toEqual({ namespaces: ['everything'], functions: [] });
    expect(seen[1]?.functions[0]).toBe('mcp__everything__echo');
    expect(JSON.stringify(request.input.at(-2))).toContain('hi');
  });
});
