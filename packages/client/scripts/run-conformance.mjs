#!/usr/bin/env node
// Runs the official MCP conformance suite's client scenarios against conformance/client.mjs (built
// on this package's dist) and prints the suite's summary line, `Total: N passed, N failed, N warnings`.
// Usage: node scripts/run-conformance.mjs [scenario ...]   (default: the scenarios this package passes)
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const suiteDir = dirname(require.resolve('@modelcontextprotocol/conformance/package.json'));
const suite = join(
  suiteDir,
  require('@modelcontextprotocol/conformance/package.json').bin?.conformance ?? 'dist/index.js',
);
const client = join(packageDir, 'conformance', 'client.mjs');
const defaults = ['initialize', 'tools_call', 'elicitation-sep1034-client-defaults', 'sse-retry'];
const scenarios = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const verbose = process.argv.includes('--verbose');

let passed = 0;
let failed = 0;
let warnings = 0;
let broken = false;
for (const scenario of scenarios.length > 0 ? scenarios : defaults) {
  const run = spawnSync(
    process.execPath,
    [suite, 'client', '--command', `"${process.execPath}" "${client}"`, '--scenario', scenario],
    { cwd: packageDir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 120_000 },
  );
  const output = `${run.stdout ?? ''}${run.stderr ?? ''}`;
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
    `${clean ? '✓' : '✗'} ${scenario}: ${ok} passed, ${bad} failed${warn ? `, ${warn} warnings` : ''}`,
  );
  if (!clean || verbose) {
    for (const line of output.split('\n'))
      if (/FAILURE|WARNING|Error/i.test(line)) console.log(`    ${line.trim()}`);
  }
}
console.log(`\nTotal: ${passed} passed, ${failed} failed, ${warnings} warnings`);
process.exit(failed > 0 || broken ? 1 : 0);
