/**
 * `node --import tsx bench/langchain-adapter.ts [--json] [--quick]`: the cost of the LangChain (and
 * Mastra) adapter per tool call. `echo` on server-everything over stdio, three sides in the same
 * run on the same connection, interleaved in rounds after a warm-up:
 * - direct: the registered tool's `execute` (what an application without a framework calls);
 * - langchain: the LangChain tool's `invoke` with a tool call, as LangGraph's ToolNode calls it
 *   (schema check, callbacks, result to content blocks, ToolMessage);
 * - mastra: the Mastra tool's `execute`, as Mastra's agent loop calls it.
 * ratio = adapter p50 / direct p50. Goal: langchain ≤ 1.1×.
 * Runs the built package (`dist/`, what users install); build first (`pnpm build`).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const { connectMcp } = await import('../dist/index.js');
const { toLangChainTool } = await import('../dist/langchain/index.js');
const { toMastraTool } = await import('../dist/mastra/index.js');

const json = process.argv.includes('--json');
const quick = process.argv.includes('--quick');
const totalCalls = quick ? 100 : 1000;
const rounds = 5;
const perRound = totalCalls / rounds;
const warmup = Number(process.env.BENCH_WARMUP ?? (quick ? 20 : 1000));

const require = createRequire(import.meta.url);
const everything = join(
  dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
);

interface Stats {
  p50Us: number;
  p95Us: number;
}

function percentile(sorted: number[], quantile: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(quantile * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50Us: Math.round(percentile(sorted, 0.5)), p95Us: Math.round(percentile(sorted, 0.95)) };
}

async function sequential(call: () => Promise<unknown>, count: number, into: number[]): Promise<void> {
  for (let index = 0; index < count; index++) {
    const started = performance.now();
    await call();
    into.push((performance.now() - started) * 1000);
  }
}

const connection = await connectMcp(
  { everything: { command: process.execPath, args: [everything, 'stdio'] } },
  { approval: 'never' },
);
try {
  const echo = connection.tools.mcp__everything__echo;
  if (echo?.execute === undefined) throw new Error('server-everything has no echo tool');
  const execute = echo.execute;
  const langChainTool = toLangChainTool(echo);
  const mastraTool = toMastraTool(echo);
  const mastraExecute = mastraTool.execute;
  if (mastraExecute === undefined) throw new Error('the Mastra tool has no execute');
  let id = 0;
  const sides: Record<string, () => Promise<unknown>> = {
    direct: () => execute({ message: 'hello' }),
    langchain: () =>
      langChainTool.invoke({
        id: `call_${++id}`,
        name: langChainTool.name,
        args: { message: 'hello' },
        type: 'tool_call',
      }),
    mastra: () => mastraExecute({ message: 'hello' }, { toolCallId: `call_${++id}`, messages: [] } as never),
  };
  // A check that each side really returns the echo, so the figures are of working calls.
  const [langChainResult, mastraResult] = await Promise.all([sides.langchain?.(), sides.mastra?.()]);
  if (!JSON.stringify(langChainResult).includes('hello') || !JSON.stringify(mastraResult).includes('hello')) {
    throw new Error(
      `an adapter did not return the echo: ${JSON.stringify({ langChainResult, mastraResult })}`,
    );
  }
  for (const call of Object.values(sides)) await sequential(call, warmup, []);
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(sides).map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    // Interleaved, and in a rotating order, so drift of the machine falls on every side alike.
    const names = Object.keys(sides);
    for (let turn = 0; turn < names.length; turn++) {
      const name = names[(round + turn) % names.length] as string;
      await sequential(sides[name] as () => Promise<unknown>, perRound, samples[name] as number[]);
    }
  }
  const direct = stats(samples.direct ?? []);
  const result = Object.fromEntries(
    Object.entries(samples).map(([name, values]) => {
      const side = stats(values);
      return [name, { ...side, ratio: Number((side.p50Us / direct.p50Us).toFixed(3)) }];
    }),
  );
  if (json) {
    console.log(
      JSON.stringify({ calls: totalCalls, warmup, rounds, node: process.version, result }, null, 2),
    );
  } else {
    console.log(
      `echo on server-everything (stdio): ${totalCalls} sequential calls per side, ${rounds} interleaved rounds after ${warmup} warm-up calls, Node ${process.version}`,
    );
    console.log('side        p50 µs   p95 µs   ratio (p50 / direct p50)');
    for (const [name, side] of Object.entries(result)) {
      console.log(
        `${name.padEnd(12)}${String(side.p50Us).padStart(6)}   ${String(side.p95Us).padStart(6)}   ${side.ratio}`,
      );
    }
  }
} finally {
  await connection.close();
}
