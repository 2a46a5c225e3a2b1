/**
 * `pnpm --filter @switchboard/client bench:telemetry [--json] [--quick]`: what tracing costs on the
 * stdio call path. `echo` on server-everything over stdio through `connectMcp` (`execute`:
 * validation, approval, wrapping and metrics included), three connections measured in the same
 * run, interleaved in rounds after a warm-up, sequential calls:
 * - `absent`: no telemetry at all (`telemetry: false`). This is the path a client without
 *   `@opentelemetry/api` installed takes: a failed import and `false` give the very same disabled
 *   telemetry object (the transport is watched for request ids only from a connection's first
 *   traced call on).
 * - `noProvider`: `@opentelemetry/api` loaded, nothing registered (the global no-op providers):
 *   each call checks the global providers and does nothing else — no span, no `_meta`.
 * - `provider`: a real SDK tracer provider (in-memory exporter behind a `BatchSpanProcessor`, as
 *   production runs an exporter) and meter provider, passed in options (registering them globally
 *   would trace the other sides too): a span, the trace context in `_meta`, a histogram point per
 *   call.
 * - `control`: a second `absent` connection: how far two identical sides differ in this run (the
 *   noise floor of the wall-clock figures on this machine).
 * Two figures per side: the wall-clock latency of a call (p50, p95), and the client's own CPU time
 * per call (user + system of this process over each round, divided by its calls; median over the
 * rounds), which is what telemetry adds work to and which the scheduling of the server process
 * does not move. ratio = side / absent. Goal: noProvider ≤ 1.02.
 *
 * On a busy machine the wall-clock and CPU figures of two identical sides differ by a few percent
 * (`control`), more than the no-provider step costs. So the bench also times that step by itself
 * (`checkNs`: the per-call decision with the real API loaded and nothing registered, a million
 * times) and gives it as a share of the absent side's p50 (`checkShare`), and the same step of the
 * other requests (`requestCheckNs`: what the SDK client's request funnel adds to `resources/read`,
 * `prompts/get`, the lists and the rest when nothing is registered).
 */
import * as openTelemetryApi from '@opentelemetry/api';
import {
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor, InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { serverScript, turnOrder } from '@switchboard/test-helpers';

// The built package, as the main bench (BENCH_SOURCE=src runs the source instead).
type ClientPackage = typeof import('../src/index.js');
const { connectMcp } = (await import(
  process.env.BENCH_SOURCE === 'src' ? '../src/index.js' : '../dist/index.js'
)) as ClientPackage;
type McpConnection = Awaited<ReturnType<ClientPackage['connectMcp']>>;
type ConnectOptions = NonNullable<Parameters<ClientPackage['connectMcp']>[1]>;

const json = process.argv.includes('--json');
const quick = process.argv.includes('--quick');
const rounds = quick ? 2 : 40;
const perRound = quick ? 50 : 125;
const warmup = Number(process.env.BENCH_WARMUP ?? (quick ? 20 : 2000));

const everything = serverScript('server-everything');
const message = { message: 'hello from the bench' };

type Call = () => Promise<unknown>;
interface Stats {
  p50Us: number;
  p95Us: number;
  /** The client's CPU time per call (µs), median over rounds. */
  cpuUs: number;
}

function percentile(sorted: number[], quantile: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(quantile * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

function stats(samples: number[], cpuPerCall: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const cpu = [...cpuPerCall].sort((a, b) => a - b);
  return {
    p50Us: Math.round(percentile(sorted, 0.5)),
    p95Us: Math.round(percentile(sorted, 0.95)),
    cpuUs: Number(percentile(cpu, 0.5).toFixed(1)),
  };
}

/** Runs `count` calls; returns the client CPU time per call (µs). */
async function round(call: Call, count: number, into: number[]): Promise<number> {
  const before = process.cpuUsage();
  await sequential(call, count, into);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / count;
}

async function sequential(call: Call, count: number, into: number[]): Promise<void> {
  for (let index = 0; index < count; index++) {
    const started = performance.now();
    await call();
    into.push((performance.now() - started) * 1000);
  }
}

async function side(options: ConnectOptions): Promise<{ connection: McpConnection; call: Call }> {
  const connection = await connectMcp(
    { everything: { command: process.execPath, args: [everything, 'stdio'] } },
    { approval: 'never', ...options },
  );
  const execute = connection.tools.mcp__everything__echo?.execute;
  if (execute === undefined) throw new Error('echo tool missing');
  return { connection, call: () => execute(message) };
}

/**
 * ns per request of the telemetry step with the API loaded and nothing registered: of a tool call
 * (`startToolCall`), and of any other request (`startRequest`, as the connection runs it: the
 * parent from the request's options, the provider check).
 */
async function checkNanoseconds(): Promise<{ toolCall: number; request: number }> {
  const source = process.env.BENCH_SOURCE === 'src';
  const { createRequestTelemetry } = (await import(
    source ? '../src/telemetry/request-tracing.js' : '../dist/telemetry/request-tracing.js'
  )) as typeof import('../src/telemetry/request-tracing.js');
  const telemetry = createRequestTelemetry(openTelemetryApi, undefined, {
    protocolVersion: '2025-11-25',
    networkTransport: 'pipe',
    sessionId: () => undefined,
    redact: (text: string) => text,
  });
  const request = { method: 'resources/read', params: { uri: 'demo://resource/1' } };
  const options: { traceContext?: unknown } = {};
  const steps = {
    toolCall: () => telemetry.startToolCall('echo', undefined),
    request: () => telemetry.startRequest(request.method, request.params, options.traceContext),
  };
  const times = 1_000_000;
  const result = { toolCall: 0, request: 0 };
  for (const name of ['toolCall', 'request'] as const) {
    const step = steps[name];
    let traced = 0;
    for (let index = 0; index < times / 10; index++) if (step() !== undefined) traced++;
    const started = performance.now();
    for (let index = 0; index < times; index++) if (step() !== undefined) traced++;
    const elapsed = performance.now() - started;
    if (traced > 0) throw new Error('a provider is registered: the check is not the no-provider one');
    result[name] = Number(((elapsed * 1e6) / times).toFixed(1));
  }
  return result;
}

async function main(): Promise<void> {
  const spans = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(spans)] });
  const meterProvider = new MeterProvider({
    readers: [
      new PeriodicExportingMetricReader({
        exporter: new InMemoryMetricExporter(0),
        exportIntervalMillis: 3_600_000,
      }),
    ],
  });
  const sides = {
    absent: await side({ telemetry: false }),
    control: await side({ telemetry: false }),
    noProvider: await side({}),
    provider: await side({ telemetry: { tracerProvider, meterProvider } }),
  };
  const names = Object.keys(sides) as Array<keyof typeof sides>;
  const samples = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<
    keyof typeof sides,
    number[]
  >;
  const cpu = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<
    keyof typeof sides,
    number[]
  >;
  try {
    for (const name of names) await sequential(sides[name].call, warmup, []);
    spans.reset();
    for (let index = 0; index < rounds; index++) {
      // Each side goes first, and follows every other, equally often (turnOrder).
      for (const side of turnOrder(index, names.length)) {
        const name = names[side] as keyof typeof sides;
        cpu[name].push(await round(sides[name].call, perRound, samples[name]));
      }
      // The exporter keeps every span: drop them between rounds (outside the timed calls).
      spans.reset();
    }
  } finally {
    await Promise.all(names.map((name) => sides[name].connection.close()));
  }
  const result = Object.fromEntries(names.map((name) => [name, stats(samples[name], cpu[name])])) as Record<
    keyof typeof sides,
    Stats
  >;
  const ratio = (name: keyof typeof sides) => Number((result[name].p50Us / result.absent.p50Us).toFixed(3));
  const cpuRatio = (name: keyof typeof sides) =>
    Number((result[name].cpuUs / result.absent.cpuUs).toFixed(3));
  const checks = await checkNanoseconds();
  const checkNs = checks.toolCall;
  const checkShare = Number(((checkNs / 1000 / result.absent.p50Us) * 100).toFixed(3));
  if (json) {
    console.log(
      JSON.stringify({
        ...result,
        ratios: Object.fromEntries(names.map((name) => [name, { p50: ratio(name), cpu: cpuRatio(name) }])),
        checkNs,
        checkSharePercent: checkShare,
        requestCheckNs: checks.request,
      }),
    );
    return;
  }
  console.log(
    `echo on server-everything over stdio via connectMcp: ${rounds * perRound} sequential calls per side, ${rounds} interleaved rounds after ${warmup} warm-up calls`,
  );
  console.log('baseline: absent (no telemetry at all); ratio = side / absent\n');
  console.log('side        p50       p95       ratio   cpu/call  ratio');
  for (const name of names) {
    const us = (value: number) => `${value} µs`.padEnd(10);
    console.log(
      `${name.padEnd(12)}${us(result[name].p50Us)}${us(result[name].p95Us)}${String(ratio(name)).padEnd(8)}${us(result[name].cpuUs)}${cpuRatio(name)}`,
    );
  }
  console.log('\ncontrol is a second absent side: its ratios are the noise floor of this run.');
  console.log(
    `the no-provider step alone: ${checkNs} ns per call = ${checkShare} % of the absent p50 (API loaded, nothing registered)`,
  );
  console.log(
    `the same step of any other request (resources/read, prompts/get, lists, …): ${checks.request} ns per request`,
  );
  console.log('goal: noProvider ratio ≤ 1.02');
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
