/**
 * `pnpm --filter @switchboard/client bench [--json]`: `echo` against server-everything over stdio
 * and Streamable HTTP, Switchboard's `execute` (validation, approval, wrapping, metrics included)
 * vs the raw SDK `Client.callTool` on the same server in the same run. 1,000 sequential and 1,000
 * concurrent (16 in flight) calls per side, interleaved in rounds after a warm-up.
 * ratio = switchboard p50 / sdk p50 (sequential).
 *
 * Two more sides where asked, measured in the same rounds (sequential): `BENCH_BASE=<path to another
 * build's dist/index.js>` adds that build's `execute` as `base` (a before/after in one run, on the
 * same servers), and over stdio the raw SDK v1 `Client.callTool` is measured as `v1`.
 * `spawnFailed`: the time from a mistyped stdio command to its `SPAWN_FAILED`, median of 20.
 *
 * Over HTTP two more figures explain the ratio:
 * - `http.bare`: about the least a client can take — a bare keep-alive `node:http` POST that stops
 *   at the result event, no JSON-RPC layer, measured in the same rounds (`bareRatio` = bare p50 /
 *   sdk p50). At 2025-11-25 server-everything sends an SSE priming event first and
 *   @hono/node-server then waits a timer tick before writing the response, so even the bare client
 *   takes well over half the SDK's time there.
 * - `httpPinned`: both clients offering protocol 2025-06-18 (no priming event, no timer).
 * - `httpModern`: the 2026-07-28 era against an SDK v2 `createMcpHandler` server (on node:http):
 *   Switchboard (negotiating) vs the SDK v2 client pinned to 2026-07-28, with the bare client
 *   POSTing the same modern request (headers and `_meta` envelope) in the same rounds.
 *   Target: switchboard p50 ≤ 1.05 × bare p50.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import { join } from 'node:path';
import {
  Client,
  type ClientOptions,
  LATEST_PROTOCOL_VERSION,
  StreamableHTTPClientTransport,
  SUPPORTED_PROTOCOL_VERSIONS,
  type Transport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioClientTransportV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { serverScript, startEverythingHttp, turnOrder } from '@switchboard/test-helpers';

// The built package (`dist/`, what users install; `pnpm bench` builds it first), as the baseline
// runs its published build: the source through tsx costs 10–20 µs more per call (esbuild's
// name-keeping wrappers on every closure). BENCH_SOURCE=src runs the source instead.
type ClientPackage = typeof import('../src/index.js');
const { connectMcp } = (await import(
  process.env.BENCH_SOURCE === 'src' ? '../src/index.js' : '../dist/index.js'
)) as ClientPackage;
type McpConnection = Awaited<ReturnType<ClientPackage['connectMcp']>>;
// Another build of this package (the base commit's, say), measured as a side of its own.
const basePackage = process.env.BENCH_BASE
  ? ((await import(process.env.BENCH_BASE)) as ClientPackage)
  : undefined;

const json = process.argv.includes('--json');
// --quick: a short run that only checks the bench works (no figures to keep).
const quick = process.argv.includes('--quick');
const totalCalls = quick ? 100 : 1000;
// BENCH_ROUNDS: more, shorter rounds interleave the sides more finely (a busy machine's swings hit all alike).
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const perRound = totalCalls / rounds;
const concurrency = 16;
// Enough warm-up calls per side for every runner to reach its optimised steady state (as the
// server bench): after 200, the JIT was still at work in the measured rounds.
const warmup = Number(process.env.BENCH_WARMUP ?? (quick ? 20 : 2000));
// BENCH_ONLY=stdio,http,httpModern,spawnFailed runs only those groups (httpPinned goes with http).
const only = process.env.BENCH_ONLY?.split(',');
const runs = (group: string) => only === undefined || only.includes(group);

const everything = serverScript('server-everything');

type Call = () => Promise<unknown>;

interface Stats {
  p50Us: number;
  p95Us: number;
  /**
   * This process's CPU per call (user + system), over the side's sequential blocks: what the
   * client itself costs, which a busy machine disturbs far less than the wall-clock percentiles.
   */
  cpuUs?: number;
  /** Each round's p50 (sequential), in round order: what {@link pairedRatio} compares. */
  roundP50Us?: number[];
}

function percentile(sorted: number[], quantile: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(quantile * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const cpu = cpuSpent.get(samples);
  const roundP50Us = roundMedians.get(samples);
  return {
    p50Us: Math.round(percentile(sorted, 0.5)),
    p95Us: Math.round(percentile(sorted, 0.95)),
    ...(cpu === undefined || samples.length === 0 ? {} : { cpuUs: Math.round(cpu / samples.length) }),
    ...(roundP50Us === undefined ? {} : { roundP50Us }),
  };
}

function median(values: number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
}

/** Each side's sequential p50 per round (the rounds run the sides back to back). */
const roundMedians = new Map<number[], number[]>();

/**
 * `row` over `baseline`, paired by round: the median of each round's p50 ratio. The sides of a
 * round run back to back, so a burst of load from elsewhere lands on both; the ratio of the two
 * pooled p50s moved by more than the goal's margin between runs on this machine.
 */
function pairedRatio(row: Stats, baseline: Stats): number | undefined {
  const rows = row.roundP50Us;
  const baselines = baseline.roundP50Us;
  if (rows === undefined || baselines === undefined || rows.length !== baselines.length) return undefined;
  return Number(median(rows.map((p50, index) => p50 / (baselines[index] as number))).toFixed(3));
}

/** CPU microseconds this process spent per side (sequential blocks only). */
const cpuSpent = new Map<number[], number>();

/**
 * Collects the young generation before a block (with `--expose-gc`, as `pnpm bench` runs): without
 * it a side pays for the garbage of the side before it — the SDK client's, most — in time and CPU.
 * Young only, because a forced *full* collection puts the process in a state a real one meets once
 * per major collection (seconds apart), not every block: for the next 20 calls every side costs
 * 2–3 × the CPU of its steady state (httpModern, 20-call blocks, client pinned to one core: the
 * minimal client 373 µs of CPU per call against 157 µs without forced collections, Switchboard 472
 * against 182 µs; the first call after the collection about 3 ms for both), and a client with more
 * code on its path pays more of it. `BENCH_GC=full` brings the full collection back, `BENCH_GC=none`
 * collects nothing.
 */
const forceGc = (globalThis as { gc?: (options?: { type: 'minor' | 'major' }) => void }).gc;
const gcModes = ['minor', 'full', 'none'] as const;
const gcMode = process.env.BENCH_GC ?? 'minor';
if (!(gcModes as readonly string[]).includes(gcMode)) {
  throw new Error(
    `BENCH_GC=${gcMode} is not a collection mode: use one of ${gcModes.join(', ')} (default minor)`,
  );
}
const collectGarbage =
  forceGc === undefined || gcMode === 'none'
    ? () => {}
    : gcMode === 'full'
      ? () => forceGc()
      : () => forceGc({ type: 'minor' });

async function sequential(call: Call, count: number, into: number[]): Promise<void> {
  collectGarbage();
  const cpu = process.cpuUsage();
  for (let index = 0; index < count; index++) {
    const started = performance.now();
    await call();
    into.push((performance.now() - started) * 1000);
  }
  const spent = process.cpuUsage(cpu);
  cpuSpent.set(into, (cpuSpent.get(into) ?? 0) + spent.user + spent.system);
}

async function concurrent(call: Call, count: number, into: number[]): Promise<void> {
  collectGarbage();
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
  /** Measured in the same rounds, sequential only. */
  bare?: Call;
  /** Another build's `execute` (BENCH_BASE), sequential only. */
  base?: Call;
  /** The raw SDK v1 client, sequential only. */
  v1?: Call;
  /** The least a correct client does (`minimalModernSide`), sequential only. */
  minimal?: Call;
}

interface ModeResult {
  sdk: Stats;
  switchboard: Stats;
  ratio: number;
}

interface Measured {
  sequential: ModeResult;
  concurrent: ModeResult;
  bare?: Stats;
  base?: Stats;
  v1?: Stats;
  minimal?: Stats;
}

type ExtraSide = 'bare' | 'base' | 'v1' | 'minimal';
const extraSides: readonly ExtraSide[] = ['bare', 'base', 'v1', 'minimal'];

async function measure(sides: Sides): Promise<Measured> {
  await sequential(sides.sdk, warmup, []);
  await sequential(sides.switchboard, warmup, []);
  for (const extra of extraSides) {
    const call = sides[extra];
    if (call) await sequential(call, warmup, []);
  }
  const samples = {
    sequential: { sdk: [] as number[], switchboard: [] as number[] },
    concurrent: { sdk: [] as number[], switchboard: [] as number[] },
  };
  const extraSamples: Record<ExtraSide, number[]> = { bare: [], base: [], v1: [], minimal: [] };
  const sequentialSides: Array<[Call, number[]]> = [
    [sides.sdk, samples.sequential.sdk],
    [sides.switchboard, samples.sequential.switchboard],
    ...extraSides.flatMap((extra) => {
      const call = sides[extra];
      return call ? [[call, extraSamples[extra]] as [Call, number[]]] : [];
    }),
  ];
  for (let round = 0; round < rounds; round++) {
    // Each side follows every other equally often (turnOrder): the side after the SDK client pays
    // for what it leaves behind.
    for (const side of turnOrder(round, sequentialSides.length)) {
      const [call, into] = sequentialSides[side] as [Call, number[]];
      await sequential(call, perRound, into);
      const medians = roundMedians.get(into) ?? [];
      medians.push(median(into.slice(-perRound)));
      roundMedians.set(into, medians);
    }
    const order: Array<'sdk' | 'switchboard'> =
      round % 2 === 0 ? ['sdk', 'switchboard'] : ['switchboard', 'sdk'];
    for (const side of order) await concurrent(sides[side], perRound, samples.concurrent[side]);
  }
  const summarise = (mode: 'sequential' | 'concurrent'): ModeResult => {
    const sdk = stats(samples[mode].sdk);
    const switchboard = stats(samples[mode].switchboard);
    return { sdk, switchboard, ratio: Number((switchboard.p50Us / sdk.p50Us).toFixed(3)) };
  };
  const result: Measured = { sequential: summarise('sequential'), concurrent: summarise('concurrent') };
  for (const extra of extraSides) if (sides[extra]) result[extra] = stats(extraSamples[extra]);
  return result;
}

async function startModernServer(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'modern-server.ts')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const line = seen.split('\n')[0];
      if (seen.includes('\n') && line) resolve(line.trim());
    });
    child.once('exit', (code) => reject(new Error(`the modern bench server exited (${code})`)));
  });
  return { url, child };
}

const message = { message: 'hello from the bench' };

async function switchboardSide(
  servers: Parameters<typeof connectMcp>[0],
  build: Pick<ClientPackage, 'connectMcp'> = { connectMcp },
): Promise<{ connection: McpConnection; call: Call }> {
  const connection = await build.connectMcp(servers, { approval: 'never' });
  const tool = connection.tools.mcp__everything__echo;
  if (!tool?.execute) throw new Error('echo tool missing');
  const execute = tool.execute;
  // Over HTTP the same allowance as the bare client's: a keep-alive socket the server closed while idle.
  return { connection, call: retryingStaleSocket(() => execute(message)) };
}

/**
 * The bare client: a session opened by hand, then keep-alive POSTs that resolve as soon as the
 * result event is in (as a lean client would), with nothing parsed beyond finding it.
 */
async function bareSide(url: string, version: string): Promise<{ call: Call; close: () => void }> {
  const agent = new http.Agent({ keepAlive: true });
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  const post = (body: string) =>
    new Promise<http.IncomingMessage>((resolve, reject) => {
      const request = http.request(url, {
        method: 'POST',
        agent,
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      });
      request.once('response', resolve).once('error', reject).end(body);
    });
  const initialize = await post(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'bare', version: '0' } },
    }),
  );
  initialize.resume();
  headers['mcp-session-id'] = String(initialize.headers['mcp-session-id']);
  headers['mcp-protocol-version'] = version;
  (await post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }))).resume();
  let id = 1;
  const call: Call = async () => {
    const response = await post(
      JSON.stringify({
        jsonrpc: '2.0',
        id: id++,
        method: 'tools/call',
        params: { name: 'echo', arguments: message },
      }),
    );
    response.setEncoding('utf8');
    let text = '';
    await new Promise<void>((resolve, reject) => {
      response.on('data', (chunk: string) => {
        text += chunk;
        if (text.includes('"result"') && text.endsWith('\n\n')) resolve();
      });
      response.once('end', () => reject(new Error(`no result in ${JSON.stringify(text)}`)));
      response.once('error', reject);
    });
    response.resume();
  };
  return { call: retryingStaleSocket(call), close: () => agent.destroy() };
}

/**
 * A bare call once more when its keep-alive socket was closed by the server while idle (between
 * rounds on a slow machine): a real client's agent would do the same, and the sample is the retry.
 */
function retryingStaleSocket(call: Call): Call {
  return () =>
    call().catch((error: unknown) => {
      const failure = error as { code?: unknown; context?: { errno?: unknown } };
      if (failure.code !== 'ECONNRESET' && failure.context?.errno !== 'ECONNRESET') throw error;
      return call();
    });
}

/**
 * A keep-alive client that POSTs the 2026-07-28 echo request the clients send (standard headers,
 * `_meta` envelope) and hands each answer's text and request id to `settle`: the bare and the
 * minimal sides differ only there.
 */
function modernPoster(
  url: string,
  clientName: string,
  settle: (text: string, id: number) => boolean,
): { call: Call; close: () => void } {
  const agent = new http.Agent({ keepAlive: true });
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: clientName, version: '0' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  let nextId = 1;
  const call: Call = () =>
    new Promise<void>((resolve, reject) => {
      const id = nextId++;
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'echo', arguments: message, _meta: meta },
      });
      const request = http.request(url, {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-length': String(Buffer.byteLength(body)),
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'echo',
        },
      });
      request.once('response', (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.once('end', () => (settle(text, id) ? resolve() : reject(new Error(text))));
      });
      request.once('error', reject).end(body);
    });
  return { call: retryingStaleSocket(call), close: () => agent.destroy() };
}

/**
 * The bare modern client: the modern POST, resolving once the JSON answer is in (it only looks
 * for `"result"` in the text).
 */
function bareModernSide(url: string): { call: Call; close: () => void } {
  return modernPoster(url, 'bare', (text) => text.includes('"result"'));
}

/**
 * The least a correct 2026-07-28 client does for a call, as a second floor beside the bare one:
 * the bare POST (same headers, same envelope), then the answer parsed as JSON, its id matched to
 * the request's, and its `result` taken (an `error` rejects). The bare client stops at finding
 * `"result"` in the text, which no client can; `switchboard / minimal` is what Switchboard costs
 * beyond what the protocol makes every client pay.
 */
function minimalModernSide(url: string): { call: Call; close: () => void } {
  return modernPoster(url, 'minimal', (text, id) => {
    const answer = JSON.parse(text) as { id?: unknown; result?: unknown };
    return answer.id === id && answer.result !== undefined;
  });
}

async function sdkSide(
  transport: Transport,
  options: ClientOptions = {},
): Promise<{ client: Client; call: Call }> {
  const client = new Client({ name: 'bench-sdk', version: '0.0.0' }, options);
  await client.connect(transport);
  await client.listTools();
  return { client, call: () => client.callTool({ name: 'echo', arguments: message }) };
}

// The SDK's HTTP transport hands one long-lived AbortSignal to every fetch, and undici keeps a
// listener on it per request until garbage collection: Node warns once 1,500 pile up. That is the
// baseline's own behaviour; count the warnings instead of flooding the output with them.
let abortListenerWarnings = 0;
process.removeAllListeners('warning');
process.on('warning', (warning) => {
  if (warning.name === 'MaxListenersExceededWarning' && /abort listeners/.test(warning.message)) {
    abortListenerWarnings++;
  } else {
    console.error(warning);
  }
});

async function main(): Promise<void> {
  const results: Record<string, Measured> = {};

  if (runs('stdio')) {
    const sdk = await sdkSide(
      new StdioClientTransport({ command: process.execPath, args: [everything, 'stdio'], stderr: 'ignore' }),
    );
    const servers = { everything: { command: process.execPath, args: [everything, 'stdio'] } };
    const switchboard = await switchboardSide(servers);
    const base = basePackage ? await switchboardSide(servers, basePackage) : undefined;
    const v1 = new ClientV1({ name: 'bench-sdk-v1', version: '0.0.0' });
    await v1.connect(
      new StdioClientTransportV1({
        command: process.execPath,
        args: [everything, 'stdio'],
        stderr: 'ignore',
      }),
    );
    await v1.listTools();
    try {
      results.stdio = await measure({
        sdk: sdk.call,
        switchboard: switchboard.call,
        ...(base ? { base: base.call } : {}),
        v1: () => v1.callTool({ name: 'echo', arguments: message }),
      });
    } finally {
      await sdk.client.close();
      await switchboard.connection.close();
      await base?.connection.close();
      await v1.close();
    }
  }

  if (runs('http')) {
    const server = await startEverythingHttp('streamableHttp');
    try {
      for (const [key, version] of [
        ['http', LATEST_PROTOCOL_VERSION],
        ['httpPinned', '2025-06-18'],
      ] as const) {
        const pinned = version !== LATEST_PROTOCOL_VERSION;
        const sdkTransport = new StreamableHTTPClientTransport(new URL(server.url));
        // The SDK client offers the first of its supported versions at initialize.
        const sdk = await sdkSide(
          sdkTransport,
          pinned ? { supportedProtocolVersions: [version, ...SUPPORTED_PROTOCOL_VERSIONS] } : {},
        );
        const servers = { everything: { url: server.url, ...(pinned ? { protocolVersion: version } : {}) } };
        const switchboard = await switchboardSide(servers);
        const base = basePackage ? await switchboardSide(servers, basePackage) : undefined;
        const bare = await bareSide(server.url, version);
        try {
          results[key] = await measure({
            sdk: sdk.call,
            switchboard: switchboard.call,
            bare: bare.call,
            ...(base ? { base: base.call } : {}),
          });
        } finally {
          await sdk.client.close();
          await switchboard.connection.close();
          await base?.connection.close();
          bare.close();
        }
      }
    } finally {
      await server.close();
    }
  }

  if (runs('httpModern')) {
    // The modern era: the same SDK v2 server (its own process) for all three.
    const server = await startModernServer();
    try {
      const sdk = await sdkSide(new StreamableHTTPClientTransport(new URL(server.url)), {
        versionNegotiation: { mode: { pin: '2026-07-28' } },
      });
      const servers = { everything: { url: server.url } };
      const switchboard = await switchboardSide(servers);
      const base = basePackage ? await switchboardSide(servers, basePackage) : undefined;
      const bare = bareModernSide(server.url);
      const minimal = minimalModernSide(server.url);
      try {
        results.httpModern = await measure({
          sdk: sdk.call,
          switchboard: switchboard.call,
          bare: bare.call,
          minimal: minimal.call,
          ...(base ? { base: base.call } : {}),
        });
      } finally {
        await sdk.client.close();
        await switchboard.connection.close();
        await base?.connection.close();
        bare.close();
        minimal.close();
      }
    } finally {
      server.child.kill('SIGTERM');
    }
  }

  let spawnFailed: { current: Stats; base?: Stats } | undefined;
  if (runs('spawnFailed')) spawnFailed = await timeSpawnFailures();

  if (json) {
    const out: Record<string, unknown> = { gc: forceGc === undefined ? 'none' : gcMode, rounds };
    if (spawnFailed) out.spawnFailed = spawnFailed;
    for (const [transport, result] of Object.entries(results)) {
      out[transport] = {
        sdk: result.sequential.sdk,
        switchboard: result.sequential.switchboard,
        ratio: result.sequential.ratio,
        ...(result.bare
          ? {
              bare: result.bare,
              bareRatio: Number((result.bare.p50Us / result.sequential.sdk.p50Us).toFixed(3)),
              overBare: Number((result.sequential.switchboard.p50Us / result.bare.p50Us).toFixed(3)),
              overBarePaired: pairedRatio(result.sequential.switchboard, result.bare),
            }
          : {}),
        ...(result.minimal
          ? {
              minimal: result.minimal,
              overMinimalPaired: pairedRatio(result.sequential.switchboard, result.minimal),
            }
          : {}),
        ...(result.base
          ? {
              base: result.base,
              overBase: Number((result.sequential.switchboard.p50Us / result.base.p50Us).toFixed(3)),
            }
          : {}),
        ...(result.v1
          ? {
              v1: result.v1,
              overV1: Number((result.sequential.switchboard.p50Us / result.v1.p50Us).toFixed(3)),
            }
          : {}),
        concurrent: result.concurrent,
      };
    }
    console.log(JSON.stringify(out));
    return;
  }
  console.log(
    `echo on server-everything: ${totalCalls} sequential + ${totalCalls} concurrent (${concurrency} in flight) calls per side, ${rounds} interleaved rounds after ${warmup} warm-up calls; before each block, garbage collection: ${forceGc === undefined ? 'none (run with --expose-gc)' : gcMode}`,
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
  for (const [transport, result] of Object.entries(results)) {
    if (!result.bare) continue;
    console.log(
      `${transport.padEnd(11)}bare        node:http POST, no JSON-RPC layer: p50 ${result.bare.p50Us} µs, p95 ${result.bare.p95Us} µs → bare / sdk ${(result.bare.p50Us / result.sequential.sdk.p50Us).toFixed(3)}, switchboard / bare ${(result.sequential.switchboard.p50Us / result.bare.p50Us).toFixed(3)} (paired by round: ${pairedRatio(result.sequential.switchboard, result.bare)})`,
    );
    if (result.minimal) {
      console.log(
        `${transport.padEnd(11)}minimal     bare POST + JSON parse + id check: p50 ${result.minimal.p50Us} µs, p95 ${result.minimal.p95Us} µs, cpu ${result.minimal.cpuUs} µs → paired by round: switchboard / minimal ${pairedRatio(result.sequential.switchboard, result.minimal)}, minimal / bare ${pairedRatio(result.minimal, result.bare)}`,
      );
    }
  }
  for (const [transport, result] of Object.entries(results)) {
    const row = result.sequential;
    const cpu = (stats: Stats | undefined) => (stats?.cpuUs === undefined ? '—' : `${stats.cpuUs} µs`);
    console.log(
      `${transport.padEnd(11)}cpu/call    sdk ${cpu(row.sdk)}, switchboard ${cpu(row.switchboard)}${result.base ? `, base ${cpu(result.base)}` : ''}${result.bare ? `, bare ${cpu(result.bare)}` : ''}${result.v1 ? `, v1 ${cpu(result.v1)}` : ''}`,
    );
    if (result.base) {
      console.log(
        `${transport.padEnd(11)}base        ${process.env.BENCH_BASE}: p50 ${result.base.p50Us} µs, p95 ${result.base.p95Us} µs → switchboard / base ${(result.sequential.switchboard.p50Us / result.base.p50Us).toFixed(3)}${result.bare ? `, base / bare ${(result.base.p50Us / result.bare.p50Us).toFixed(3)}` : ''}`,
      );
    }
    if (result.v1) {
      console.log(
        `${transport.padEnd(11)}v1          raw SDK v1 Client.callTool: p50 ${result.v1.p50Us} µs, p95 ${result.v1.p95Us} µs → switchboard / v1 ${(result.sequential.switchboard.p50Us / result.v1.p50Us).toFixed(3)}${result.base ? `, base / v1 ${(result.base.p50Us / result.v1.p50Us).toFixed(3)}` : ''}`,
      );
    }
  }
  if (spawnFailed) {
    const ms = (value: number) => `${(value / 1000).toFixed(1)} ms`;
    console.log(
      `spawnFailed: a mistyped stdio command to SPAWN_FAILED (connectMcp), ${spawnRuns} runs: median ${ms(spawnFailed.current.p50Us)}, p95 ${ms(spawnFailed.current.p95Us)} (goal ≤ 500 ms)${spawnFailed.base ? `; base: median ${ms(spawnFailed.base.p50Us)}, p95 ${ms(spawnFailed.base.p95Us)}` : ''}`,
    );
  }
  console.log(
    `\nhttp runs at protocol ${LATEST_PROTOCOL_VERSION}, httpPinned at 2025-06-18 (both clients pinned), httpModern at 2026-07-28 against an SDK v2 createMcpHandler server (the SDK client pinned, Switchboard negotiating).`,
  );
  if (abortListenerWarnings > 0) {
    console.log(
      `(the SDK's HTTP transport piled up abort listeners on its shared AbortSignal: ${abortListenerWarnings} MaxListenersExceeded warnings, not shown)`,
    );
  }
  console.log(
    'targets (sequential): stdio ratio ≤ 1.0; http and httpModern: switchboard p50 ≤ 1.05 × bare p50',
  );
}

const spawnRuns = 20;

/**
 * Times `connectMcp` with a command that does not exist, to its error, `spawnRuns` times (and the
 * BENCH_BASE build's, interleaved). This build must answer `SPAWN_FAILED`.
 */
async function timeSpawnFailures(): Promise<{ current: Stats; base?: Stats }> {
  const time = async (build: Pick<ClientPackage, 'connectMcp'>, into: number[]): Promise<unknown> => {
    const started = performance.now();
    const error = await build
      .connectMcp({ typo: { command: 'switchboard-bench-no-such-command' } })
      .catch((caught: unknown) => caught);
    into.push((performance.now() - started) * 1000);
    return (error as { code?: unknown } | undefined)?.code;
  };
  const current: number[] = [];
  const base: number[] = [];
  for (let run = 0; run < spawnRuns; run++) {
    const code = await time({ connectMcp }, current);
    if (code !== 'SPAWN_FAILED') throw new Error(`a mistyped command gave ${String(code)}, not SPAWN_FAILED`);
    if (basePackage) await time(basePackage, base);
  }
  return basePackage ? { current: stats(current), base: stats(base) } : { current: stats(current) };
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
