/**
 * `pnpm --filter @switchboard/cli bench [--runs N] [--json]`: how long the `switchboard` command
 * takes to start, as a person at a terminal feels it (wall time of a whole process, spawn to
 * exit), against two baselines measured in the same run:
 *
 * - `node -e 0`: the floor any Node command pays;
 * - a ten-line SDK client script (v2 and v1, in bench/) that lists the tools of the same stdio
 *   server `switchboard tools` lists: the floor of a command that connects a server.
 *
 * The cases run interleaved in rounds (one of each per round, after one warm-up round), so a
 * machine that slows down mid-run slows every case alike. Prints median and p95 per case and the
 * ratios the goals are stated in: `--help` median / `node -e 0` median, `tools` median / SDK median.
 * Goals: `--help` ≤ 100 ms, `tools` ≤ 1.1 × the SDK script.
 *
 * `BENCH_BASE=<another checkout's packages/cli, built>` adds that build's `--help` and `tools` to
 * the same rounds, and the ratios of ours to it: before and after in one run.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverScript } from '@switchboard/test-helpers';

const here = dirname(fileURLToPath(import.meta.url));
// The built bin (`pnpm bench` builds first): what users run.
const bin = join(here, '..', 'dist', 'bin.js');
const everything = serverScript('server-everything');
const baseDir = process.env.BENCH_BASE;
const baseBin = baseDir === undefined ? undefined : join(baseDir, 'dist', 'bin.js');

const json = process.argv.includes('--json');
const runsFlag = process.argv.indexOf('--runs');
const runs = Number(runsFlag === -1 ? (process.env.BENCH_RUNS ?? 15) : process.argv[runsFlag + 1]);
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs takes a whole number ≥ 1.');

const root = mkdtempSync(join(tmpdir(), 'switchboard-startup-bench-'));
const home = join(root, 'home');
const config = join(root, 'mcp.json');
writeFileSync(
  config,
  JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [everything, 'stdio'] } } }),
);
// A home of its own (the registry store and sign-ins live there) and no colour or spinner:
// everything else as a user's shell would have it.
const env = { ...process.env, HOME: home, SWITCHBOARD_HOME: home, NO_COLOR: '1', CI: '1' };

interface BenchCase {
  name: string;
  args: string[];
}

const cases: BenchCase[] = [
  { name: 'node -e 0', args: ['-e', '0'] },
  { name: 'switchboard --help', args: [bin, '--help'] },
  { name: 'switchboard tools', args: [bin, 'tools', '--config', config] },
  ...(baseBin === undefined
    ? []
    : [
        { name: 'base --help', args: [baseBin, '--help'] },
        { name: 'base tools', args: [baseBin, 'tools', '--config', config] },
      ]),
  {
    name: 'sdk v2 listTools',
    args: [join(here, 'sdk-v2-list-tools.mjs'), process.execPath, everything, 'stdio'],
  },
  {
    name: 'sdk v1 listTools',
    args: [join(here, 'sdk-v1-list-tools.mjs'), process.execPath, everything, 'stdio'],
  },
];

function runOnce(entry: BenchCase): number {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, entry.args, { env, encoding: 'utf8' });
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) {
    throw new Error(`${entry.name} exited with ${result.status}: ${result.stderr || result.stdout}`);
  }
  return elapsed;
}

function quantile(sorted: number[], q: number): number {
  const at = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[at] ?? Number.NaN;
}

try {
  // Warm-up: the file system cache, and the registry store `tools` creates on its first run.
  for (const entry of cases) runOnce(entry);
  const samples = new Map<string, number[]>(cases.map((entry) => [entry.name, []]));
  for (let round = 0; round < runs; round++) {
    for (const entry of cases) samples.get(entry.name)?.push(runOnce(entry));
  }
  const figures = cases.map((entry) => {
    const sorted = [...(samples.get(entry.name) ?? [])].sort((a, b) => a - b);
    return { name: entry.name, median: quantile(sorted, 0.5), p95: quantile(sorted, 0.95) };
  });
  const median = (name: string) => figures.find((figure) => figure.name === name)?.median ?? Number.NaN;
  const ratios = {
    helpVsNode: median('switchboard --help') / median('node -e 0'),
    toolsVsNode: median('switchboard tools') / median('node -e 0'),
    toolsVsSdkV2: median('switchboard tools') / median('sdk v2 listTools'),
    toolsVsSdkV1: median('switchboard tools') / median('sdk v1 listTools'),
    ...(baseBin === undefined
      ? {}
      : {
          helpVsBase: median('switchboard --help') / median('base --help'),
          toolsVsBase: median('switchboard tools') / median('base tools'),
        }),
  };
  if (json) {
    process.stdout.write(`${JSON.stringify({ runs, node: process.version, figures, ratios }, null, 2)}\n`);
  } else {
    process.stdout.write(`switchboard start-up, ${runs} runs per case, Node ${process.version}\n\n`);
    process.stdout.write(`${'case'.padEnd(22)}${'median ms'.padStart(11)}${'p95 ms'.padStart(10)}\n`);
    for (const figure of figures) {
      process.stdout.write(
        `${figure.name.padEnd(22)}${figure.median.toFixed(1).padStart(11)}${figure.p95.toFixed(1).padStart(10)}\n`,
      );
    }
    process.stdout.write(
      [
        '',
        `--help / node -e 0      ${ratios.helpVsNode.toFixed(2)}×  (goal: --help ≤ 100 ms)`,
        `tools  / node -e 0      ${ratios.toolsVsNode.toFixed(2)}×`,
        `tools  / sdk v2 script  ${ratios.toolsVsSdkV2.toFixed(2)}×  (goal ≤ 1.10×)`,
        `tools  / sdk v1 script  ${ratios.toolsVsSdkV1.toFixed(2)}×`,
        ...(ratios.helpVsBase === undefined || ratios.toolsVsBase === undefined
          ? []
          : [
              `--help / base --help    ${ratios.helpVsBase.toFixed(2)}×  (before/after: ≤ noise)`,
              `tools  / base tools     ${ratios.toolsVsBase.toFixed(2)}×`,
            ]),
        '',
      ].join('\n'),
    );
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
