/**
 * One install as a user makes it: plain npm (no pnpm, no workspace, no overrides) in a fresh folder
 * outside the repository (so nothing resolves from the workspace's node_modules), with an empty npm
 * cache of its own and install scripts allowed. A package with a `bin` is installed globally into a
 * prefix (`npm i -g --prefix`), as its README says; every other package into a new project.
 *
 * A project gets the target's tarball and those of its workspace dependencies (not on any registry
 * yet) side by side, which npm lays out as it would `npm i <target>` by name. A global install
 * cannot be given them so: each tarball would become a global package of its own, its dependencies
 * nested under it, and the tree (and its size) would not be the user's. So a package with a `bin`
 * is installed by name, its scope from the run's local registry (where the release dry run published
 * it) and everything else from the registry npm is configured with.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NodeRuntime } from './node-runtimes.js';
import type { PackedPackage } from './pack-packages.js';
import { outputTail, runCommand, succeeded } from './run-command.js';

/** One finished install (failed or not). */
export interface InstalledProject {
  /** The package the install is for. */
  target: string;
  runtime: NodeRuntime;
  /** Installed with `-g --prefix`. */
  global: boolean;
  /** The folder whose `node_modules` holds the packages: the project, or the prefix's `lib`. */
  root: string;
  /** The global prefix's `bin` folder (for a global install). */
  binDir: string | undefined;
  ok: boolean;
  /** npm's output tail when it failed. */
  failure: string | undefined;
  /** Wall time of `npm install`, seconds. */
  seconds: number;
  /** Size of `node_modules` on disk (du), bytes. */
  bytes: number;
  /** Packages in `node_modules`, nested ones included. */
  packageCount: number;
}

/** The installed copy of `name` in a project. */
export function installedPackageDir(project: InstalledProject, name: string): string {
  return join(project.root, 'node_modules', ...name.split('/'));
}

/** Counts the package folders of a `node_modules` tree (scoped and nested ones included). */
export function countPackages(nodeModules: string): number {
  let count = 0;
  const visitPackage = (dir: string) => {
    count++;
    visitNodeModules(join(dir, 'node_modules'));
  };
  const visitNodeModules = (dir: string) => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
      if (entry.name.startsWith('@')) {
        for (const scoped of readdirSync(join(dir, entry.name), { withFileTypes: true })) {
          if (scoped.isDirectory()) visitPackage(join(dir, entry.name, scoped.name));
        }
      } else {
        visitPackage(join(dir, entry.name));
      }
    }
  };
  visitNodeModules(nodeModules);
  return count;
}

/** Size of a folder on disk in bytes, as `du` counts it. */
export async function diskUsage(dir: string): Promise<number> {
  const result = await runCommand('du', ['-sk', dir], { cwd: dir, env: process.env });
  return succeeded(result) ? Number(result.stdout.split(/\s/)[0]) * 1024 : 0;
}

/**
 * Points npm at `registry` for the scope of `name` only (`npm_config_@switchboard:registry`), as an
 * organisation points npm at its own registry: every other package still comes from the registry npm
 * is configured with, directly, as it does for a user. An unscoped name takes the whole registry.
 */
export function registryEnvironment(name: string, registry: string): Record<string, string> {
  const scope = name.startsWith('@') ? name.split('/')[0] : undefined;
  return scope ? { [`npm_config_${scope}:registry`]: registry } : { npm_config_registry: registry };
}

/** Options of {@link installProject}. */
export interface InstallProjectOptions {
  runtime: NodeRuntime;
  /** The package the install is for; it comes first in `tarballs`. */
  target: PackedPackage;
  /**
   * Where the packages come from: the target's tarball and those of its workspace dependencies
   * (transitively), or a registry that has them all (the target is installed by name and version).
   */
  source: { tarballs: readonly PackedPackage[] } | { registry: string };
  /** An empty folder for the project, its prefix and its npm cache. */
  workDir: string;
  /** Added to the runtime's environment (the prebuilt binaries' mirror). */
  env?: Record<string, string>;
  /** `--ignore-scripts`: for an install whose code never runs (the types project), not a user's. @default false */
  ignoreScripts?: boolean;
  /** @default 600000 */
  timeoutMs?: number;
}

/** Installs `tarballs` for `target` on `runtime`, from an empty npm cache, and measures the result. */
export async function installProject(options: InstallProjectOptions): Promise<InstalledProject> {
  const { runtime, target, workDir } = options;
  const global = target.manifest.bin !== undefined;
  const cache = join(workDir, 'npm-cache');
  const project = join(workDir, global ? 'prefix' : 'project');
  mkdirSync(cache, { recursive: true });
  mkdirSync(project, { recursive: true });
  const root = global ? join(project, 'lib') : project;
  if (!global) {
    writeFileSync(
      join(project, 'package.json'),
      `${JSON.stringify({ name: 'packaging-consumer', version: '1.0.0', private: true }, null, 2)}\n`,
    );
  }
  const args = [
    runtime.npmCli,
    'install',
    ...(global ? ['--global', '--prefix', project] : []),
    '--cache',
    cache,
    '--no-audit',
    '--no-fund',
    ...(options.ignoreScripts ? ['--ignore-scripts'] : []),
    ...('registry' in options.source
      ? [`${target.name}@${target.version}`]
      : options.source.tarballs.map((packed) => packed.tarball)),
  ];
  const result = await runCommand(runtime.node, args, {
    cwd: global ? workDir : project,
    env: {
      ...runtime.env,
      ...options.env,
      ...('registry' in options.source ? registryEnvironment(target.name, options.source.registry) : {}),
    },
    timeoutMs: options.timeoutMs ?? 600_000,
  });
  const ok = succeeded(result);
  const nodeModules = join(root, 'node_modules');
  return {
    target: target.name,
    runtime,
    global,
    root,
    binDir: global ? join(project, 'bin') : undefined,
    ok,
    failure: ok ? undefined : outputTail(result, 4000),
    seconds: result.seconds,
    bytes: ok ? await diskUsage(nodeModules) : 0,
    packageCount: ok ? countPackages(nodeModules) : 0,
  };
}
