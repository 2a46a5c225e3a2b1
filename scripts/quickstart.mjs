#!/usr/bin/env node
// The README's two quick-start commands (`npm run demo`, `npm test`) land here. A fresh machine has
// only Node 20 and npm, so this script brings the pinned pnpm through npx, installs the workspace,
// and then runs either the guided demo or the whole CI pipeline (lint, typecheck, build, the services
// the tests stand on, the test suite twice — on this Node and on Node 24 — and the scale tests,
// the browser tests and the packaging suite once).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureNativeAddons } from './native-addons.mjs';
import { ensureNode24 } from './node24.mjs';

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

/**
 * Redis and PostgreSQL started (nginx installed) by scripts/services.sh, and the URLs it prints
 * (SWITCHBOARD_TEST_REDIS_URL, …) put into the tests' environment. CI runs as root, so a failure
 * here is a real one: stop with what went wrong rather than run suites that would fail later.
 */
function startServices() {
  const script = join(root, 'scripts', 'services.sh');
  console.log('\n▶ services (Redis, PostgreSQL, nginx)');
  const started = spawnSync('bash', [script, 'start'], { cwd: root, env, stdio: 'inherit' });
  if (started.status !== 0) {
    console.error(
      `✖ services failed (exit ${started.status ?? started.signal}): scripts/services.sh start installs ` +
        'nginx, Redis and PostgreSQL (root or sudo needed) and starts them on loopback; see its messages above.',
    );
    process.exit(started.status || 1);
  }
  const printed = spawnSync('bash', [script, 'env'], { cwd: root, env, encoding: 'utf8' });
  for (const line of printed.stdout.split('\n')) {
    const at = line.indexOf('=');
    if (at > 0 && env[line.slice(0, at)] === undefined) env[line.slice(0, at)] = line.slice(at + 1);
  }
}

startServices();

/**
 * One vitest run under `node` (a binary path) — by default the whole suite from the root; returns
 * its counts. The JSON reporter gives exact numbers; its file is per run so runs cannot read each
 * other's. `options.cwd` and `options.args` run another suite (the scale tests' own config).
 */
function runSuite(title, node, options = {}) {
  const report = join(root, `.vitest-report-${title.replace(/\W+/g, '-')}.json`);
  rmSync(report, { force: true });
  console.log(`\n▶ tests on ${title}`);
  // The binary's own directory first on PATH, so that tests spawning `node` get the same Node.
  const suiteEnv = { ...env, PATH: `${dirname(node)}${delimiter}${env.PATH}` };
  const tests = spawnSync(
    node,
    [
      join(root, 'node_modules', 'vitest', 'vitest.mjs'),
      'run',
      ...(options.args ?? []),
      // Two test files at once: most of a test's time is spent waiting on child processes and
      // sockets, not on a core (vitest's default is one worker per core less one: one here).
      ...(options.workers !== undefined ? [`--maxWorkers=${options.workers}`] : []),
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
    ],
    { cwd: options.cwd ?? root, env: suiteEnv, stdio: 'inherit' },
  );
  let passed = 0;
  let failed = 0;
  if (existsSync(report)) {
    const summary = JSON.parse(readFileSync(report, 'utf8'));
    passed = summary.numPassedTests;
    failed = summary.numFailedTests + (summary.numRuntimeErrorTestSuites ?? 0);
  }
  console.log(`\n${title}: ${passed} passed, ${failed} failed`);
  return { passed, failed, ok: tests.status === 0 && passed > 0 };
}

/**
 * `scripts/chromium.sh` (apt-get install chromium when /usr/bin/chromium is missing), then the
 * browser suite with the path it printed in SWITCHBOARD_CHROMIUM. No browser: one failure, said why.
 */
function runBrowserSuite(title) {
  console.log('\n▶ chromium (for the browser tests)');
  const installed = spawnSync('bash', [join(root, 'scripts', 'chromium.sh')], {
    cwd: root,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const path = installed.stdout.trim().split('\n').pop();
  if (installed.status !== 0 || !path) {
    console.error(
      `✖ ${title} failed: scripts/chromium.sh could not provide Chromium (exit ${installed.status ?? installed.signal}); ` +
        "it installs Debian's chromium with apt-get as root or via sudo, see its messages above.",
    );
    return { passed: 0, failed: 1, ok: false };
  }
  env.SWITCHBOARD_CHROMIUM = path;
  return runSuite(title, process.execPath, {
    cwd: join(root, 'packages', 'inspector'),
    args: ['--config', 'vitest.browser.config.ts'],
  });
}

// Workers of the two whole-suite runs: SWITCHBOARD_TEST_WORKERS, else two (see runSuite).
const suiteWorkers = Number(env.SWITCHBOARD_TEST_WORKERS ?? 2);
// Node 20 (the machine's) first, then Node 24 from the npm registry: users run 22 and 24, and
// Node 20 reached end of life in April 2026. SWITCHBOARD_SKIP_NODE24=1 skips the second run locally.
const runs = [runSuite(`Node ${process.versions.node}`, process.execPath, { workers: suiteWorkers })];
// The scale tests once, on this Node: `pnpm test:scale`'s command (replicas behind nginx), with the
// JSON reporter for the counts.
runs.push(
  runSuite(`scale tests, Node ${process.versions.node}`, process.execPath, {
    cwd: join(root, 'apps', 'scale-tests'),
    args: ['--config', 'vitest.scale.config.ts'],
  }),
);
// The browser tests once, on this Node: the inspector (`switchboard ui`'s page) driven in Debian's
// Chromium (packages/inspector/vitest.browser.config.ts). scripts/chromium.sh installs the browser when missing; if
// it cannot, the suite counts as failed with that reason instead of being skipped.
runs.push(runBrowserSuite(`browser tests, Node ${process.versions.node}`));
if (env.SWITCHBOARD_SKIP_NODE24 !== '1') {
  const node24 = ensureNode24();
  console.log('\n▶ native addons for Node 24');
  ensureNativeAddons([node24]);
  runs.push(runSuite('Node 24', node24, { workers: suiteWorkers }));
}
// The packaging suite once (tests/packaging): every publishable package published to a local
// registry by `changeset publish`, installed with plain npm on this Node and on Node 24, and judged
// as its users get it. Last, so that better-sqlite3 is built for both Nodes (its installs download
// those binaries from the suite's stand-in for GitHub releases). SWITCHBOARD_SKIP_PACKAGING=1 skips it.
if (env.SWITCHBOARD_SKIP_PACKAGING !== '1') {
  runs.push(
    runSuite('packaging', process.execPath, {
      cwd: join(root, 'tests', 'packaging'),
      args: ['--config', 'vitest.packaging.config.ts'],
    }),
  );
}
const passed = runs.reduce((sum, run) => sum + run.passed, 0);
const failed = runs.reduce((sum, run) => sum + run.failed, 0);
console.log(`\nTotal: ${passed} passed, ${failed} failed`);
process.exit(runs.every((run) => run.ok) ? 0 : 1);
