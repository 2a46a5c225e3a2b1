#!/usr/bin/env node
// The README's two quick-start commands (`npm run demo`, `npm test`) land here. A fresh machine has
// only Node 20 and npm, so this script brings the pinned pnpm through npx, installs the workspace,
// and then runs either the guided demo or the whole CI pipeline (lint, typecheck, build, test).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const PNPM = 'pnpm@12.4.2';
const mode = process.argv[2] ?? 'test';

const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1', TURBO_NO_UPDATE_NOTIFIER: '1' };
// node-gyp (hnswlib-node) downloads Node headers unless told where they are; the machines we run on
// have no route to nodejs.org, but Debian's Node ships its headers in /usr/include/node.
if (!env.npm_config_nodedir && existsSync('/usr/include/node/node.h')) env.npm_config_nodedir = '/usr';
if (env.CI) env.NO_COLOR = '1';

function run(title, args, options = {}) {
  console.log(`\n▶ ${title}`);
  const result = spawnSync('npx', ['-y', PNPM, ...args], { cwd: root, env, stdio: 'inherit', ...options });
  if (result.status !== 0) {
    console.error(`✖ ${title} failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status || 1);
  }
}

run('install', ['install', ...(env.CI ? ['--frozen-lockfile'] : [])]);

if (mode === 'demo') {
  run('build', ['exec', 'turbo', 'run', 'build', '--output-logs=errors-only']);
  run('demo', ['--filter', '@switchboard/examples', 'run', 'demo']);
  process.exit(0);
}

run('lint', ['exec', 'biome', 'ci', '.']);
run('build', ['exec', 'turbo', 'run', 'build', '--output-logs=errors-only']);
run('typecheck', ['exec', 'turbo', 'run', 'typecheck', '--output-logs=errors-only']);

const report = join(root, '.vitest-report.json');
rmSync(report, { force: true });
const tests = spawnSync(
  'npx',
  [
    '-y',
    PNPM,
    'exec',
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
  ],
  { cwd: root, env, stdio: 'inherit' },
);
let passed = 0;
let failed = 0;
if (existsSync(report)) {
  const summary = JSON.parse(readFileSync(report, 'utf8'));
  passed = summary.numPassedTests;
  failed = summary.numFailedTests + (summary.numRuntimeErrorTestSuites ?? 0);
}
console.log(`\nTotal: ${passed} passed, ${failed} failed`);
process.exit(tests.status === 0 && passed > 0 ? 0 : 1);
