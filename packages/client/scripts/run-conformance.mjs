#!/usr/bin/env node
// Runs the official MCP conformance suite's client scenarios against conformance/client.mjs (built
// on this package's dist) and prints the suite's summary line, `Total: N passed, N failed, N warnings`.
// Usage: node scripts/run-conformance.mjs [scenario | 'prefix*' ...] [--verbose] [--jobs N]
// (default: every client scenario of the suite, the `auth/*` ones included, run N = 4 at a time)
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveNode24 } from '../../../scripts/node24.mjs';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const suiteDir = dirname(require.resolve('@modelcontextprotocol/conformance/package.json'));
const suite = join(
  suiteDir,
  require('@modelcontextprotocol/conformance/package.json').bin?.conformance ?? 'dist/index.js',
);
const client = join(packageDir, 'conformance', 'client.mjs');
// The suite needs Node >= 22 (`fs.globSync`); the client under test runs on the Node running this script.
const suiteNode = resolveNode24();
const argv = process.argv.slice(2);
const jobsAt = argv.indexOf('--jobs');
const jobs = jobsAt >= 0 ? Math.max(1, Number(argv[jobsAt + 1]) || 1) : 4;
const scenarios = argv.filter((arg, index) => !arg.startsWith('-') && (jobsAt < 0 || index !== jobsAt + 1));
const verbose = argv.includes('--verbose');

/** Every client scenario the suite lists (`conformance list`, section "Client scenarios"). */
function allClientScenarios() {
  const listing = spawnSync(suiteNode, [suite, 'list'], { encoding: 'utf8' }).stdout ?? '';
  const section = listing.slice(listing.indexOf('Client scenarios'));
  // Lines read `  - name` or, since 0.2, `  - name [2025-11-25,2026-07-28]`; the section ends at a blank line.
  const block = section.split(/\n\s*\n/)[0] ?? '';
  return [...block.matchAll(/^\s*- (\S+)(?: \[[^\]]*\])?$/gm)].map((match) => match[1]);
}

function runScenario(scenario) {
  return new Promise((resolve) => {
    const child = spawn(
      suiteNode,
      [suite, 'client', '--command', `"${process.execPath}" "${client}"`, '--scenario', scenario],
      { cwd: packageDir, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    const started = Date.now();
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, output, seconds: (Date.now() - started) / 1000 });
    });
  });
}

/** The scenarios to run: every one by default; an argument ending in `*` (quoted: 'auth/*') picks by prefix. */
function selectScenarios() {
  if (scenarios.length === 0) return allClientScenarios();
  const listed = scenarios.some((name) => name.endsWith('*')) ? allClientScenarios() : [];
  return scenarios.flatMap((name) =>
    name.endsWith('*') ? listed.filter((scenario) => scenario.startsWith(name.slice(0, -1))) : [name],
  );
}

const selected = selectScenarios();
const runs = new Array(selected.length);
let next = 0;
await Promise.all(
  Array.from({ length: Math.min(jobs, selected.length) }, async () => {
    while (next < selected.length) {
      const index = next++;
      runs[index] = await runScenario(selected[index]);
    }
  }),
);

let passed = 0;
let failed = 0;
let warnings = 0;
let broken = false;
for (const [index, scenario] of selected.entries()) {
  const run = runs[index];
  const output = run.output;
  // Per scenario the suite prints "Passed: X/Y, K failed, W warnings".
  const match = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(output);
  if (!match) {
    broken = true;
    failed += 1;
    console.log(`✗ ${scenario}: no result (exit ${run.status ?? run.signal})`);
    console.log(output.split('\n').slice(-20).join('\n'));
    continue;
  }
  const [, ok, , bad, warn] = match.map(Number);
  passed += ok;
  failed += bad;
  warnings += warn;
  const clean = bad === 0 && warn === 0 && run.status === 0;
  if (run.status !== 0) broken = true;
  console.log(
    `${clean ? '✓' : '✗'} ${scenario}: ${ok} passed, ${bad} failed${warn ? `, ${warn} warnings` : ''} (${run.seconds.toFixed(1)} s)`,
  );
  if (!clean || verbose) {
    for (const line of output.split('\n'))
      if (/FAILURE|WARNING|Error/i.test(line)) console.log(`    ${line.trim()}`);
  }
}
console.log(`\nTotal: ${passed} passed, ${failed} failed, ${warnings} warnings`);
process.exit(failed > 0 || broken ? 1 : 0);
