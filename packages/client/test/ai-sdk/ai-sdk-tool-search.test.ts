// Provider tool search through the AI SDK's own loop (`generateText` with `stopWhen`): the tools of
// two real MCP servers deferred through the providers' tool options, the search answered by a
// keyword searcher (standing in for the selector), and a scripted model that sees only what the
// provider would show it — the tools not deferred, plus those a search loaded — so it can call a
// tool only after searching for it.
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { toAISDKToolSearch } from '../../src/ai-sdk/index.js';
import { useSearchServers } from '../helpers/search-servers.js';
import type { CallOptions } from './scripted-model.js';

const servers = useSearchServers();
const searcher = servers.searcher;
const getSum = 'mcp__everything__get-sum';

type Visible = { provider: 'anthropic' | 'openai'; search: string };

/** What the provider shows the model on a call: tools not deferred, and those searches loaded. */
function visibleTools(call: CallOptions, { provider }: Visible): string[] {
  const visible: string[] = [];
  for (const tool of call.tools ?? []) {
    if (tool.type === 'provider') visible.push(tool.name);
    else if ((tool.providerOptions?.[provider] as { deferLoading?: boolean })?.deferLoading !== true)
      visible.push(tool.name);
  }
  for (const message of call.prompt) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type !== 'tool-result') continue;
      const output = part.output;
      if (provider === 'anthropic' && output.type === 'content') {
        for (const item of output.value) {
          const reference = item.type === 'custom' ? item.providerOptions?.anthropic : undefined;
          if (reference?.type === 'tool-reference') visible.push(String(reference.toolName));
        }
      }
      if (provider === 'openai' && output.type === 'json') {
        const namespaces =
          (output.value as { tools?: Array<{ tools: Array<{ name: string }> }> }).tools ?? [];
        for (const namespace of namespaces) for (const fn of namespace.tools) visible.push(fn.name);
      }
    }
  }
  return visible;
}

/**
 * A model that searches when it sees no tool besides the search, then calls the first tool it sees
 * with `{ a: 2, b: 3 }`, then answers with the last tool result's text.
 */
function searchingModel(view: Visible, seen: string[][]): MockLanguageModelV3 {
  let calls = 0;
  return new MockLanguageModelV3({
    doGenerate: async (call) => {
      const visible = visibleTools(call, view);
      seen.push(visible);
      const usage = {
        inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 1, text: 1, reasoning: undefined },
      };
      const toolCall = (toolName: string, input: unknown) => ({
        content: [
          { type: 'tool-call' as const, toolCallId: `c${++calls}`, toolName, input: JSON.stringify(input) },
        ],
        finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
        usage,
        warnings: [],
      });
      const loaded = visible.filter((name) => name !== view.search);
      const answered = call.prompt.some(
        (message) =>
          message.role === 'tool' &&
          message.content.some((part) => part.type === 'tool-result' && part.toolName === loaded[0]),
      );
      if (loaded.length === 0) {
        const query = { query: 'add two numbers' };
        return view.provider === 'anthropic'
          ? toolCall(view.search, query)
          : toolCall(view.search, { arguments: query, call_id: 'search_1' });
      }
      if (!answered) return toolCall(loaded[0] as string, { a: 2, b: 3 });
      return {
        content: [{ type: 'text' as const, text: 'done' }],
        finishReason: { unified: 'stop' as const, raw: 'stop' },
        usage,
        warnings: [],
      };
    },
  });
}

describe('toAISDKToolSearch, Anthropic: deferred tools and a search answered with tool references', () => {
  it('defers every tool but the search and alwaysLoad, through providerOptions.anthropic', () => {
    const tools = toAISDKToolSearch(servers.connection(), {
      provider: 'anthropic',
      searcher: searcher(),
      alwaysLoad: ['mcp__memory__read_graph'],
    });
    const deferred = Object.entries(tools).filter(
      ([, tool]) => (tool.providerOptions?.anthropic as { deferLoading?: boolean })?.deferLoading === true,
    );
    expect(Object.keys(tools)).toContain('search_tools');
    expect(Object.keys(tools)).toContain(getSum);
    expect(deferred.length).toBe(Object.keys(tools).length - 2);
    expect(tools.search_tools?.providerOptions).toBeUndefined();
    expect(tools.mcp__memory__read_graph?.providerOptions).toBeUndefined();
  });

  it('runs generateText: only the search until it searches, then the referenced tool on the real server', async () => {
    const seen: string[][] = [];
    const view = { provider: 'anthropic', search: 'search_tools' } as const;
    const model = searchingModel(view, seen);
    const result = await generateText({
      model,
      tools: toAISDKToolSearch(servers.connection(), {
        provider: 'anthropic',
        searcher: searcher(),
        limit: 1,
      }),
      stopWhen: stepCountIs(5),
      prompt: 'What is 2 + 3?',
    });
    expect(result.text).toBe('done');
    expect(seen[0]).toEqual(['search_tools']);
    expect(seen[1]).toEqual(['search_tools', getSum]);
    // The search's result went to the model as a tool-reference part, which @ai-sdk/anthropic sends
    // as a `tool_reference` block.
    const searchResult = model.doGenerateCalls[1]?.prompt
      .flatMap((message) => (message.role === 'tool' ? message.content : []))
      .find((part) => part.type === 'tool-result' && part.toolName === 'search_tools');
    expect(searchResult).toMatchObject({
      output: {
        type: 'content',
        value: [
          { type: 'custom', providerOptions: { anthropic: { type: 'tool-reference', toolName: getSum } } },
        ],
      },
    });
    expect(result.steps[1]?.toolResults[0]).toMatchObject({ toolName: getSum, output: { isError: false } });
    expect(JSON.stringify(result.steps[1]?.toolResults[0]?.output)).toContain('5');
  });

  it('tells the model when no tool fits, and refuses an empty query as an error', async () => {
    const tools = toAISDKToolSearch(servers.connection(), { provider: 'anthropic', searcher: searcher() });
    const run = (input: unknown) =>
      generateText({
        model: new MockLanguageModelV3({
          doGenerate: async () => ({
            content: [
              { type: 'tool-call', toolCallId: 'x', toolName: 'search_tools', input: JSON.stringify(input) },
            ],
            finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
            usage: {
              inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
              outputTokens: { total: 1, text: 1, reasoning: undefined },
            },
            warnings: [],
          }),
        }),
        tools,
        stopWhen: stepCountIs(1),
        prompt: 'hi',
      });
    const nothing = await run({ query: 'zzzz qqqq' });
    expect(nothing.steps[0]?.toolResults[0]?.output).toEqual({ names: [], query: 'zzzz qqqq' });
    const refused = await run({ query: '' });
    expect(refused.steps[0]?.toolResults[0]?.output).toMatchObject({
      refused: expect.stringContaining('query'),
    });
  });
});

describe('toAISDKToolSearch, OpenAI: deferred namespaced functions and a client-executed tool_search', () => {
  it('defers the functions in one namespace per server, and adds openai.tool_search with execution client', () => {
    const tools = toAISDKToolSearch(servers.connection(), { provider: 'openai', searcher: searcher() });
    const options = (name: string) =>
      tools[name]?.providerOptions?.openai as {
        deferLoading?: boolean;
        namespace?: { name: string; description: string };
      };
    expect(options(getSum)).toMatchObject({ deferLoading: true, namespace: { name: 'everything' } });
    expect(options('mcp__memory__read_graph')).toMatchObject({
      deferLoading: true,
      namespace: { name: 'memory' },
    });
    expect(options(getSum)?.namespace?.description).toContain('get-sum');
    expect(tools.tool_search).toMatchObject({
      type: 'provider',
      id: 'openai.tool_search',
      args: { execution: 'client', parameters: { required: ['query'] } },
    });
  });

  it('runs generateText: namespaces only until it searches, then the loaded function on the real server', async () => {
    const seen: string[][] = [];
    const view = { provider: 'openai', search: 'tool_search' } as const;
    const model = searchingModel(view, seen);
    const result = await generateText({
      model,
      tools: toAISDKToolSearch(servers.connection(), { provider: 'openai', searcher: searcher(), limit: 1 }),
      stopWhen: stepCountIs(5),
      prompt: 'What is 2 + 3?',
    });
    expect(result.text).toBe('done');
    expect(seen[0]).toEqual(['tool_search']);
    expect(seen[1]).toEqual(['tool_search', getSum]);
    // The output is what @ai-sdk/openai sends as the `tool_search_output`'s tools: namespaces with
    // the functions found, their schemas loaded.
    expect(result.steps[0]?.toolResults[0]?.output).toMatchObject({
      tools: [
        {
          type: 'namespace',
          name: 'everything',
          tools: [
            { type: 'function', name: getSum, parameters: { type: 'object', properties: { a: {}, b: {} } } },
          ],
        },
      ],
    });
    expect(JSON.stringify(result.steps[1]?.toolResults[0]?.output)).toContain('5');
  });
});
