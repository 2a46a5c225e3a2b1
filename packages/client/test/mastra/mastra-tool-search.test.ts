// Provider tool search through a Mastra Agent: the tools of two real MCP servers carry the
// provider's deferral in their providerOptions, which Mastra hands to the model provider, and the
// search (answered by a keyword searcher standing in for the selector) gives Claude tool-reference
// parts. The scripted model (the AI SDK's mock, the only stand-in) records what each turn was sent:
// the first turn shows only the search, the second the tool it found, which then runs for real.
import { Agent } from '@mastra/core/agent';
import { describe, expect, it } from 'vitest';
import { type MastraToolOutput, toMastraToolSearch } from '../../src/mastra/index.js';
import { useSearchServers } from '../helpers/search-servers.js';
import { createScriptedModel, type LanguageModelV3CallOptions } from './scripted-language-model.js';

const servers = useSearchServers();
const searcher = servers.searcher;
const getSum = 'mcp__everything__get-sum';

/** What Claude would see on a turn: tools not deferred, plus those referenced by search results. */
function visibleTools(call: LanguageModelV3CallOptions | undefined): string[] {
  const visible = (call?.tools ?? [])
    .filter((tool) => tool.type !== 'function' || tool.providerOptions?.anthropic?.deferLoading !== true)
    .map((tool) => tool.name);
  for (const message of call?.prompt ?? []) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type !== 'tool-result' || part.output.type !== 'content') continue;
      for (const item of part.output.value) {
        const reference = item.type === 'custom' ? item.providerOptions?.anthropic : undefined;
        if (reference?.type === 'tool-reference') visible.push(String(reference.toolName));
      }
    }
  }
  return visible;
}

describe('toMastraToolSearch in a Mastra Agent', () => {
  it('Anthropic: only the search on the first turn, the referenced tool on the next, run on the real server', async () => {
    const { model, prompts } = createScriptedModel([
      { toolCalls: [{ name: 'search_tools', args: { query: 'add two numbers' } }] },
      { toolCalls: [{ name: getSum, args: { a: 2, b: 40 } }] },
      { text: 'It is 42.' },
    ]);
    const agent = new Agent({
      id: 'searching',
      name: 'searching',
      instructions: 'Search for tools, then use them.',
      model,
      tools: toMastraToolSearch(servers.connection(), {
        provider: 'anthropic',
        searcher: searcher(),
        limit: 1,
      }),
    });
    const result = await agent.generate('What is 2 + 40?');
    expect(result.text).toBe('It is 42.');
    expect(visibleTools(prompts[0])).toEqual(['search_tools']);
    expect(visibleTools(prompts[1])).toEqual(['search_tools', getSum]);
    expect(prompts[0]?.tools?.length).toBeGreaterThan(10);
    const sum = result.toolResults.find((call) => call.payload.toolName === getSum);
    expect((sum?.payload.result as MastraToolOutput | undefined)?.text).toContain('42');
  });

  it('OpenAI: each tool deferred in its server namespace through providerOptions.openai', async () => {
    const { model, prompts } = createScriptedModel([{ text: 'ok' }]);
    const agent = new Agent({
      id: 'namespaces',
      name: 'namespaces',
      instructions: 'Answer.',
      model,
      tools: toMastraToolSearch(servers.connection(), {
        provider: 'openai',
        searcher: searcher(),
        alwaysLoad: ['mcp__memory__read_graph'],
      }),
    });
    await agent.generate('hello');
    const options = (name: string) => {
      const tool = prompts[0]?.tools?.find((each) => each.name === name);
      return tool?.type === 'function' ? tool.providerOptions?.openai : undefined;
    };
    expect(options(getSum)).toMatchObject({ deferLoading: true, namespace: { name: 'everything' } });
    expect(options('mcp__memory__read_graph')).toEqual({
      namespace: { name: 'memory', description: expect.stringContaining('read_graph') },
    });
  });
});
