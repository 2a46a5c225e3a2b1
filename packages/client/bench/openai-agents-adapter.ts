/**
 * `node --import tsx bench/openai-agents-adapter.ts [--json] [--quick]`: the overhead of the
 * OpenAI Agents SDK adapter per tool call. `echo` on server-everything over stdio, three ways in
 * the same run, interleaved in rounds after a warm-up:
 * - `direct`: the registered tool's `execute` (what the adapter wraps);
 * - `functionTool`: the function tool of `toOpenAIAgentsTools`, called the way the SDK's runner
 *   calls it (`invokeFunctionTool`: JSON argument string, run context, call details), through to
 *   the SDK's tool output;
 * - `sdkPlain`: a hand-written SDK function tool whose `execute` calls the registered tool's
 *   `execute`, invoked the same way: what the SDK's own invocation costs, without the adapter;
 * - `mcpServer`: `callTool` of `toOpenAIAgentsMcpServer`, as the SDK's MCP tool calls it.
 * ratio = side p50 / direct p50; `adapterRatio` = functionTool p50 / sdkPlain p50 (the adapter's
 * own share). Goal: ≤ 1.1.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { invokeFunctionTool, RunContext, tool } from '@openai/agents';

// The built package, as users install it (see bench/index.ts); BENCH_SOURCE=src runs the source.
type ClientPackage = typeof import('../src/index.js');
type AdapterPackage = typeof import('../src/openai-agents/index.js');
const source = process.env.BENCH_SOURCE === 'src';
const { connectMcp } = (await import(source ? '../src/index.js' : '../dist/index.js')) as ClientPackage;
const { toOpenAIAgentsMcpServer, toOpenAIAgentsTools } = (await import(
  source ? '../src/openai-agents/index.js' : '../dist/openai-agents/index.js'
)) as AdapterPackage;

const json = process.argv.includes('--json');
const quick = process.argv.includes('--quick');
const totalCalls = quick ? 100 : 1000;
const rounds = 5;
const warmup = quick ? 20 : 1000;

const require = createRequire(import.meta.url);
const everything = join(
  dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
);

const connection = await connectMcp(
  { everything: { command: process.execPath, args: [everything, 'stdio'] } },
  { approval: 'never' },
);
const registered = connection.tools.mcp__everything__echo!;
const functionTool = toOpenAIAgentsTools([registered])[0]!;
const server = toOpenAIAgentsMcpServer(connection);
const runContext = new RunContext();
const args = { message: 'bench' };
const input = JSON.stringify(args);
let callId = 0;
const plainTool = tool({
  name: 'echo_plain',
  description: registered.description ?? 'echo',
  parameters: functionTool.parameters as never,
  strict: false,
  execute: (value) => registered.execute!(value as Record<string, unknown>),
});
const invoke = (target: typeof functionTool) => () =>
  invokeFunctionTool({
    tool: target,
    runContext,
    input,
    details: {
      toolCall: { type: 'function_call', callId: `call_${++callId}`, name: target.name, arguments: input },
    },
  });

const sides: Record<string, () => Promise<unknown>> = {
  direct: () => registered.execute!(args),
  functionTool: invoke(functionTool),
  sdkPlain: invoke(plainTool as never),
  mcpServer: () => server.callTool('mcp__everything__echo', args),
};

async function time(call: () => Promise<unknown>, count: number, into: number[]): Promise<void> {
  for (let index = 0; index < count; index++) {
    const started = performance.now();
    await call();
    into.push(performance.now() - started);
  }
}

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

try {
  // Checks first that each side answers the echo, so the figures are of working calls.
  for (const [name, call] of Object.entries(sides)) {
    const answer = JSON.stringify(await call());
    if (!answer.includes('bench')) throw new Error(`${name} did not echo: ${answer}`);
  }
  for (const call of Object.values(sides)) await time(call, warmup, []);
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(sides).map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const [name, call] of Object.entries(sides)) await time(call, totalCalls / rounds, samples[name]!);
  }
  const directP50 = percentile(samples.direct!, 50);
  const figures = Object.fromEntries(
    Object.entries(samples).map(([name, values]) => [
      name,
      {
        p50Ms: Number(percentile(values, 50).toFixed(4)),
        p95Ms: Number(percentile(values, 95).toFixed(4)),
        ratio: Number((percentile(values, 50) / directP50).toFixed(3)),
      },
    ]),
  );
  const adapterRatio = Number(
    (percentile(samples.functionTool!, 50) / percentile(samples.sdkPlain!, 50)).toFixed(3),
  );
  if (json) console.log(JSON.stringify({ calls: totalCalls, warmup, figures, adapterRatio }, null, 2));
  else {
    console.log(
      `OpenAI Agents SDK adapter: echo over stdio, ${totalCalls} sequential calls per side (${warmup} warm-up)`,
    );
    console.log('side           p50 ms   p95 ms   ratio (p50 / direct)');
    for (const [name, figure] of Object.entries(figures)) {
      console.log(
        `${name.padEnd(14)} ${figure.p50Ms.toFixed(3).padStart(7)}  ${figure.p95Ms.toFixed(3).padStart(7)}   ${figure.ratio.toFixed(3)}`,
      );
    }
  }
} finally {
  await connection.close();
}
