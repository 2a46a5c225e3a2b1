/**
 * `pnpm --filter @switchboard/client bench [--json]`: `echo` against server-everything over stdio
 * and Streamable HTTP, Switchboard's `execute` (validation, approval, wrapping, metrics included)
 * vs the raw SDK `Client.callTool` on the same server in the same run. 1,000 sequential and 1,000
 * concurrent (16 in flight) calls per side, interleaved in rounds after a warm-up.
 * ratio = switchboard p50 / sdk p50 (sequential).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { connectMcp, type McpConnection } from '../src/index.js';

const json = process.argv.includes('--json');
const totalCalls = 1000;
const rounds = 5;
const perRound = totalCalls / rounds;
const concurrency = 16;
const warmup = 200;

const require = createRequire(import.meta.url);
const everything = join(
  dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
);

type Call = () => Promise<unknown>;

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

async function sequential(call: Call, count: number, into: number[]): Promise<void> {
  for (let index = 0; index < count; index++) {
    const started = performance.now();
    await call();
    into.push((performance.now() - started) * 1000);
  }
}

async function concurrent(call: Call, count: number, into: number[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      const started = performance.now();
      await call();
      into.push((performance.now() - started) * 1000);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

interface Sides {
  sdk: Call;
  switchboard: Call;
}

interface ModeResult {
  sdk: Stats;
  switchboard: Stats;
  ratio: number;
}

async function measure(sides: Sides): Promise<{ sequential: ModeResult; concurrent: ModeResult }> {
  await sequential(sides.sdk, warmup, []);
  await sequential(sides.switchboard, warmup, []);
  const samples = {
    sequential: { sdk: [] as number[], switchboard: [] as number[] },
    concurrent: { sdk: [] as number[], switchboard: [] as number[] },
  };
  for (let round = 0; round < rounds; round++) {
    // Alternate who goes first so neither side always runs on a warmer (or busier) machine.
    const order: Array<keyof Sides> = round % 2 === 0 ? ['sdk', 'switchboard'] : ['switchboard', 'sdk'];
    for (const side of order) await sequential(sides[side], perRound, samples.sequential[side]);
    for (const side of order) await concurrent(sides[side], perRound, samples.concurrent[side]);
  }
  const summarise = (mode: 'sequential' | 'concurrent'): ModeResult => {
    const sdk = stats(samples[mode].sdk);
    const switchboard = stats(samples[mode].switchboard);
    return { sdk, switchboard, ratio: Number((switchboard.p50Us / sdk.p50Us).toFixed(3)) };
  };
  return { sequential: summarise('sequential'), concurrent: summarise('concurrent') };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function startHttpServer(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [everything, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (/listening/i.test(seen)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`server-everything exited (${code}): ${seen}`)));
  });
  child.stderr?.resume();
  return { url: `http://127.0.0.1:${port}/mcp`, child };
}

const message = { message: 'hello from the bench' };

async function switchboardSide(
  servers: Parameters<typeof connectMcp>[0],
): Promise<{ connection: McpConnection; call: Call }> {
  const connection = await connectMcp(servers, { approval: 'never' });
  const tool = connection.tools.mcp__everything__echo;
  if (!tool?.execute) throw new Error('echo tool missing');
  const execute = tool.execute;
  return { connection, call: () => execute(message) };
}

async function sdkSide(
  transport: StdioClientTransport | StreamableHTTPClientTransport,
): Promise<{ client: Client; call: Call }> {
  const client = new Client({ name: 'bench-sdk', version: '0.0.0' });
  await client.connect(transport);
  await client.listTools();
  return { client, call: () => client.callTool({ name: 'echo', arguments: message }) };
}

async function main(): Promise<void> {
  const results: Record<string, { sequential: ModeResult; concurrent: ModeResult }> = {};

  {
    const sdk = await sdkSide(
      new StdioClientTransport({ command: process.execPath, args: [everything, 'stdio'], stderr: 'ignore' }),
    );
    const switchboard = await switchboardSide({
      everything: { command: process.execPath, args: [everything, 'stdio'] },
    });
    try {
      results.stdio = await measure({ sdk: sdk.call, switchboard: switchboard.call });
    } finally {
      await sdk.client.close();
      await switchboard.connection.close();
    }
  }

  {
    const server = await startHttpServer();
    try {
      const sdk = await sdkSide(new StreamableHTTPClientTransport(new URL(server.url)));
      const switchboard = await switchboardSide({ everything: { url: server.url } });
      try {
        results.http = await measure({ sdk: sdk.call, switchboard: switchboard.call });
      } finally {
        await sdk.client.close();
        await switchboard.connection.close();
      }
    } finally {
      server.child.kill('SIGKILL');
    }
  }

  if (json) {
    const out: Record<string, unknown> = {};
    for (const [transport, result] of Object.entries(results)) {
      out[transport] = {
        sdk: result.sequential.sdk,
        switchboard: result.sequential.switchboard,
        ratio: result.sequential.ratio,
        concurrent: result.concurrent,
      };
    }
    console.log(JSON.stringify(out));
    return;
  }
  console.log(
    `echo on server-everything: ${totalCalls} sequential + ${totalCalls} concurrent (${concurrency} in flight) calls per side, ${rounds} interleaved rounds after ${warmup} warm-up calls`,
  );
  console.log(
    'baseline: raw SDK Client.callTool (same server, same run); ratio = switchboard p50 / sdk p50\n',
  );
  console.log('transport  mode        sdk p50   sdk p95   sb p50    sb p95    ratio');
  for (const [transport, result] of Object.entries(results)) {
    for (const mode of ['sequential', 'concurrent'] as const) {
      const row = result[mode];
      const us = (value: number) => `${value} µs`.padEnd(10);
      console.log(
        `${transport.padEnd(11)}${mode.padEnd(12)}${us(row.sdk.p50Us)}${us(row.sdk.p95Us)}${us(row.switchboard.p50Us)}${us(row.switchboard.p95Us)}${row.ratio}`,
      );
    }
  }
  console.log('\ntargets (sequential): stdio ratio ≤ 1.0, http ratio ≤ 0.5');
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
