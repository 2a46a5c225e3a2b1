/**
 * `pnpm --filter @switchboard/server bench --scale [--json]`: what nginx and replicas add, in one run.
 *
 * Four replica processes (`echo-server.ts replica`: a Redis cluster state with a random key prefix,
 * shared session keys, a stateless JSON listener and a session listener each): r1–r3 behind nginx,
 * started from `renderNginxConfig` as `switchboard deploy nginx` prints it, and r0 reached directly.
 * nginx balances one set of listeners per config, so the session listeners of r1–r3 get a second
 * nginx from the same function, and three bare `node:http` echoes (`floor-server.ts`) a third: the
 * floor row is what nginx adds in front of any Node server on this machine. All are stopped with
 * SIGTERM (a killed master leaves its workers).
 *
 * - latency: the minimal keep-alive client of the main bench (`http-poster.ts`), interleaved rounds
 *   after a warm-up (`measure-rounds.ts`), direct vs through nginx, for 2025 stateless JSON,
 *   2026-07-28 and a 2025 session (opened once; its calls hop replicas, which the access log shows);
 * - Redis commands per call for each row: the replicas' `cluster.operations`, read before and after
 *   a counting pass of `BENCH_REDIS_CALLS` calls per row;
 * - throughput: `BENCH_CLIENTS` (16) concurrent clients posting 2026-07-28 calls for
 *   `BENCH_SCALE_SECONDS` per round, three rounds interleaved, direct to r0 vs nginx + r1–r3, with
 *   the CPU time (`/proc/PID/stat` utime + stime) of the replicas, the nginx workers and the client;
 * - capacity: from the CPU time per call of a replica and of nginx, what N replicas on M cores carry.
 *
 * Bounded: every wait has a timeout, the whole run `BENCH_SCALE_TIMEOUT_MS` (10 min); replicas end
 * when their stdin closes, so none outlives the bench, and nginx is stopped on every exit path.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@switchboard/test-helpers';
import { Redis } from 'ioredis';
import { renderNginxConfig } from '../src/index.js';
import { createHttpPoster } from './http-poster.js';
import { measureRounds, type Runner, round2, type Stats } from './measure-rounds.js';
import { waitForHttp } from './wait-for-http.js';

/** What `index.ts` passes on. */
export interface ScaleBenchOptions {
  json: boolean;
  rounds: number;
  callsPerRound: number;
  warmup: number;
}

const clients = Number(process.env.BENCH_CLIENTS ?? 16);
const throughputSeconds = Number(process.env.BENCH_SCALE_SECONDS ?? 2);
const throughputRounds = 3;
const redisCalls = Number(process.env.BENCH_REDIS_CALLS ?? 200);
const timeoutMs = Number(process.env.BENCH_SCALE_TIMEOUT_MS ?? 600_000);
const redisUrl = process.env.SWITCHBOARD_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const nginxBinary = [process.env.SWITCHBOARD_NGINX, '/usr/sbin/nginx'].find(
  (candidate): candidate is string => candidate !== undefined && existsSync(candidate),
);
const echoServer = fileURLToPath(new URL('./echo-server.ts', import.meta.url));
const floorServer = fileURLToPath(new URL('./floor-server.ts', import.meta.url));

/** One replica process and its two listeners. */
interface ReplicaProcess {
  id: string;
  child: ChildProcess;
  stateless: string;
  session: string;
  /** Redis commands this replica has sent so far. */
  operations(): Promise<number>;
}

/** A running nginx. */
interface NginxProcess {
  child: ChildProcess;
  dir: string;
  url: string;
}

const children: ChildProcess[] = [];

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`bench --scale: ${what} took over ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** Starts `echo-server.ts replica` and waits for its URLs. */
async function startReplica(id: string, env: Record<string, string>): Promise<ReplicaProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', echoServer, 'replica'], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, ...env, BENCH_REPLICA_ID: id },
  });
  children.push(child);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2_000);
  });
  const waiting: Array<{ resolve: (line: string) => void; reject: (error: Error) => void }> = [];
  let pending = '';
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    pending += chunk;
    const complete = pending.split('\n');
    pending = complete.pop() ?? '';
    for (const line of complete) waiting.shift()?.resolve(line);
  });
  child.once('exit', (code) => {
    for (const waiter of waiting.splice(0))
      waiter.reject(new Error(`replica ${id} exited (${code}): ${stderr}`));
  });
  const nextLine = (what: string) =>
    withTimeout(
      new Promise<string>((resolve, reject) => {
        waiting.push({ resolve, reject });
      }),
      30_000,
      `replica ${id} ${what}`,
    );
  const urls = JSON.parse(await nextLine('start')) as { stateless: string; session: string };
  return {
    id,
    child,
    ...urls,
    async operations() {
      const answer = nextLine('stats');
      child.stdin?.write('stats\n');
      return (JSON.parse(await answer) as { operations: number }).operations;
    },
  };
}

/** Writes the rendered config under `dir`, checks it with `nginx -t`, starts nginx, waits for /health. */
async function startNginx(binary: string, dir: string, upstreams: string[]): Promise<NginxProcess> {
  mkdirSync(dir, { recursive: true });
  // Started by root, the workers run as nobody and must reach the temp folders under the prefix.
  chmodSync(dir, 0o755);
  const port = await freePort();
  const configFile = join(dir, 'nginx.conf');
  writeFileSync(
    configFile,
    renderNginxConfig({
      listen: { host: '127.0.0.1', port },
      upstreams: upstreams.map((url) => {
        const { hostname, port: upstreamPort } = new URL(url);
        return { host: hostname, port: Number(upstreamPort) };
      }),
      prefix: dir,
    }),
  );
  const args = ['-p', dir, '-c', configFile, '-e', join(dir, 'error.log')];
  const check = spawnSync(binary, ['-t', ...args], { encoding: 'utf8', timeout: 10_000 });
  if (check.status !== 0) throw new Error(`bench --scale: nginx -t refused ${configFile}: ${check.stderr}`);
  const child = spawn(binary, args, { stdio: ['ignore', 'ignore', 'ignore'] });
  children.push(child);
  await waitForHttp(`http://127.0.0.1:${port}/health`);
  return { child, dir, url: `http://127.0.0.1:${port}/mcp` };
}

/** SIGTERM to nginx first (its master ends the workers), then the replicas; SIGKILL after 3 s. */
async function stopChildren(): Promise<void> {
  const alive = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;
  await Promise.all(
    children.filter(alive).map(async (child) => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin?.end();
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
      await exited;
      clearTimeout(timer);
    }),
  );
}

const clockTicks = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;

/** utime + stime of `pid` in seconds, or undefined where /proc cannot tell. */
function cpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / clockTicks;
  } catch {
    return undefined;
  }
}

/** The pids whose parent is `pid` (nginx's workers). */
function childPids(pid: number | undefined): number[] {
  if (pid === undefined || !existsSync('/proc')) return [];
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) found.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

/** Busy CPU seconds of the whole machine so far (every tenant: /proc/stat less idle and iowait). */
function machineBusySeconds(): number | undefined {
  try {
    const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '')
      .trim()
      .split(/\s+/)
      .slice(1, 9)
      .map(Number);
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields;
    return (user + nice + system + irq + softirq + steal) / clockTicks;
  } catch {
    return undefined;
  }
}

/** CPU seconds of a group of processes, summed (undefined when one cannot be read). */
function groupCpu(pids: number[]): number | undefined {
  let total = 0;
  for (const pid of pids) {
    const seconds = cpuSeconds(pid);
    if (seconds === undefined) return undefined;
    total += seconds;
  }
  return total;
}

/** `count` posters calling until `deadline`; returns the calls made. */
async function load(posters: Array<{ echo: Runner }>, deadline: number): Promise<number> {
  let calls = 0;
  await Promise.all(
    posters.map(async (poster, index) => {
      while (performance.now() < deadline) {
        await poster.echo(`load ${index} ${calls}`);
        calls += 1;
      }
    }),
  );
  return calls;
}

/** One throughput target's totals over the rounds. */
interface ThroughputTotals {
  calls: number;
  seconds: number;
  replicaCpu: number;
  nginxCpu: number;
  clientCpu: number;
  machineCpu: number;
}

/** Runs the scale bench; throws (after stopping everything) on any failure. */
export async function runScaleBench(options: ScaleBenchOptions): Promise<void> {
  const log = (line: string) => {
    if (!options.json) console.log(line);
  };
  if (nginxBinary === undefined) {
    throw new Error('bench --scale needs nginx: install it, or point SWITCHBOARD_NGINX at the binary.');
  }
  const root = mkdtempSync(join(tmpdir(), 'switchboard-scale-bench-'));
  chmodSync(root, 0o755);
  const prefix = `sbbench:${randomBytes(6).toString('hex')}:`;
  const sessionKey = randomBytes(32).toString('hex');
  /** Stops every child, removes the nginx folders and the Redis keys of this run. */
  const cleanup = async () => {
    await stopChildren();
    rmSync(root, { recursive: true, force: true });
    const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await withTimeout(
      (async () => {
        await redis.connect();
        const keys = await redis.keys(`${prefix}*`);
        if (keys.length > 0) await redis.del(...keys);
      })(),
      5_000,
      'removing the Redis keys',
    ).catch(() => {});
    redis.disconnect();
  };
  const onSignal = () => {
    void cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  // Whatever way the process ends, no nginx or replica is left behind.
  const onExit = () => {
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  };
  process.once('exit', onExit);
  // A last resort for a run that hangs: stop everything and fail.
  const watchdog = setTimeout(() => {
    console.error(`bench --scale: still running after ${timeoutMs} ms; stopping.`);
    void cleanup().finally(() => process.exit(1));
  }, timeoutMs);
  watchdog.unref();
  const closers: Array<() => void> = [];
  try {
    const env = { BENCH_REDIS_URL: redisUrl, BENCH_KEY_PREFIX: prefix, BENCH_SESSION_KEY: sessionKey };
    const replicas = await Promise.all(['r0', 'r1', 'r2', 'r3'].map((id) => startReplica(id, env)));
    const [direct, ...balanced] = replicas as [ReplicaProcess, ...ReplicaProcess[]];
    const nginx = await startNginx(
      nginxBinary,
      join(root, 'stateless'),
      balanced.map((replica) => replica.stateless),
    );
    const sessionNginx = await startNginx(
      nginxBinary,
      join(root, 'session'),
      balanced.map((replica) => replica.session),
    );
    // What nginx adds in front of any Node server: three bare node:http echoes (the main bench's floor).
    const floors: string[] = [];
    for (let index = 0; index < 3; index++) {
      const port = await freePort();
      children.push(
        spawn(process.execPath, ['--import', 'tsx', floorServer, String(port)], {
          stdio: ['ignore', 'ignore', 'ignore'],
        }),
      );
      floors.push(`http://127.0.0.1:${port}/mcp`);
    }
    await Promise.all(floors.map((url) => waitForHttp(url)));
    const floorNginx = await startNginx(nginxBinary, join(root, 'floor'), floors);

    // Latency, interleaved.
    const posters = {
      legacyDirect: createHttpPoster(direct.stateless),
      legacyNginx: createHttpPoster(nginx.url),
      modernDirect: createHttpPoster(direct.stateless, 'modern'),
      modernNginx: createHttpPoster(nginx.url, 'modern'),
      sessionDirect: createHttpPoster(direct.session),
      sessionNginx: createHttpPoster(sessionNginx.url),
      floorDirect: createHttpPoster(floors[0] as string, 'modern'),
      floorNginx: createHttpPoster(floorNginx.url, 'modern'),
    };
    for (const poster of Object.values(posters)) closers.push(() => poster.close());
    await posters.sessionDirect.initialize();
    await posters.sessionNginx.initialize();
    const runners: Record<keyof typeof posters, Runner> = {
      legacyDirect: posters.legacyDirect.echo,
      legacyNginx: posters.legacyNginx.echo,
      modernDirect: posters.modernDirect.echo,
      modernNginx: posters.modernNginx.echo,
      sessionDirect: posters.sessionDirect.echo,
      sessionNginx: posters.sessionNginx.echo,
      floorDirect: posters.floorDirect.echo,
      floorNginx: posters.floorNginx.echo,
    };
    // Each replica behind nginx sees a third of a runner's calls: two more warm-ups through nginx
    // give each as many as the direct replica gets.
    for (const name of ['legacyNginx', 'modernNginx', 'sessionNginx', 'floorNginx'] as const) {
      for (let call = 0; call < 2 * options.warmup; call++) await runners[name](`warm ${call}`);
    }
    log(
      `latency: ${options.rounds} rounds x ${options.callsPerRound} echo calls after ${options.warmup} warm-up calls each (x3 through nginx)`,
    );
    const latency = await measureRounds(runners, options);

    // Redis commands per call, row by row (all four replicas counted).
    const totalOperations = async () =>
      (await Promise.all(replicas.map((replica) => replica.operations()))).reduce((sum, n) => sum + n, 0);
    const redisOpsPerCall = {} as Record<keyof typeof posters, number>;
    for (const [name, run] of Object.entries(runners) as Array<[keyof typeof posters, Runner]>) {
      const before = await totalOperations();
      for (let call = 0; call < redisCalls; call++) await run(`count ${call}`);
      redisOpsPerCall[name] = round2(((await totalOperations()) - before) / redisCalls);
    }
    const sessionReplicas = [
      ...new Set(
        [...readFileSync(join(sessionNginx.dir, 'access.log'), 'utf8').matchAll(/ replica=(\S+) /g)].map(
          (match) => match[1] as string,
        ),
      ),
    ].sort();

    // Throughput: 16 clients, direct to one replica vs nginx + three, interleaved rounds.
    const targets = {
      direct: {
        url: direct.stateless,
        replicaPids: [direct.child.pid as number],
        nginxPids: [] as number[],
      },
      nginx: {
        url: nginx.url,
        replicaPids: balanced.map((replica) => replica.child.pid as number),
        nginxPids: [nginx.child.pid as number, ...childPids(nginx.child.pid)],
      },
    };
    const loadPosters = Object.fromEntries(
      Object.entries(targets).map(([name, target]) => {
        const list = Array.from({ length: clients }, () => createHttpPoster(target.url, 'modern'));
        for (const poster of list) closers.push(() => poster.close());
        return [name, list];
      }),
    ) as Record<keyof typeof targets, Array<ReturnType<typeof createHttpPoster>>>;
    const totals = {} as Record<keyof typeof targets, ThroughputTotals>;
    for (const name of Object.keys(targets) as Array<keyof typeof targets>) {
      totals[name] = { calls: 0, seconds: 0, replicaCpu: 0, nginxCpu: 0, clientCpu: 0, machineCpu: 0 };
      await load(loadPosters[name], performance.now() + 1_000);
    }
    let cpuKnown = true;
    log(`throughput: ${clients} clients, ${throughputRounds} rounds x ${throughputSeconds} s per target`);
    for (let round = 0; round < throughputRounds; round++) {
      for (const [name, target] of Object.entries(targets) as Array<
        [keyof typeof targets, typeof targets.direct]
      >) {
        const replicaBefore = groupCpu(target.replicaPids);
        const nginxBefore = groupCpu(target.nginxPids);
        const machineBefore = machineBusySeconds();
        const clientBefore = process.cpuUsage();
        const started = performance.now();
        const calls = await load(loadPosters[name], started + throughputSeconds * 1_000);
        const seconds = (performance.now() - started) / 1_000;
        const client = process.cpuUsage(clientBefore);
        const replicaAfter = groupCpu(target.replicaPids);
        const nginxAfter = groupCpu(target.nginxPids);
        const machineAfter = machineBusySeconds();
        const total = totals[name];
        total.calls += calls;
        total.seconds += seconds;
        total.clientCpu += (client.user + client.system) / 1e6;
        if (
          replicaBefore === undefined ||
          replicaAfter === undefined ||
          nginxBefore === undefined ||
          nginxAfter === undefined ||
          machineBefore === undefined ||
          machineAfter === undefined
        ) {
          cpuKnown = false;
        } else {
          total.replicaCpu += replicaAfter - replicaBefore;
          total.nginxCpu += nginxAfter - nginxBefore;
          total.machineCpu += machineAfter - machineBefore;
        }
      }
    }
    const summary = (total: ThroughputTotals) => ({
      callsPerSecond: Math.round(total.calls / total.seconds),
      calls: total.calls,
      // CPU time per call (µs) and share of one core over the phase.
      replicaCpuUsPerCall: cpuKnown ? Math.round((total.replicaCpu / total.calls) * 1e6) : null,
      nginxCpuUsPerCall: cpuKnown ? Math.round((total.nginxCpu / total.calls) * 1e6) : null,
      clientCpuUsPerCall: Math.round((total.clientCpu / total.calls) * 1e6),
      replicaCores: cpuKnown ? round2(total.replicaCpu / total.seconds) : null,
      nginxCores: cpuKnown ? round2(total.nginxCpu / total.seconds) : null,
      clientCores: round2(total.clientCpu / total.seconds),
      // Every process of the machine, other tenants included: near the core count, the run was CPU-bound.
      machineCores: cpuKnown ? round2(total.machineCpu / total.seconds) : null,
    });
    const throughput = {
      clients,
      direct: summary(totals.direct),
      nginx: summary(totals.nginx),
      ratio: round2(
        totals.nginx.calls / totals.nginx.seconds / (totals.direct.calls / totals.direct.seconds),
      ),
    };

    // Capacity: a replica is one Node process (one core at most); nginx's workers share the cores.
    // A replica's CPU per call falls as its load rises (more requests per event-loop wake-up): the
    // loaded direct replica gives the high estimate, the lightly loaded ones behind nginx the low.
    const cores = availableParallelism();
    const nginxUs = throughput.nginx.nginxCpuUsPerCall;
    const carry = (replicaUs: number | null, replicaCount: number, coreCount: number) =>
      replicaUs === null || nginxUs === null || replicaUs === 0
        ? null
        : Math.round(Math.min((replicaCount * 1e6) / replicaUs, (coreCount * 1e6) / (replicaUs + nginxUs)));
    const range = (replicaCount: number, coreCount: number) => ({
      replicas: replicaCount,
      cores: coreCount,
      low: carry(throughput.nginx.replicaCpuUsPerCall, replicaCount, coreCount),
      high: carry(throughput.direct.replicaCpuUsPerCall, replicaCount, coreCount),
    });
    const perCore = (us: number | null) => (us ? Math.round(1e6 / us) : null);
    const capacity = {
      // Calls one replica process serves per second of its CPU time.
      replicaCallsPerCpuSecond: {
        loaded: perCore(throughput.direct.replicaCpuUsPerCall),
        behindNginx: perCore(throughput.nginx.replicaCpuUsPerCall),
      },
      nginxCallsPerCpuSecond: perCore(nginxUs),
      thisMachine: range(3, cores),
      example: range(8, 8),
      method:
        'calls/s ≈ min(N × 1e6 / R, M × 1e6 / (R + X)): R = a replica’s CPU µs per call (/proc utime+stime over the throughput phase; low estimate from the replicas behind nginx, high from the loaded direct one), X = nginx workers’ CPU µs per call, 2026-07-28 echo calls, clients on other machines, Redis not needed (0 commands per stateless call)',
    };

    const rows = [
      { key: 'legacy', label: '2025 stateless JSON', direct: 'legacyDirect', nginx: 'legacyNginx' },
      { key: 'modern', label: '2026-07-28 stateless', direct: 'modernDirect', nginx: 'modernNginx' },
      { key: 'session', label: '2025 session (hops)', direct: 'sessionDirect', nginx: 'sessionNginx' },
      { key: 'floor', label: 'floor: bare node:http', direct: 'floorDirect', nginx: 'floorNginx' },
    ] as const;
    const table = rows.map((row) => {
      const directStats = latency[row.direct] as Stats;
      const nginxStats = latency[row.nginx] as Stats;
      return {
        ...row,
        direct: directStats,
        nginx: nginxStats,
        addedP50Us: nginxStats.p50Us - directStats.p50Us,
        ratio: round2(nginxStats.p50Us / directStats.p50Us),
        redisOpsPerCall: { direct: redisOpsPerCall[row.direct], nginx: redisOpsPerCall[row.nginx] },
      };
    });
    const report = {
      latency: Object.fromEntries(table.map(({ key, label: _label, ...entry }) => [key, entry])),
      sessionServedBy: sessionReplicas,
      throughput,
      capacity,
    };
    if (options.json) {
      console.log(JSON.stringify(report));
      return;
    }
    const cell = (value: number | string | null, width = 8) => String(value).padStart(width);
    log(
      '\nlatency per call (µs; ratio = through nginx p50 / direct p50; Redis = commands per call, direct / nginx)',
    );
    log(
      `  ${'row'.padEnd(22)}${cell('direct')}${cell('p95')}${cell('nginx')}${cell('p95')}${cell('added')}${cell('ratio')}   Redis`,
    );
    for (const entry of table) {
      log(
        `  ${entry.label.padEnd(22)}${cell(entry.direct.p50Us)}${cell(entry.direct.p95Us)}${cell(entry.nginx.p50Us)}${cell(entry.nginx.p95Us)}${cell(entry.addedP50Us)}${cell(entry.ratio)}   ${entry.redisOpsPerCall.direct} / ${entry.redisOpsPerCall.nginx}`,
      );
    }
    const floorAdded = table.find((entry) => entry.key === 'floor')?.addedP50Us;
    log(
      `  added latency per call at p50: target ≤ 300 µs; nginx adds ${floorAdded} µs in front of a bare node:http echo (floor row); the session's calls were served by ${sessionReplicas.join(', ')}`,
    );
    log(
      `\nthroughput (${clients} concurrent clients, 2026-07-28 echo calls; CPU µs per call and cores busy)`,
    );
    for (const name of ['direct', 'nginx'] as const) {
      const entry = throughput[name];
      log(
        `  ${(name === 'direct' ? 'direct, 1 replica' : 'nginx + 3 replicas').padEnd(20)}${cell(entry.callsPerSecond)} calls/s   replicas ${entry.replicaCpuUsPerCall} µs (${entry.replicaCores} cores)   nginx ${entry.nginxCpuUsPerCall} µs (${entry.nginxCores})   client ${entry.clientCpuUsPerCall} µs (${entry.clientCores})`,
      );
    }
    log(`  ratio (nginx + 3 / direct): ${throughput.ratio}`);
    log(
      `  machine (all tenants) busy: ${throughput.direct.machineCores} cores direct, ${throughput.nginx.machineCores} through nginx, of ${cores}`,
    );
    log(
      `\ncapacity: a replica process serves ${capacity.replicaCallsPerCpuSecond.behindNginx}–${capacity.replicaCallsPerCpuSecond.loaded} calls per CPU-second, nginx ${capacity.nginxCallsPerCpuSecond}; so 3 replicas on ${cores} cores carry ≈ ${capacity.thisMachine.low}–${capacity.thisMachine.high} calls/s and 8 on 8 cores ≈ ${capacity.example.low}–${capacity.example.high}, estimated as ${capacity.method}.`,
    );
  } finally {
    clearTimeout(watchdog);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.off('exit', onExit);
    for (const close of closers) close();
    await cleanup();
  }
}
