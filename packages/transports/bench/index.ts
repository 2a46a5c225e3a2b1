/**
 * Transport bench: per-call latency of `echo` on server-everything through the SDK (v2) `Client`, over
 * Switchboard's transports vs the SDK's own (`StreamableHTTPClientTransport`,
 * `StdioClientTransport`), measured in the same run, interleaved in rounds after a warm-up. Also the
 * client-side CPU per call, and the cost of the stdio watchdog on connect time.
 *
 *   pnpm --filter @switchboard/transports bench [--json] [--calls 1000] [--rounds 10]
 */
import { Client, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { serverScript, startEverythingHttp } from '@switchboard/test-helpers';
import { createStreamableHttpTransport } from '../src/index.js';
import { startProcessGroupWatchdog } from '../src/process-group-watchdog.js';
import { createStdioTransport } from '../src/stdio.js';

const argv = process.argv.slice(2);
const json = argv.includes('--json');
const option = (name: string, fallback: number): number => {
  const index = argv.indexOf(name);
  return index === -1 ? fallback : Number(argv[index + 1]);
};
const totalCalls = option('--calls', 1000);
const rounds = option('--rounds', 10);
const warmupCalls = option('--warmup', 200);
const connectSamples = option('--connects', 5);

const entry = serverScript('server-everything');

function log(message: string): void {
  if (!json) process.stderr.write(`${message}\n`);
}

function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!;
}

interface Summary {
  p50Us: number;
  p95Us: number;
  cpuUsPerCall: number;
}

function summarize(samples: number[], cpuMicros: number): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    p50Us: Math.round(percentile(sorted, 0.5)),
    p95Us: Math.round(percentile(sorted, 0.95)),
    cpuUsPerCall: Math.round(cpuMicros / samples.length),
  };
}

async function connectClient(transport: Transport): Promise<Client> {
  const client = new Client({ name: 'transports-bench', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

async function callEcho(client: Client, count: number, samples?: number[]): Promise<number> {
  const cpuBefore = process.cpuUsage();
  for (let index = 0; index < count; index++) {
    const start = process.hrtime.bigint();
    await client.callTool({ name: 'echo', arguments: { message: `bench ${index}` } });
    samples?.push(Number(process.hrtime.bigint() - start) / 1000);
  }
  const cpu = process.cpuUsage(cpuBefore);
  return cpu.user + cpu.system;
}

/** Interleaved rounds: the order alternates so neither side always runs on a warmer machine. */
async function compare(
  ours: Client,
  sdk: Client,
): Promise<{ switchboard: Summary; sdk: Summary; ratio: number }> {
  await callEcho(ours, warmupCalls);
  await callEcho(sdk, warmupCalls);
  const perRound = Math.max(1, Math.floor(totalCalls / rounds));
  const samples = { ours: [] as number[], sdk: [] as number[] };
  const cpu = { ours: 0, sdk: 0 };
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? (['ours', 'sdk'] as const) : (['sdk', 'ours'] as const);
    for (const side of order) {
      cpu[side] += await callEcho(side === 'ours' ? ours : sdk, perRound, samples[side]);
    }
  }
  const switchboard = summarize(samples.ours, cpu.ours);
  const baseline = summarize(samples.sdk, cpu.sdk);
  return { switchboard, sdk: baseline, ratio: Number((switchboard.p50Us / baseline.p50Us).toFixed(3)) };
}

async function benchHttp() {
  const server = await startEverythingHttp('streamableHttp');
  try {
    const url = server.url;
    const ours = await connectClient(createStreamableHttpTransport({ url }));
    const sdk = await connectClient(new StreamableHTTPClientTransport(new URL(url)));
    log('http: measuring...');
    const result = await compare(ours, sdk);
    await ours.close();
    await sdk.close();
    return result;
  } finally {
    await server.close();
  }
}

async function benchStdio() {
  const ours = await connectClient(
    createStdioTransport({ command: process.execPath, args: [entry, 'stdio'] }),
  );
  const sdk = await connectClient(
    new StdioClientTransport({ command: process.execPath, args: [entry, 'stdio'], stderr: 'pipe' }),
  );
  log('stdio: measuring...');
  const result = await compare(ours, sdk);
  await ours.close();
  await sdk.close();
  return result;
}

/** Spawn + initialize time: ours with and without the watchdog, and the SDK's, interleaved. */
async function benchConnect() {
  const samples = { watchdog: [] as number[], noWatchdog: [] as number[], sdk: [] as number[] };
  const factories: Record<keyof typeof samples, () => Transport> = {
    watchdog: () => createStdioTransport({ command: process.execPath, args: [entry, 'stdio'] }),
    noWatchdog: () =>
      createStdioTransport({ command: process.execPath, args: [entry, 'stdio'], watchdog: false }),
    sdk: () =>
      new StdioClientTransport({ command: process.execPath, args: [entry, 'stdio'], stderr: 'pipe' }),
  };
  for (let sample = 0; sample < connectSamples; sample++) {
    for (const side of Object.keys(factories) as Array<keyof typeof samples>) {
      const start = performance.now();
      const client = await connectClient(factories[side]());
      samples[side].push((performance.now() - start) * 1000);
      await client.close();
    }
  }
  const median = (values: number[]) =>
    Math.round(
      percentile(
        [...values].sort((a, b) => a - b),
        0.5,
      ) / 1000,
    );
  // The watchdog's own cost, without the noise of a server start: one synchronous `sh` spawn.
  const watchdogSpawns: number[] = [];
  for (let sample = 0; sample < 20; sample++) {
    const start = performance.now();
    startProcessGroupWatchdog(5000).release();
    watchdogSpawns.push((performance.now() - start) * 1000);
  }
  return {
    watchdogSpawnUs: Math.round(
      percentile(
        [...watchdogSpawns].sort((a, b) => a - b),
        0.5,
      ),
    ),
    watchdogMs: median(samples.watchdog),
    noWatchdogMs: median(samples.noWatchdog),
    sdkMs: median(samples.sdk),
  };
}

const stdio = await benchStdio();
const http = await benchHttp();
log('stdio connect: measuring...');
const connect = await benchConnect();
const result = { calls: totalCalls, rounds, stdio, http, stdioConnect: connect };

if (json) {
  process.stdout.write(`${JSON.stringify(result)}\n`);
} else {
  const row = (name: string, summary: Summary) =>
    `  ${name.padEnd(12)} p50 ${String(summary.p50Us).padStart(6)} µs   p95 ${String(summary.p95Us).padStart(6)} µs   client CPU ${String(summary.cpuUsPerCall).padStart(5)} µs/call`;
  console.log(
    `echo on server-everything, ${totalCalls} sequential calls per side in ${rounds} interleaved rounds`,
  );
  for (const [name, entryResult] of [
    ['stdio', stdio],
    ['http', http],
  ] as const) {
    console.log(
      `${name}  (baseline: SDK ${name === 'http' ? 'StreamableHTTPClientTransport' : 'StdioClientTransport'})`,
    );
    console.log(row('switchboard', entryResult.switchboard));
    console.log(row('sdk', entryResult.sdk));
    console.log(`  ratio (switchboard p50 / sdk p50): ${entryResult.ratio}`);
  }
  console.log(
    `stdio spawn + initialize, median of ${connectSamples}: switchboard ${connect.watchdogMs} ms (watchdog), ${connect.noWatchdogMs} ms (no watchdog); sdk ${connect.sdkMs} ms; the watchdog's spawn alone ${connect.watchdogSpawnUs} µs (it is not on the message path)`,
  );
}
