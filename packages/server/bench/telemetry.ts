/**
 * `pnpm --filter @switchboard/server bench:telemetry [--json]`: what tracing costs on the server's
 * request path, measured in-process (no wire, so the figure is the server's own work and the noise
 * of pipes and sockets stays out): a 2025-era `tools/call` of a synchronous `echo` handed to the
 * dispatcher, as every transport hands it, on three servers in the same run, interleaved in rounds
 * after a warm-up:
 * - `absent`: `telemetry: false`, the path of a server without `@opentelemetry/api` installed (the
 *   same disabled telemetry object);
 * - `noProvider`: the API loaded, nothing registered (the global no-op providers);
 * - `provider`: a real SDK tracer provider (in-memory exporter, `BatchSpanProcessor`) and meter
 *   provider passed in options: a SERVER span and a histogram point per request, the caller's
 *   `traceparent` read from `_meta`;
 * - `providerSimple`: the same with a `SimpleSpanProcessor` (each span exported as it ends).
 * Per side: the median over rounds of the mean ns per dispatch. Measured in two phases, the
 * untraced sides first (ratio noProvider / absent), then the traced ones against absent again (the
 * ns a span and a measurement add).
 */
import {
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { loadOpenTelemetry } from '@switchboard/core';
import { turnOrder } from '@switchboard/test-helpers';
import { z } from 'zod';

type ServerPackage = typeof import('../src/index.js');
const source = process.env.BENCH_SOURCE === 'src';
const { createMcpServer, defineTool } = (await import(
  source ? '../src/index.js' : '../dist/index.js'
)) as ServerPackage;
const { CallAbort } = (await import(
  source ? '../src/cancellation/call-abort.js' : '../dist/cancellation/call-abort.js'
)) as typeof import('../src/cancellation/call-abort.js');

const json = process.argv.includes('--json');
const rounds = 30;
const perRound = 20_000;
const warmup = 100_000;

const spans = new InMemorySpanExporter();
// What production runs (spans exported in batches, off the request path), and what tests and
// development often run (each span exported as it ends, through a few promises).
const batchTracerProvider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(spans)] });
const simpleTracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
const meterProvider = new MeterProvider({
  readers: [
    new PeriodicExportingMetricReader({
      exporter: new InMemoryMetricExporter(0),
      exportIntervalMillis: 3_600_000,
    }),
  ],
});

const echoServer = (telemetry: Parameters<ServerPackage['createMcpServer']>[0]['telemetry']) =>
  createMcpServer({
    name: 'bench-echo',
    version: '1.0.0',
    ...(telemetry === undefined ? {} : { telemetry }),
    tools: [
      defineTool({
        name: 'echo',
        description: 'Echoes back the input',
        input: z.object({ message: z.string() }),
        execute: ({ message }) => `Echo: ${message}`,
      }),
    ],
  });

const servers = {
  absent: echoServer(false),
  noProvider: echoServer(undefined),
  provider: echoServer({ tracerProvider: batchTracerProvider, meterProvider }),
  providerSimple: echoServer({ tracerProvider: simpleTracerProvider, meterProvider }),
};
await loadOpenTelemetry();
type Side = keyof typeof servers;
const meta = { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' };
const silent = { notify() {} };

/** `count` dispatches of a `tools/call` of echo; ns per dispatch. */
async function dispatchMany(name: Side, count: number): Promise<number> {
  const dispatcher = servers[name].dispatcher;
  const started = process.hrtime.bigint();
  for (let index = 0; index < count; index++) {
    const answer = dispatcher.dispatch({
      id: index,
      method: 'tools/call',
      params: { name: 'echo', arguments: { message: 'hello' }, _meta: meta },
      era: 'legacy',
      transport: 'stdio',
      abort: new CallAbort(),
      channel: silent,
    });
    if (answer === undefined || 'then' in answer) throw new Error('echo answers synchronously');
    // A server yields between requests: the SDK settles its exports (promises) then. Without that,
    // a loop of thousands of synchronous dispatches only measures the garbage piling up.
    if (index % 100 === 99) await undefined;
    // The in-memory exporter keeps every span: drop them often, for the same reason.
    if (index % 1000 === 999) spans.reset();
  }
  return Number(process.hrtime.bigint() - started) / count;
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** Warms `sides`, then runs them interleaved; the median ns per dispatch of each. */
async function measure(sides: Side[]): Promise<Partial<Record<Side, number>>> {
  for (const name of sides) await dispatchMany(name, warmup);
  const samples = new Map<Side, number[]>(sides.map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const turn of turnOrder(round, sides.length)) {
      const name = sides[turn] as Side;
      samples.get(name)?.push(await dispatchMany(name, perRound));
    }
  }
  return Object.fromEntries(sides.map((name) => [name, Math.round(median(samples.get(name) ?? []))]));
}

// Phase 1 first, before any span exists in the process: a provider's garbage and the traced
// requests' other shapes slow every side measured after them, the absent one included.
const quiet = await measure(['absent', 'noProvider']);
const traced = await measure(['absent', 'provider', 'providerSimple']);
const ratio = (side: number | undefined, base: number | undefined) =>
  Number(((side ?? Number.NaN) / (base ?? Number.NaN)).toFixed(3));
const report = {
  withoutProvider: { nsPerDispatch: quiet, noProviderRatio: ratio(quiet.noProvider, quiet.absent) },
  withProvider: {
    nsPerDispatch: traced,
    addedNs: {
      provider: (traced.provider ?? 0) - (traced.absent ?? 0),
      providerSimple: (traced.providerSimple ?? 0) - (traced.absent ?? 0),
    },
  },
};
if (json) {
  console.log(JSON.stringify(report));
} else {
  console.log(
    `tools/call of a synchronous echo handed to the dispatcher in-process: ${rounds} interleaved rounds of ${perRound} per side after ${warmup} warm-up`,
  );
  console.log(
    `phase 1, no span in the process yet: absent ${quiet.absent} ns, noProvider ${quiet.noProvider} ns per dispatch → ratio ${report.withoutProvider.noProviderRatio} (+${(quiet.noProvider ?? 0) - (quiet.absent ?? 0)} ns)`,
  );
  console.log(
    `phase 2, traced: absent ${traced.absent} ns, provider (BatchSpanProcessor) ${traced.provider} ns (+${report.withProvider.addedNs.provider}), providerSimple (SimpleSpanProcessor) ${traced.providerSimple} ns (+${report.withProvider.addedNs.providerSimple})`,
  );
}
process.exit(0);
