/**
 * `node --import tsx bench/ai-sdk-adapter.ts [--json] [--quick]` (after `pnpm build`): the AI SDK
 * adapter's cost per tool call. `echo` on server-everything over stdio, called two ways in the
 * same run, interleaved in rounds after a warm-up:
 * - direct: the connection's `tool.execute(args)` (validation, approval, result wrapping);
 * - ai-sdk: what the AI SDK does with a tool of `toAISDKTools` — `execute(input, options)` with
 *   its call options (tool call id, messages, abort signal), then `toModelOutput` on the result.
 * ratio = ai-sdk p50 / direct p50. Goal: ≤ 1.1.
 *
 * Over stdio a call's time is mostly the pipe and the server, and on a busy machine their noise
 * is larger than the adapter, so a second figure shows the adapter alone: the same two ways on an
 * in-process tool that answers at once (`adapterOnly`, mean µs per call over 100,000 calls).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

// The built package, as users install it; BENCH_SOURCE=src runs the source instead.
type ClientPackage = typeof import('../src/index.js');
type AISDKPackage = typeof import('../src/ai-sdk/index.js');
const source = process.env.BENCH_SOURCE === 'src';
const { connectMcp } = (await import(source ? '../src/index.js' : '../dist/index.js')) as ClientPackage;
const { toAISDKTools } = (await import(
  source ? '../src/ai-sdk/index.js' : '../dist/ai-sdk/index.js'
)) as AISDKPackage;

const json = process.argv.includes('--json');
const quick = process.argv.includes('--quick');
const totalCalls = quick ? 100 : 2000;
const rounds = 20;
const perRound = totalCalls / rounds;
const warmup = quick ? 20 : 1000;

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

async function timed(call: () => Promise<unknown>, samples: number[], count: number): Promise<void> {
  for (let index = 0; index < count; index++) {
    const start = process.hrtime.bigint();
    await call();
    samples.push(Number(process.hrtime.bigint() - start) / 1000);
  }
}

/** The adapter's own time per call: an in-process tool answering at once, direct vs through the AI SDK tool. */
async function adapterOnly(): Promise<{ directUs: number; aiSdkUs: number }> {
  const raw = { content: [{ type: 'text', text: 'Echo: bench' }] };
  const execute = async () => raw;
  const local = {
    name: 'echo',
    originalName: 'echo',
    server: 'local',
    description: 'Echoes',
    inputSchema: { type: 'object', properties: { message: { type: 'string' } } },
    execute,
  };
  const aiTool = toAISDKTools([local]).echo;
  if (aiTool?.execute === undefined || aiTool.toModelOutput === undefined) throw new Error('no local echo');
  const { execute: aiExecute, toModelOutput } = aiTool;
  const input = { message: 'bench' };
  const viaAISDK = async () =>
    toModelOutput({
      toolCallId: 'call',
      input,
      output: await aiExecute(input, { toolCallId: 'call', messages: [] }),
    });
  const mean = async (call: () => Promise<unknown>) => {
    const count = quick ? 10_000 : 100_000;
    for (let index = 0; index < count / 2; index++) await call();
    const start = process.hrtime.bigint();
    for (let index = 0; index < count; index++) await call();
    return Number((Number(process.hrtime.bigint() - start) / count / 1000).toFixed(3));
  };
  return { directUs: await mean(execute), aiSdkUs: await mean(viaAISDK) };
}

const connection = await connectMcp(
  { everything: { command: process.execPath, args: [everything, 'stdio'] } },
  { approval: 'never' },
);
try {
  const name = 'mcp__everything__echo';
  const tool = connection.tools[name];
  const aiTool = toAISDKTools(connection)[name];
  if (tool?.execute === undefined || aiTool?.execute === undefined || aiTool.toModelOutput === undefined) {
    throw new Error(`server-everything has no ${name}`);
  }
  const execute = tool.execute;
  const aiExecute = aiTool.execute;
  const toModelOutput = aiTool.toModelOutput;
  const input = { message: 'bench' };
  const abort = new AbortController();
  let callId = 0;
  const direct = () => execute(input);
  const viaAISDK = async () => {
    const toolCallId = `call-${++callId}`;
    const output = await aiExecute(input, { toolCallId, messages: [], abortSignal: abort.signal });
    return toModelOutput({ toolCallId, input, output });
  };

  // Both sides must answer the same before their times mean anything.
  const check = (await viaAISDK()) as { type: string; value: unknown };
  if (check.type !== 'text' || check.value !== 'Echo: bench')
    throw new Error(`unexpected output ${JSON.stringify(check)}`);

  await timed(direct, [], warmup);
  await timed(viaAISDK, [], warmup);
  const directSamples: number[] = [];
  const aiSamples: number[] = [];
  for (let round = 0; round < rounds; round++) {
    // Alternating which side goes first, so neither always runs on a warmer process.
    if (round % 2 === 0) {
      await timed(direct, directSamples, perRound);
      await timed(viaAISDK, aiSamples, perRound);
    } else {
      await timed(viaAISDK, aiSamples, perRound);
      await timed(direct, directSamples, perRound);
    }
  }
  const result = {
    calls: totalCalls,
    transport: 'stdio',
    tool: 'echo',
    direct: stats(directSamples),
    aiSdk: stats(aiSamples),
    ratio: Number((stats(aiSamples).p50Us / stats(directSamples).p50Us).toFixed(3)),
    ratioP95: Number((stats(aiSamples).p95Us / stats(directSamples).p95Us).toFixed(3)),
    goal: 1.1,
    adapterOnly: await adapterOnly(),
  };
  if (json) {
    console.log(JSON.stringify(result, null, 2));
  } else {
    const us = (value: number) => `${value} µs`.padEnd(10);
    console.log(`AI SDK adapter overhead: ${totalCalls} sequential echo calls per side over stdio`);
    console.log('side      p50       p95');
    console.log(`direct    ${us(result.direct.p50Us)}${us(result.direct.p95Us)}`);
    console.log(`ai-sdk    ${us(result.aiSdk.p50Us)}${us(result.aiSdk.p95Us)}`);
    console.log(`ratio (p50) ${result.ratio} (p95 ${result.ratioP95}), goal ≤ ${result.goal}`);
    console.log(
      `adapter alone (in-process tool): direct ${result.adapterOnly.directUs} µs, ai-sdk ${result.adapterOnly.aiSdkUs} µs per call`,
    );
  }
} finally {
  await connection.close();
}
