/**
 * The HTTP tables' over-the-floor ratios across several runs of the bench, each with fresh server
 * processes: `node --import tsx bench/repeat-http.ts [runs, default 5] [--json]` (the package built
 * first, as for `index.ts`; `BENCH_BASE` and the other `BENCH_*` settings pass through).
 *
 * Why: one run measures one process per row, and where a process lands moves its row. Two
 * processes of the same minimal server, in the same rounds of one run, measured 1.019 and 1.073
 * over the floor: a row's run-to-run spread (±0.05) is half its distance to the 1.10 goal. The
 * median over runs is the figure to compare; the spread says how far one run can be trusted.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type RunSpread, spreadOverRuns } from './run-spread.js';

const args = process.argv.slice(2);
const json = args.includes('--json');
const runs = Number(args.find((arg) => !arg.startsWith('--')) ?? 5);
if (!Number.isInteger(runs) || runs < 1) {
  console.error(`repeat-http: runs must be a whole number of at least 1 (got "${args.join(' ')}").`);
  process.exit(2);
}
const bench = fileURLToPath(new URL('./index.ts', import.meta.url));

/** One `--http-only --json` run: each table's `overFloor`. */
function runOnce(): Promise<Record<string, Record<string, number>>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', bench, '--http-only', '--json'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`repeat-http: a bench run exited with code ${code}.`));
      const report = JSON.parse(out.trim().split('\n').pop() ?? '{}') as Record<
        string,
        { overFloor: Record<string, number> }
      >;
      resolve(Object.fromEntries(Object.entries(report).map(([table, value]) => [table, value.overFloor])));
    });
  });
}

const perRun: Array<Record<string, Record<string, number>>> = [];
for (let run = 1; run <= runs; run++) {
  perRun.push(await runOnce());
  if (!json) console.error(`run ${run}/${runs} done`);
}
const tables: Record<string, Record<string, RunSpread>> = {};
for (const table of Object.keys(perRun[0] ?? {})) {
  tables[table] = spreadOverRuns(perRun.map((report) => report[table] ?? {}));
}
if (json) console.log(JSON.stringify({ runs, tables }));
else {
  for (const [table, rows] of Object.entries(tables)) {
    console.log(`\n${table}: over the floor, ${runs} runs (median [min–max]; target ≤ 1.10)`);
    for (const [name, spread] of Object.entries(rows))
      console.log(
        `  ${name.padEnd(18)} ${spread.median.toFixed(3)} [${spread.min.toFixed(3)}–${spread.max.toFixed(3)}]`,
      );
  }
}
