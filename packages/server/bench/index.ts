/**
 * `pnpm --filter @switchboard/server bench [--json]`: echo round trips, interleaved in rounds after
 * a warm-up, in one run:
 * - server cost over HTTP, 2025 era: a minimal keep-alive client posting JSON-RPC against our server
 *   (stateless JSON mode, session mode) and against server-everything (SDK defaults, Streamable HTTP);
 *   and, as the floor no server can beat, against a bare `node:http` echo (`floor-server.ts`);
 * - server cost over HTTP, 2026-07-28 era: the same client posting 2026-07-28 requests (`_meta`
 *   envelope, standard headers) to our stateless server and to the SDK v2's `createMcpHandler`
 *   (`sdk-v2-server.ts`), with the floor in the same rounds, and a second floor, `minimal`
 *   (`minimal-modern-server.ts`): bare `node:http` doing only what a correct 2026-07-28 server
 *   must for this call (the standard headers checked against the body, the argument checked, the
 *   revision's result shape), so `overFloor.minimal` says how much of our distance to the bare
 *   floor the revision itself costs;
 * - server cost over stdio: the same minimal client against both servers;
 * - full stack, 2025 era: @switchboard/client (pinned to 2025-11-25) → our server vs the raw SDK
 *   client (v1) → server-everything;
 * - full stack, 2026-07-28: @switchboard/client → our server vs the SDK v2 client pinned to
 *   2026-07-28 → the SDK v2 `createMcpHandler` server.
 * ratio = our best p50 / reference p50 (lower is better); http.floorRatio = floor p50 / reference p50;
 * overFloor = ours over the floor (how far above what `node:http` itself costs), paired by round:
 * the median of each round's p50 ratio, and `…Cpu` the same for the server process's own CPU per
 * call (read from Linux's scheduler statistics between rounds; see `process-cpu.ts`).
 *
 * `BENCH_BASE=<another checkout's packages/server, built>` adds a `base` row (its stateless echo
 * server) to both HTTP tables, measured in the same rounds: before and after in one run.
 * `--http-only` skips the stdio and full-stack tables.
 *
 * `bench --scale [--json]` runs `scale.ts` instead: replicas behind nginx against one replica direct.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as StreamableHTTPClientTransportV2,
} from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createMcpClient } from '@switchboard/client';
import { freePort, serverScript } from '@switchboard/test-helpers';
import { createHttpPoster } from './http-poster.js';
import {
  measureRounds,
  pairedCpuRatio,
  pairedRatio,
  type Runner,
  round2,
  type Stats,
} from './measure-rounds.js';
import { waitForHttp } from './wait-for-http.js';

const json = process.argv.includes('--json');
const httpOnly = process.argv.includes('--http-only');
const baseDir = process.env.BENCH_BASE;
const scale = process.argv.includes('--scale');
// Many short rounds: the over-the-floor ratios are paired by round, and three runs of 100 rounds of
// 20 calls agreed within ±0.02 where 20 rounds of 50 moved by ±0.1 (the scale bench keeps 20 × 50).
const rounds = Number(process.env.BENCH_ROUNDS ?? (scale ? 20 : 100));
const callsPerRound = Number(process.env.BENCH_CALLS ?? (scale ? 50 : 20));
// Enough warm-up calls for every runner to reach its optimised steady state: after 300, V8 was
// still compiling in the measured rounds (p95 three to six times higher in every row, reference included).
const warmup = Number(process.env.BENCH_WARMUP ?? 2000);
const measure = (runners: Record<string, Runner>, serverPids: Record<string, number | undefined> = {}) =>
  measureRounds(runners, { rounds, callsPerRound, warmup, serverPids });
const everything = serverScript('server-everything');
const ourServer = fileURLToPath(new URL('./echo-server.ts', import.meta.url));
const floorServer = fileURLToPath(new URL('./floor-server.ts', import.meta.url));
const minimalModernServer = fileURLToPath(new URL('./minimal-modern-server.ts', import.meta.url));
const sdkV2Server = fileURLToPath(new URL('./sdk-v2-server.ts', import.meta.url));
const children: ChildProcess[] = [];
const stopChildren = () => {
  for (const child of children) child.kill();
};

// The v1 SDK's HTTP transport (the full-stack reference) hands one long-lived AbortSignal to every
// fetch, and undici keeps a listener on it per request until garbage collection: Node warns once
// 1,500 pile up. That is the baseline's own behaviour; count the warnings instead of printing them.
let abortListenerWarnings = 0;
process.removeAllListeners('warning');
process.on('warning', (warning) => {
  if (warning.name === 'MaxListenersExceededWarning' && /abort listeners/.test(warning.message)) {
    abortListenerWarnings++;
  } else {
    console.error(warning);
  }
});

const log = (line: string) => {
  if (!json) console.log(line);
};

function start(args: string[], env: Record<string, string> = {}): ChildProcess {
  const child = spawn(process.execPath, args, {
    stdio: ['pipe', 'pipe', 'ignore'],
    env: { ...process.env, ...env },
  });
  children.push(child);
  return child;
}

/** A minimal newline-delimited JSON-RPC client on a child's stdio. */
function createStdioCaller(child: ChildProcess) {
  let buffer = '';
  const waiting = new Map<number, (message: { result?: { content: Array<{ text: string }> } }) => void>();
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    buffer += chunk;
    let newline = buffer.indexOf('\n');
    while (newline !== -1) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      newline = buffer.indexOf('\n');
      const message = JSON.parse(line) as { id?: number };
      if (typeof message.id === 'number') waiting.get(message.id)?.(message as never);
    }
  });
  let nextId = 1;
  const call = (method: string, params: unknown) =>
    new Promise<{ result?: { content: Array<{ text: string }> } }>((resolve) => {
      const id = nextId++;
      waiting.set(id, (message) => {
        waiting.delete(id);
        resolve(message);
      });
      child.stdin?.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  return {
    async initialize() {
      await call('initialize', {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'bench', version: '1' },
      });
      child.stdin?.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    },
    async echo(message: string) {
      const answer = await call('tools/call', { name: 'echo', arguments: { message } });
      if (!answer.result?.content[0]?.text.includes(message))
        throw new Error(`bad answer ${JSON.stringify(answer)}`);
    },
  };
}

if (scale) {
  // Replicas behind nginx: a bench of its own (bench/scale.ts), sharing the client and the rounds.
  const { runScaleBench } = await import('./scale.js');
  await runScaleBench({ json, rounds, callsPerRound, warmup });
  process.exit(0);
}

try {
  // HTTP: server cost.
  const [referencePort, statelessPort, sessionPort, floorPort, basePort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const referenceChild = start([everything, 'streamableHttp'], { PORT: String(referencePort) });
  const statelessChild = start(['--import', 'tsx', ourServer, 'stateless', String(statelessPort)]);
  const sessionChild = start(['--import', 'tsx', ourServer, 'session', String(sessionPort)]);
  const floorChild = start(['--import', 'tsx', floorServer, String(floorPort)]);
  const baseChild =
    baseDir !== undefined
      ? start(['--import', 'tsx', `${baseDir}/bench/echo-server.ts`, 'stateless', String(basePort)])
      : undefined;
  const baseUrl = baseDir !== undefined ? `http://127.0.0.1:${basePort}/mcp` : undefined;
  const referenceUrl = `http://127.0.0.1:${referencePort}/mcp`;
  const statelessUrl = `http://127.0.0.1:${statelessPort}/mcp`;
  const sessionUrl = `http://127.0.0.1:${sessionPort}/mcp`;
  const floorUrl = `http://127.0.0.1:${floorPort}/mcp`;
  await Promise.all([
    waitForHttp(referenceUrl),
    waitForHttp(statelessUrl),
    waitForHttp(sessionUrl),
    waitForHttp(floorUrl),
    ...(baseUrl !== undefined ? [waitForHttp(baseUrl)] : []),
  ]);
  const reference = createHttpPoster(referenceUrl);
  const stateless = createHttpPoster(statelessUrl);
  const session = createHttpPoster(sessionUrl);
  const floor = createHttpPoster(floorUrl);
  const base = baseUrl !== undefined ? createHttpPoster(baseUrl) : undefined;
  await reference.initialize();
  await session.initialize();
  log(`http: ${rounds} rounds x ${callsPerRound} echo calls after ${warmup} warm-up calls each`);
  const http = await measure(
    {
      reference: reference.echo,
      stateless: stateless.echo,
      session: session.echo,
      ...(base !== undefined ? { base: base.echo } : {}),
      floor: floor.echo,
    },
    {
      reference: referenceChild.pid,
      stateless: statelessChild.pid,
      session: sessionChild.pid,
      base: baseChild?.pid,
      floor: floorChild.pid,
    },
  );
  for (const poster of [reference, stateless, session, floor, base]) poster?.close();
  const referenceP50 = (http.reference as Stats).p50Us;
  const httpRatio = round2(
    Math.min((http.stateless as Stats).p50Us, (http.session as Stats).p50Us) / referenceP50,
  );
  const floorRatio = round2((http.floor as Stats).p50Us / referenceP50);
  const overFloor = overFloorOf(http, ['stateless', 'session', 'base']);

  // HTTP, 2026-07-28: our stateless server vs the SDK v2 handler, the same client, the same floor.
  const [sdkV2Port, minimalPort] = [await freePort(), await freePort()];
  const sdkV2Child = start(['--import', 'tsx', sdkV2Server, String(sdkV2Port)]);
  const minimalChild = start(['--import', 'tsx', minimalModernServer, String(minimalPort)]);
  const sdkV2Url = `http://127.0.0.1:${sdkV2Port}/mcp`;
  const minimalUrl = `http://127.0.0.1:${minimalPort}/mcp`;
  await Promise.all([waitForHttp(sdkV2Url), waitForHttp(minimalUrl)]);
  const modernReference = createHttpPoster(sdkV2Url, 'modern');
  const modernOurs = createHttpPoster(statelessUrl, 'modern');
  const modernFloor = createHttpPoster(floorUrl, 'modern');
  const modernMinimal = createHttpPoster(minimalUrl, 'modern');
  const modernBase = baseUrl !== undefined ? createHttpPoster(baseUrl, 'modern') : undefined;
  log(`http 2026-07-28: ${rounds} rounds x ${callsPerRound} echo calls after ${warmup} warm-up calls each`);
  const modern = await measure(
    {
      reference: modernReference.echo,
      switchboard: modernOurs.echo,
      ...(modernBase !== undefined ? { base: modernBase.echo } : {}),
      floor: modernFloor.echo,
      minimal: modernMinimal.echo,
    },
    {
      reference: sdkV2Child.pid,
      switchboard: statelessChild.pid,
      base: baseChild?.pid,
      floor: floorChild.pid,
      minimal: minimalChild.pid,
    },
  );
  for (const poster of [modernReference, modernOurs, modernFloor, modernMinimal, modernBase]) poster?.close();
  const modernRatio = round2((modern.switchboard as Stats).p50Us / (modern.reference as Stats).p50Us);
  const modernFloorRatio = round2((modern.floor as Stats).p50Us / (modern.reference as Stats).p50Us);
  const modernOverFloor = overFloorOf(modern, ['switchboard', 'base', 'minimal']);
  const printTables = () => {
    printTable(
      'HTTP (minimal keep-alive client; reference = server-everything streamableHttp)',
      http,
      { label: 'best of ours', value: httpRatio },
      floorRatio,
      overFloor,
    );
    printTable(
      'HTTP 2026-07-28 (the same client; reference = SDK v2 createMcpHandler)',
      modern,
      { label: 'ours', value: modernRatio },
      modernFloorRatio,
      modernOverFloor,
    );
  };
  if (httpOnly) {
    const report = {
      http: { ...http, ratio: httpRatio, floorRatio, overFloor },
      httpModern: { ...modern, ratio: modernRatio, floorRatio: modernFloorRatio, overFloor: modernOverFloor },
    };
    if (json) console.log(JSON.stringify(report));
    else {
      printTables();
    }
    // process.exit skips the `finally` below: stop the servers here, or every run leaves them
    // running (server-everything keeps its timers going) for the next run to share the cores with.
    stopChildren();
    process.exit(0);
  }

  // stdio: server cost.
  const referenceStdio = createStdioCaller(start([everything, 'stdio']));
  const ourStdio = createStdioCaller(start(['--import', 'tsx', ourServer, 'stdio']));
  await referenceStdio.initialize();
  await ourStdio.initialize();
  const stdio = await measure({ reference: referenceStdio.echo, switchboard: ourStdio.echo });
  const stdioRatio = round2((stdio.switchboard as Stats).p50Us / (stdio.reference as Stats).p50Us);

  // Full stack over HTTP, 2025 era: both clients speak 2025-11-25.
  const sdkClient = new Client({ name: 'bench', version: '1.0.0' });
  await sdkClient.connect(new StreamableHTTPClientTransport(new URL(referenceUrl)));
  const ourClient = await createMcpClient('bench', {
    type: 'http',
    url: statelessUrl,
    protocolVersion: '2025-11-25',
  });
  const fullStack = await measure({
    reference: async (message) => {
      await sdkClient.callTool({ name: 'echo', arguments: { message } });
    },
    switchboard: async (message) => {
      await ourClient.callTool('echo', { message });
    },
  });
  await sdkClient.close();
  await ourClient.close();
  const fullStackRatio = round2(
    (fullStack.switchboard as Stats).p50Us / (fullStack.reference as Stats).p50Us,
  );

  // Full stack over HTTP, 2026-07-28: the official SDK v2 pair against ours.
  const sdkV2Client = new ClientV2(
    { name: 'bench', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await sdkV2Client.connect(new StreamableHTTPClientTransportV2(new URL(sdkV2Url)));
  const ourModernClient = await createMcpClient('bench-modern', { type: 'http', url: statelessUrl });
  if (ourModernClient.era !== 'modern')
    throw new Error('bench: our client did not reach our server as modern');
  const fullStackModern = await measure({
    reference: async (message) => {
      await sdkV2Client.callTool({ name: 'echo', arguments: { message } });
    },
    switchboard: async (message) => {
      await ourModernClient.callTool('echo', { message });
    },
  });
  await sdkV2Client.close();
  await ourModernClient.close();
  const fullStackModernRatio = round2(
    (fullStackModern.switchboard as Stats).p50Us / (fullStackModern.reference as Stats).p50Us,
  );

  const report = {
    http: { ...http, ratio: httpRatio, floorRatio, overFloor },
    httpModern: { ...modern, ratio: modernRatio, floorRatio: modernFloorRatio, overFloor: modernOverFloor },
    stdio: { ...stdio, ratio: stdioRatio },
    fullStack: { ...fullStack, ratio: fullStackRatio },
    fullStackModern: { ...fullStackModern, ratio: fullStackModernRatio },
  };
  if (json) {
    console.log(JSON.stringify(report));
  } else {
    printTables();
    log('\nstdio (minimal client; reference = server-everything stdio)');
    for (const [name, stats] of Object.entries(stdio)) log(row(name, stats));
    log(`  ratio: ${stdioRatio}   target ≤ 1.0`);
    log(
      '\nfull stack (reference = raw SDK client → server-everything; switchboard = @switchboard/client → our stateless server)',
    );
    for (const [name, stats] of Object.entries(fullStack)) log(row(name, stats));
    log(`  ratio: ${fullStackRatio}   target ≤ 0.2`);
    log(
      '\nfull stack 2026-07-28 (reference = SDK v2 client pinned 2026-07-28 → SDK v2 createMcpHandler; switchboard = @switchboard/client → our stateless server)',
    );
    for (const [name, stats] of Object.entries(fullStackModern)) log(row(name, stats));
    log(`  ratio: ${fullStackModernRatio}   target ≤ 0.2`);
    if (abortListenerWarnings > 0) {
      log(
        `(the v1 SDK's HTTP transport piled up abort listeners on its shared AbortSignal: ${abortListenerWarnings} MaxListenersExceeded warnings, not shown)`,
      );
    }
  }
} finally {
  stopChildren();
}
process.exit(0);

/** Each named row over the floor, paired by round (rows that ran): latency, and server CPU per call. */
function overFloorOf(stats: Record<string, Stats>, names: string[]): Record<string, number> {
  const floor = stats.floor as Stats;
  const ratios: Record<string, number> = {};
  for (const name of names) {
    const row = stats[name];
    if (row === undefined) continue;
    ratios[name] = pairedRatio(row, floor);
    const cpu = pairedCpuRatio(row, floor);
    if (cpu !== undefined) ratios[`${name}Cpu`] = cpu;
  }
  return ratios;
}

function row(name: string, stats: Stats | undefined): string {
  const cpu =
    stats?.cpuUsPerCall !== undefined
      ? `   server CPU/call ${String(stats.cpuUsPerCall).padStart(6)} µs`
      : '';
  return `  ${name.padEnd(12)} p50 ${String(stats?.p50Us).padStart(6)} µs   p95 ${String(stats?.p95Us).padStart(6)} µs${cpu}`;
}

function overFloorLine(ratios: Record<string, number>): string {
  return `  over the floor (median of each round's p50 ratio; …Cpu: server CPU per call): ${Object.entries(
    ratios,
  )
    .map(([name, ratio]) => `${name} ${ratio}`)
    .join(', ')}   target ≤ 1.10`;
}

function printTable(
  title: string,
  stats: Record<string, Stats>,
  ratio: { label: string; value: number },
  floorRatio: number,
  over: Record<string, number>,
) {
  log(`\n${title}`);
  for (const [name, value] of Object.entries(stats)) log(row(name, value));
  log(`  ratio (${ratio.label} / reference, p50): ${ratio.value}   target ≤ 0.3`);
  log(`  floor (bare node:http echo / reference, p50): ${floorRatio}`);
  log(overFloorLine(over));
}
