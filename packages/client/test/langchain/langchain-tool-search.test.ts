// Deferred tools plus the search in LangGraph's createReactAgent: the model (scripted, the only
// stand-in) is bound to the search tool alone until it searches, then to the tools the search found;
// the tool node runs the found tool on a real server. And `deferLoading` marks the tools the way
// the LangChain provider packages pass on to the providers' hosted searches.
import { AIMessage, type BaseMessage, ToolMessage } from '@langchain/core/messages';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { describe, expect, it } from 'vitest';
import { createLangChainToolSearch, toLangChainTools } from '../../src/langchain/index.js';
import { useSearchServers } from '../helpers/search-servers.js';
import { callTool, ScriptedChatModel } from './scripted-chat-model.js';

const servers = useSearchServers();
const searcher = servers.searcher;
const getSum = 'mcp__everything__get-sum';

describe('createLangChainToolSearch in createReactAgent', () => {
  it('binds only the search until it searches, then the found tool, which the tool node runs', async () => {
    const search = createLangChainToolSearch(servers.connection(), {
      searcher: searcher(),
      limit: 1,
      alwaysLoad: ['mcp__memory__read_graph'],
    });
    // The model calls the first tool it is bound to besides the search and alwaysLoad, or searches.
    const next = (turn: number) => (messages: BaseMessage[]) => {
      const bound = model.turns[turn]?.tools ?? [];
      const found = bound.filter((name) => name !== 'search_tools' && name !== 'mcp__memory__read_graph');
      if (messages.some((message) => ToolMessage.isInstance(message) && message.name === found[0]))
        return new AIMessage('5');
      if (found.length === 0) return callTool('search_tools', { query: 'add two numbers' });
      return callTool(found[0] as string, { a: 2, b: 3 });
    };
    const model: ScriptedChatModel = new ScriptedChatModel([next(0), next(1), next(2)]);
    const agent = createReactAgent({
      llm: async (state: { messages: BaseMessage[] }) => model.bindTools(search.bound(state.messages)),
      tools: search.tools(),
    });
    const result = await agent.invoke({ messages: [{ role: 'user', content: 'What is 2 + 3?' }] });
    expect(model.turns[0]?.tools).toEqual(['search_tools', 'mcp__memory__read_graph']);
    expect([...(model.turns[1]?.tools ?? [])].sort()).toEqual([
      getSum,
      'mcp__memory__read_graph',
      'search_tools',
    ]);
    const messages = result.messages as BaseMessage[];
    expect(messages.at(-1)?.text).toBe('5');
    const searched = messages.find(
      (message): message is ToolMessage => ToolMessage.isInstance(message) && message.name === 'search_tools',
    );
    expect(searched?.artifact).toEqual({ tools: [getSum] });
    expect(searched?.text).toContain(`${getSum}:`);
    const summed = messages.find(
      (message): message is ToolMessage => ToolMessage.isInstance(message) && message.name === getSum,
    );
    expect(summed?.text).toContain('5');
  });

  it('answers "no tool fits" with no tools when nothing matches', async () => {
    const search = createLangChainToolSearch(servers.connection(), { searcher: searcher() });
    const message = (await search.searchTool.invoke({
      id: 'call_s',
      name: 'search_tools',
      args: { query: 'zzzz qqqq' },
      type: 'tool_call',
    })) as ToolMessage;
    expect(message.text).toMatch(/No tool fits/);
    expect(message.artifact).toEqual({ tools: [] });
  });
});

describe('toLangChainTools with deferLoading', () => {
  it('marks every tool but alwaysLoad extras.defer_loading for the providers’ hosted search', () => {
    const tools = toLangChainTools(servers.connection(), {
      deferLoading: true,
      alwaysLoad: ['mcp__memory__read_graph'],
    });
    const deferred = tools.filter((tool) => tool.extras?.defer_loading === true).map((tool) => tool.name);
    expect(deferred.length).toBe(tools.length - 1);
    expect(deferred).not.toContain('mcp__memory__read_graph');
    expect(toLangChainTools(servers.connection()).some((tool) => tool.extras !== undefined)).toBe(false);
  });
});
