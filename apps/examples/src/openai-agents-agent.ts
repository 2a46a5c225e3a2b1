/**
 * Example — the OpenAI Agents SDK over Switchboard: `toOpenAIAgentsTools` gives an `Agent` the
 * namespaced tools of two official servers; a memory write needs approval, so the run stops with
 * an interruption, a person approves, and the run continues from its state. Then the same
 * connection serves as one MCP server (`toOpenAIAgentsMcpServer`) and an image result reaches the
 * model as an image input. Offline it plays a scripted model; with OPENAI_API_KEY set it uses the
 * SDK's own OpenAI model (OPENAI_MODEL, default gpt-4.1-mini) and approves what it asks.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Agent,
  type AgentOutputItem,
  type Model,
  type ModelRequest,
  run,
  setTracingDisabled,
  Usage,
} from '@openai/agents';
import { connectMcp } from '@switchboard/client';
import { toOpenAIAgentsMcpServer, toOpenAIAgentsTools } from '@switchboard/client/openai-agents';
import { officialServer } from './official-servers.js';

const online = Boolean(process.env.OPENAI_API_KEY);
if (!online) setTracingDisabled(true);

/** A scripted offline model: one step per model turn, printing what the last tool sent back. */
function scriptedModel(steps: AgentOutputItem[][]): Model {
  let turn = 0;
  return {
    async getResponse(request: ModelRequest) {
      const input = typeof request.input === 'string' ? [] : request.input;
      const last = input.at(-1);
      if (last?.type === 'function_call_result') {
        const output = last.output;
        const parts = Array.isArray(output) ? output : [output];
        const kinds = parts.map((part) =>
          typeof part === 'object' && part !== null && 'type' in part ? part.type : 'text',
        );
        console.log(`  model got ${last.name} output as: ${kinds.join(', ')}`);
      }
      return { usage: new Usage(), output: steps[turn++] ?? [message('done')] };
    },
    // biome-ignore lint/correctness/useYield: this example runs non-streamed.
    async *getStreamedResponse() {
      throw new Error('the scripted model does not stream');
    },
  };
}
const call = (name: string, args: Record<string, unknown>, id: string): AgentOutputItem => ({
  type: 'function_call',
  callId: id,
  name,
  arguments: JSON.stringify(args),
  status: 'completed',
});
const message = (text: string): AgentOutputItem => ({
  type: 'message',
  role: 'assistant',
  status: 'completed',
  content: [{ type: 'output_text', text }],
});

const modelFor = (steps: AgentOutputItem[][]): Model | string =>
  online ? (process.env.OPENAI_MODEL ?? 'gpt-4.1-mini') : scriptedModel(steps);

const folder = await mkdtemp(join(tmpdir(), 'switchboard-openai-agents-'));
// Memory writes ask first (reads run): the Agents SDK's approval path does the asking.
const mcp = await connectMcp(
  {
    everything: officialServer('everything', ['stdio']),
    memory: { ...officialServer('memory'), env: { MEMORY_FILE_PATH: join(folder, 'memory.jsonl') } },
  },
  { approval: { mode: 'always', allow: ['read_graph', 'search_nodes', 'open_nodes', 'mcp__everything__*'] } },
);
try {
  console.log(
    `model: ${online ? modelFor([]) : 'scripted (offline)'}; ${Object.keys(mcp.tools).length} tools`,
  );

  // 1. Function tools, with an approval in the middle of the run.
  const agent = new Agent({
    name: 'assistant',
    instructions: 'Use the tools to answer; remember facts in the knowledge graph.',
    model: modelFor([
      [call('mcp__everything__get_sum', { a: 17, b: 25 }, 'call_sum')],
      [
        call(
          'mcp__memory__create_entities',
          { entities: [{ name: 'answer', entityType: 'number', observations: ['17 + 25 = 42'] }] },
          'call_remember',
        ),
      ],
      [message('17 + 25 = 42, and I stored it in memory.')],
    ]),
    tools: toOpenAIAgentsTools(mcp),
  });
  const request =
    'Add 17 and 25, then remember the result in the knowledge graph as an entity named "answer".';
  console.log(`\nuser: ${request}`);
  let result = await run(agent, request);
  while (result.interruptions.length > 0) {
    for (const item of result.interruptions) {
      console.log(`  approval asked: ${item.name} ${item.arguments ?? ''}`);
      console.log('  → approved');
      result.state.approve(item);
    }
    result = await run(agent, result.state);
  }
  console.log(`answer: ${result.finalOutput}`);
  const graph = await mcp.callTool('mcp__memory__read_graph', {});
  console.log(
    `memory now holds: ${JSON.stringify(graph).includes('17 + 25 = 42') ? 'answer (17 + 25 = 42)' : 'nothing'}`,
  );

  // 2. The whole connection as one MCP server of the agent (the SDK names tools with `_` for `-`).
  const viewer = new Agent({
    name: 'viewer',
    instructions: 'Describe images you fetch with the tools.',
    model: modelFor([
      [call('mcp__everything__get_tiny_image', {}, 'call_image')],
      [message('A tiny test image.')],
    ]),
    mcpServers: [toOpenAIAgentsMcpServer(mcp)],
  });
  console.log('\nuser: Fetch the tiny image and describe it.');
  const seen = await run(viewer, 'Fetch the tiny image and describe it.');
  console.log(`answer: ${seen.finalOutput}`);
} finally {
  await mcp.close();
  await rm(folder, { recursive: true, force: true });
}
