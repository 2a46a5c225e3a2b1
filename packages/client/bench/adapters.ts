/**
 * `pnpm --filter @switchboard/client bench:adapters [--json] [--quick]`: what each framework
 * adapter costs per tool call, in one run. `echo` on one server-everything over stdio, every side
 * on the same connection, one call of each in turn (each after every other equally often) after a warm-up:
 *
 * - `direct`: the registered tool's `execute` (validation, approval, wrapping): the baseline;
 * - `ai-sdk`: the AI SDK tool's `execute` with its call options, then `toModelOutput`, as
 *   `generateText` calls them;
 * - `langchain`: the LangChain tool's `invoke` with a tool call, as LangGraph's ToolNode calls it
 *   (LangChain's schema check, callbacks and ToolMessage included);
 * - `openai-agents`: the function tool through the SDK's `invokeFunctionTool`, as its runner calls it;
 * - `openai-agents-mcp`: `callTool` of the connection as an Agents SDK MCP server;
 * - `mastra`: the Mastra tool's `execute`, as Mastra's agent loop calls it.
 *
 * The frameworks' own invocation is not the adapter's to save, so floors are measured too: a
 * hand-written LangChain, Agents SDK and Mastra tool that calls `execute` and returns its text
 * (`*-floor`). `overAdapterFloor` = adapter p50 / its floor p50 is the adapter's share. (On this
 * VM a framework's invocation costs far more between pipe round trips than in a hot in-process
 * loop: LangChain's `invoke` spends ~53 µs before it calls the tool there against ~11 µs in the
 * loop, with no timer or I/O yield in between — code and cache cost of a large framework.)
 *
 * Over a pipe the server and the machine dominate, so `adapterOnly` times each side on an
 * in-process tool that answers at once (mean µs per call): the work the adapter itself adds.
 * ratio = side p50 / direct p50. Goal: ≤ 1.1.
 */
import { DynamicStructuredTool } from '@langchain/core/tools';
import { createTool } from '@mastra/core/tools';
import { tool as agentsTool, invokeFunctionTool, RunContext } from '@openai/agents';
import type { RegisteredTool } from '@switchboard/core';
import { serverScript, turnOrder } from '@switchboard/test-helpers';

// The built package (what users install; `pnpm bench` builds it first). BENCH_SOURCE=src runs the source.
type ClientPackage = typeof import('../src/index.js');
type AISDKPackage = typeof import('../src/ai-sdk/index.js');
type LangChainPackage = typeof import('../src/langchain/index.js');
type OpenAIAgentsPackage = typeof import('../src/openai-agents/index.js');
type MastraPackage = typeof import('../src/mastra/index.js');
const root = process.env.BENCH_SOURCE === 'src' ? '../src' : '../dist';
const { connectMcp } = (await import(`${root}/index.js`)) as ClientPackage;
const { toAISDKTools } = (await import(`${root}/ai-sdk/index.js`)) as AISDKPackage;
const { toLangChainTool } = (await import(`${root}/langchain/index.js`)) as LangChainPackage;
const { toOpenAIAgentsMcpServer, toOpenAIAgentsTools } = (await import(
  `${root}/openai-agents/index.js`
)) as OpenAIAgentsPackage;
const { toMastraTool } = (await import(`${root}/mastra/index.js`)) as MastraPackage;

const json = process.argv.includes('--json');
const quick = process.argv.includes('--quick');
const rounds = quick ? 4 : 20;
const perRound = quick ? 25 : 50;
const warmup = quick ? 50 : 500;
const inProcessCalls = quick ? 5_000 : 50_000;

const everything = serverScript('server-everything');

type Call = () => Promise<unknown>;

/** Every side's call for one registered tool (the stdio echo, or the in-process one). */
function sidesOf(
  registered: RegisteredTool,
  mcpServer?: { callTool(name: string, args: unknown): Promise<unknown> },
) {
  const execute = registered.execute;
  if (execute === undefined) throw new Error(`${registered.name} has no execute`);
  const args = { message: 'bench' };
  const argsJson = JSON.stringify(args);
  let id = 0;

  const aiTool = Object.values(toAISDKTools([registered]))[0];
  if (aiTool?.execute === undefined || aiTool.toModelOutput === undefined) throw new Error('no AI SDK tool');
  const { execute: aiExecute, toModelOutput } = aiTool;
  const abort = new AbortController();

  const langChainTool = toLangChainTool(registered);
  const langChainFloor = new DynamicStructuredTool({
    name: langChainTool.name,
    description: registered.description,
    schema: registered.inputSchema,
    func: async (input: unknown) => JSON.stringify(await execute(input as Record<string, unknown>)),
  });
  const toolCall = (name: string) => ({ id: `call_${++id}`, name, args, type: 'tool_call' as const });

  const functionTool = toOpenAIAgentsTools([registered])[0];
  if (functionTool === undefined) throw new Error('no Agents SDK tool');
  const agentsFloor = agentsTool({
    name: `${functionTool.name}_floor`,
    description: registered.description || 'echo',
    parameters: functionTool.parameters as never,
    strict: false,
    execute: async (input) => JSON.stringify(await execute(input as Record<string, unknown>)),
  });
  const runContext = new RunContext();
  const invoke = (target: typeof functionTool) => () =>
    invokeFunctionTool({
      tool: target,
      runContext,
      input: argsJson,
      details: {
        toolCall: { type: 'function_call', callId: `call_${++id}`, name: target.name, arguments: argsJson },
      },
    });

  const mastraExecute = toMastraTool(registered).execute;
  const mastraFloor = createTool({
    id: 'echo_floor',
    description: registered.description || 'echo',
    inputSchema: registered.inputSchema as never,
    execute: async (input: unknown) => JSON.stringify(await execute(input as Record<string, unknown>)),
  }).execute;
  if (mastraExecute === undefined || mastraFloor === undefined) throw new Error('no Mastra tool');

  const sides: Record<string, Call> = {
    direct: () => execute(args),
    'ai-sdk': async () => {
      const toolCallId = `call_${++id}`;
      const output = await aiExecute(args, { toolCallId, messages: [], abortSignal: abort.signal });
      return toModelOutput({ toolCallId, input: args, output });
    },
    langchain: () => langChainTool.invoke(toolCall(langChainTool.name)),
    'langchain-floor': () => langChainFloor.invoke(toolCall(langChainFloor.name)),
    'openai-agents': invoke(functionTool),
    'openai-agents-floor': invoke(agentsFloor as never),
    mastra: () => mastraExecute(args, { toolCallId: `call_${++id}`, messages: [] } as never),
    'mastra-floor': () => mastraFloor(args as never, { toolCallId: `call_${++id}`, messages: [] } as never),
  };
  if (mcpServer) sides['openai-agents-mcp'] = () => mcpServer.callTool(registered.name, args);
  return sides;
}

const floors: Record<string, string> = {
  langchain: 'langchain-floor',
  'openai-agents': 'openai-agents-floor',
};

function percentile(sorted: number[], quantile: number): number {
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(quantile * sorted.length) - 1))] ?? Number.NaN
  );
}

async function timed(call: Call, count: number, into: number[]): Promise<void> {
  for (let index = 0; index < count; index++) {
    const started = process.hrtime.bigint();
    await call();
    into.push(Number(process.hrtime.bigint() - started) / 1000);
  }
}

/** Mean µs per call of each side on an in-process tool that answers at once. */
async function adapterOnly(): Promise<Record<string, number>> {
  const answer = { content: [{ type: 'text', text: 'Echo: bench' }] };
  const local: RegisteredTool = {
    name: 'mcp__local__echo',
    originalName: 'echo',
    server: 'local',
    description: 'Echoes back the input',
    inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
    execute: async () => answer,
  };
  const result: Record<string, number> = {};
  for (const [name, call] of Object.entries(sidesOf(local))) {
    for (let index = 0; index < inProcessCalls / 5; index++) await call();
    const started = process.hrtime.bigint();
    for (let index = 0; index < inProcessCalls; index++) await call();
    result[name] = Number((Number(process.hrtime.bigint() - started) / inProcessCalls / 1000).toFixed(2));
  }
  return result;
}

const connection = await connectMcp(
  { everything: { command: process.execPath, args: [everything, 'stdio'] } },
  { approval: 'never' },
);
try {
  const echo = connection.tools.mcp__everything__echo;
  if (echo === undefined) throw new Error('server-everything has no echo tool');
  const sides = sidesOf(echo, toOpenAIAgentsMcpServer(connection));
  // Each side must really answer the echo, so the figures are of working calls.
  for (const [name, call] of Object.entries(sides)) {
    const answer = JSON.stringify(await call());
    if (!answer.includes('bench')) throw new Error(`${name} did not echo: ${answer}`);
  }
  for (const call of Object.values(sides)) await timed(call, warmup, []);
  const names = Object.keys(sides);
  const samples: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < rounds * perRound; round++) {
    // One call of each side in turn, each side after every other equally often (turnOrder): drift
    // of the machine (and of the server, its garbage collector included) falls on every side alike.
    for (const side of turnOrder(round, names.length)) {
      const name = names[side] as string;
      await timed(sides[name] as Call, 1, samples[name] as number[]);
    }
  }
  const p50 = (name: string) =>
    percentile(
      [...(samples[name] ?? [])].sort((a, b) => a - b),
      0.5,
    );
  const figures = Object.fromEntries(
    names.map((name) => {
      const sorted = [...(samples[name] ?? [])].sort((a, b) => a - b);
      const floor = floors[name];
      return [
        name,
        {
          p50Us: Math.round(percentile(sorted, 0.5)),
          p95Us: Math.round(percentile(sorted, 0.95)),
          ratio: Number((p50(name) / p50('direct')).toFixed(3)),
          ...(floor === undefined ? {} : { overAdapterFloor: Number((p50(name) / p50(floor)).toFixed(3)) }),
        },
      ];
    }),
  );
  const inProcess = await adapterOnly();
  const calls = rounds * perRound;
  if (json) {
    console.log(
      JSON.stringify(
        { calls, rounds, warmup, node: process.version, figures, adapterOnlyUs: inProcess },
        null,
        2,
      ),
    );
  } else {
    console.log(
      `echo on server-everything (stdio): ${calls} sequential calls per side, one of each in turn, after ${warmup} warm-up calls, Node ${process.version}`,
    );
    console.log('side                   p50 µs   p95 µs   ratio   over floor   in-process µs');
    for (const [name, figure] of Object.entries(figures)) {
      const over = 'overAdapterFloor' in figure ? String(figure.overAdapterFloor) : '';
      console.log(
        `${name.padEnd(22)}${String(figure.p50Us).padStart(7)}  ${String(figure.p95Us).padStart(7)}   ${figure.ratio.toFixed(3)}   ${over.padStart(10)}   ${String(inProcess[name] ?? '').padStart(13)}`,
      );
    }
  }
} finally {
  await connection.close();
}
