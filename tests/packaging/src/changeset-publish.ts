/**
 * The release's publish step, run for real against the run's local registry: the workspace's
 * `changeset publish` (which publishes with pnpm, as the release does), with `npm_config_registry`
 * and a user config that point at that registry only, and `--no-git-tag` so that the repository is
 * left as it was. changesets runs `pnpm` and `npm` from PATH; where pnpm is not installed (CI brings
 * it through npx), a `pnpm` on PATH stands for `npx -y <the workspace's pnpm>`.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { LocalRegistry } from './local-registry.js';
import { workspacePackageManager, workspaceRoot } from './publishable-packages.js';
import { type CommandResult, runCommand, succeeded } from './run-command.js';

const require = createRequire(import.meta.url);

/** What `changeset publish` did. */
export interface PublishOutcome {
  result: CommandResult;
  /** `name@version` of each package changesets says it published. */
  published: string[];
  /** `name@version` of each package changesets says failed to publish. */
  failed: string[];
}

/** The `name@version` lines under one of changesets' closing headings. */
function listedUnder(output: string, heading: RegExp): string[] {
  const lines = output.split('\n').map((line) => line.replace(/^🦋\s+/, '').trim());
  const start = lines.findIndex((line) => heading.test(line));
  if (start < 0) return [];
  const listed: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (!/^@?[\w.-]+(\/[\w.-]+)?@\d/.test(line)) break;
    listed.push(line);
  }
  return listed;
}

/**
 * The workspace's pnpm as one command: its executable in npx's cache when it can be found there
 * (changesets runs pnpm twice per package, and npx resolves the package each time), else through npx.
 */
async function pnpmCommand(): Promise<string> {
  const packageManager = workspacePackageManager();
  const located = await runCommand(
    'npm',
    ['exec', '--yes', `--package=${packageManager}`, '--', 'sh', '-c', 'command -v pnpm'],
    { cwd: workspaceRoot, env: process.env, timeoutMs: 120_000 },
  );
  const path = located.stdout.trim().split('\n').pop() ?? '';
  return succeeded(located) && path.startsWith('/') ? JSON.stringify(path) : `npx -y ${packageManager}`;
}

/** Runs `changeset publish --no-git-tag` against `registry` (which must be on loopback). */
export async function changesetPublish(registry: LocalRegistry, shimDir: string): Promise<PublishOutcome> {
  if (!/^http:\/\/127\.0\.0\.1:\d+\/$/.test(registry.url)) {
    throw new Error(`The dry run publishes to a loopback registry only, not ${registry.url}.`);
  }
  mkdirSync(shimDir, { recursive: true });
  const shim = join(shimDir, 'pnpm');
  writeFileSync(shim, `#!/bin/sh\nexec ${await pnpmCommand()} "$@"\n`);
  chmodSync(shim, 0o755);
  const changeset = join(dirname(require.resolve('@changesets/cli/package.json')), 'bin.js');
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.toLowerCase().startsWith('npm_') && !key.toLowerCase().startsWith('pnpm_')) env[key] = value;
  }
  Object.assign(env, {
    PATH: `${shimDir}:${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
    npm_config_registry: registry.url,
    npm_config_userconfig: registry.npmrc,
    NO_COLOR: '1',
  });
  const result = await runCommand(process.execPath, [changeset, 'publish', '--no-git-tag'], {
    cwd: workspaceRoot,
    env,
    timeoutMs: 480_000,
  });
  const output = `${result.stdout}\n${result.stderr}`;
  return {
    result,
    published: listedUnder(output, /packages published successfully/),
    failed: listedUnder(output, /packages failed to publish/),
  };
}
