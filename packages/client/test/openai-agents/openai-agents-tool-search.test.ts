// Provider tool search through the Agents SDK's own run loop (`run` of @openai/agents): the tools of
// two real MCP servers deferred in one namespace per server, the SDK's client-executed tool search
// answered by a keyword searcher (standing in for the selector), and a scripted model that sees only
// what the Responses API would show it — namespaces and tools not deferred, plus the tools a
// `tool_search_output` loaded — so it can call a tool only after searching for it.
import {
  Agent,
  type AgentOutputItem,
  type Model,
  type ModelRequest,
  run,
  setTracingDisabled,
  Usage,
} from '@openai/agents';
import { beforeAll, describe, expect, it } from 'vitest';
import { toOpenAIAgentsToolSearch } from '../../src/openai-agents/index.js';
import { useSearchServers } from '../helpers/search-servers.js';

beforeAll(() => setTracingDisabled(true));
const servers = useSearchServers();
const searcher = servers.searcher;
const getSum = 'mcp__everything__get_sum';

/** What the Responses API shows the model: function tools not deferred, the search, and loaded tools. */
function visibleTools(request: ModelRequest): Array<{ name: string; namespace?: string }> {
  const visible: Array<{ name: string; namespace?: string }> = [];
  for (const tool of request.tools) {
    if (tool.type === 'hosted_tool') visible.push({ name: tool.name });
    else if (tool.type === 'function' && (tool as { deferLoading?: boolean }).deferLoading !== true)
      visible.push({ name: tool.name });
  }
  const input = typeof request.input === 'string' ? [] : request.input;
  for (const item of input) {
    if (item.type !== 'tool_search_output') continue;
    for (const loaded of item.tools as Array<{
      type: string;
      name: string;
      tools?: Array<{ name: string }>;
    }>) {
      if (loaded.type === 'namespace')
        for (const fn of loaded.tools ?? []) visible.push({ name: fn.name, namespace: loaded.name });
      else visible.push({ name: loaded.name });
    }
  }
  return visible;
}

/** A model that searches while it sees only the search, then calls the first tool loaded, then answers. */
function searchingModel(seen: string[][]): Model & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    requests,
    async getResponse(request) {
      requests.push(request);
      const visible = visibleTools(request);
      seen.push(visible.map((tool) => tool.name));
      const loaded = visible.filter((tool) => tool.name !== 'tool_search');
      const input = typeof request.input === 'string' ? [] : request.input;
      const answered = input.some((item) => item.type === 'function_call_result');
      let output: AgentOutputItem[];
      if (loaded.length === 0) {
        output = [
          {
            type: 'tool_search_call',
            id: 'ts_1',
            callId: 'search_1',
            execution: 'client',
            status: 'completed',
            arguments: { query: 'add two numbers' },
          },
        ];
      } else if (!answered) {
        const [first] = loaded;
        output = [
          {
            type: 'function_call',
            callId: 'call_1',
            name: first?.name as string,
            ...(first?.namespace === undefined ? {} : { namespace: first.namespace }),
            arguments: JSON.stringify({ a: 2, b: 3 }),
            status: 'completed',
          },
        ];
      } else {
        output = [
          {
            type: 'message',
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text: 'done' }],
          },
        ];
      }
      return { usage: new Usage(), output, responseId: `r${requests.length}` };
    },
    // biome-ignore lint/correctness/useYield: the test runs non-streamed; a stream is refused loudly.
    async *getStreamedResponse() {
      throw new Error('the scripted model does not stream');
    },
  };
}

describe('toOpenAIAgentsToolSearch under the Agents SDK run loop', () => {
  it('defers the function tools in one namespace per server, alwaysLoad up front, beside a client tool_search', () => {
    const tools = toOpenAIAgentsToolSearch(servers.connection(), {
      searcher: searcher(),
      alwaysLoad: ['mcp__memory__read_graph'],
    });
    const search = tools.at(-1);
    expect(search).toMatchObject({
      type: 'hosted_tool',
      name: 'tool_search',
      providerData: { type: 'tool_search', execution: 'client', parameters: { required: ['query'] } },
    });
    const functions = tools.filter((tool) => tool.type === 'function');
    expect(functions.length).toBe(tools.length - 1);
    expect(functions.filter((tool) => tool.deferLoading !== true).map((tool) => tool.name)).toEqual([
      'mcp__memory__read_graph',
    ]);
  });

  it('runs: only the search until it searches, then the loaded function on the real server', async () => {
    const seen: string[][] = [];
    const model = searchingModel(seen);
    const agent = new Agent({
      name: 'searcher',
      model,
      tools: toOpenAIAgentsToolSearch(servers.connection(), { searcher: searcher(), limit: 1 }),
    });
    const result = await run(agent, 'What is 2 + 3?');
    expect(result.finalOutput).toBe('done');
    expect(seen[0]).toEqual(['tool_search']);
    expect(seen[1]).toEqual(['tool_search', getSum]);
    // The runner answered the search with a tool_search_output of the everything namespace.
    const loaded = result.newItems.find((item) => item.type === 'tool_search_output_item');
    expect(JSON.stringify(loaded?.rawItem)).toContain('"name":"everything"');
    const outputs = result.newItems.filter((item) => item.type === 'tool_call_output_item');
    expect(String(outputs[0]?.output)).toContain('5');
  });

  it('loads nothing when no tool fits', async () => {
    const tools = toOpenAIAgentsToolSearch(servers.connection(), { searcher: searcher() });
    const model: Model = {
      async getResponse(request) {
        const input = typeof request.input === 'string' ? [] : request.input;
        const done = input.some((item) => item.type === 'tool_search_output');
        return {
          usage: new Usage(),
          responseId: 'r',
          output: done
            ? [
                {
                  type: 'message',
                  role: 'assistant',
                  status: 'completed',
                  content: [{ type: 'output_text', text: 'none' }],
                },
              ]
            : [
                {
                  type: 'tool_search_call',
                  callId: 'search_x',
                  execution: 'client',
                  status: 'completed',
                  arguments: { query: 'zzzz qqqq' },
                },
              ],
        };
      },
      // biome-ignore lint/correctness/useYield: non-streamed only.
      async *getStreamedResponse() {
        throw new Error('no stream');
      },
    };
    const result = await run(new Agent({ name: 'nothing', model, tools }), 'hi');
    const output = result.newItems.find((item) => item.type === 'tool_search_output_item');
    expect((output?.rawItem as { tools?: unknown[] } | undefined)?.tools).toEqual([]);
  });
});
