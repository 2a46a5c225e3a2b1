/**
 * One run of the suite, prepared once before any test file (vitest's global setup) and read by
 * each: the Node runtimes, the local registry and what `changeset publish` did there, the
 * published tarballs, and every install. The expensive part (packing, publishing, installing) happens once and
 * side by side; the test files judge the result. An install that failed is recorded, not thrown:
 * its tests fail with npm's output, and the rest of the run still judges the others.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { changesetPublish } from './changeset-publish.js';
import { installBudgetMiB, mebibytes } from './install-budgets.js';
import { type InstalledProject, installProject } from './install-project.js';
import { type LocalRegistry, startLocalRegistry } from './local-registry.js';
import { mapWithLimit } from './map-with-limit.js';
import { type NodeRuntime, nodeRuntimes } from './node-runtimes.js';
import { fetchPublishedTarball, type PackedPackage, packPackages } from './pack-packages.js';
import { startPrebuiltMirror } from './prebuilt-binaries.js';
import { publishablePackages, runtimeClosure } from './publishable-packages.js';
import { describeFailure, succeeded } from './run-command.js';

/** What `changeset publish` did against the local registry. */
export interface PublishRecord {
  ok: boolean;
  published: string[];
  failed: string[];
  /** The command's output when it failed. */
  failure: string | undefined;
  seconds: number;
}

/** Everything a test file needs from the run. */
export interface PackagingRun {
  /** The run's folder (tarballs, registry storage, installs), removed at the end. */
  runDir: string;
  runtimes: NodeRuntime[];
  packed: PackedPackage[];
  registry: { url: string; npmrc: string };
  publish: PublishRecord;
  installs: InstalledProject[];
  /**
   * Every library (no `bin`) installed into one project on the first runtime, for the strict
   * TypeScript consumer that imports every entry at once (not measured against a budget; install
   * scripts are skipped, as no code of it runs).
   */
  typesProject: { packages: string[]; install: InstalledProject } | undefined;
  /** Packages the publish did not take, packed with `pnpm pack` instead. */
  repacked: string[];
  /** The prebuilt native binaries the installs could download (src/prebuilt-binaries.ts). */
  prebuilt: string[];
  /** Seconds each phase took. */
  timings: Record<string, number>;
}

/** Installs at once: npm is mostly waiting on the network, but native addons compile on the CPU. */
const installConcurrency = Number(process.env.SWITCHBOARD_PACKAGING_CONCURRENCY ?? 6);

/** A folder name for a package (`@switchboard/client` → `switchboard-client`). */
export function slug(name: string): string {
  return name.replace(/^@/, '').replace(/\//g, '-');
}

/** The table the run prints: each install's time, size, package count and budget. */
export function installTable(installs: readonly InstalledProject[]): string {
  const rows = installs.map((install) => {
    const budget = installBudgetMiB(install.target);
    const size = mebibytes(install.bytes);
    const verdict = !install.ok ? 'INSTALL FAILED' : size > budget ? 'OVER BUDGET' : 'ok';
    return [
      install.runtime.label,
      `${install.target}${install.global ? ' (-g)' : ''}`,
      `${install.seconds.toFixed(1)} s`,
      install.ok ? `${size} MiB` : '-',
      `≤ ${budget} MiB`,
      install.ok ? String(install.packageCount) : '-',
      verdict,
    ];
  });
  const header = ['node', 'install', 'time', 'node_modules', 'budget', 'packages', ''];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] as string).length)),
  );
  return [header, ...rows]
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column] as number))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/**
 * Starts the registry and publishes to it (the release dry run), fetches the published tarballs
 * back (packing what the publish did not take), installs every package on every Node — the longest
 * installs first — and writes `run.json` into `runDir`.
 */
export async function preparePackagingRun(
  runDir: string,
): Promise<{ run: PackagingRun; registry: LocalRegistry }> {
  const timings: Record<string, number> = {};
  const timed = async <T>(phase: string, work: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await work();
    } finally {
      timings[phase] = Math.round((performance.now() - started) / 100) / 10;
    }
  };
  const tarballs = join(runDir, 'tarballs');
  mkdirSync(tarballs, { recursive: true });
  const packages = publishablePackages();
  const registry = await timed('registry start', () => startLocalRegistry(join(runDir, 'registry')));
  const [runtimes, outcome] = await Promise.all([
    timed('node runtimes', nodeRuntimes),
    timed('changeset publish', () => changesetPublish(registry, join(runDir, 'bin'))),
  ]);
  const publish: PublishRecord = {
    ok: succeeded(outcome.result) && outcome.failed.length === 0,
    published: outcome.published,
    failed: outcome.failed,
    failure:
      succeeded(outcome.result) && outcome.failed.length === 0 ? undefined : describeFailure(outcome.result),
    seconds: outcome.result.seconds,
  };
  const repackedNames: string[] = [];
  const packed = await timed('tarballs', async () => {
    const fetched = await Promise.all(
      packages.map((pkg) => fetchPublishedTarball(pkg, registry.url, tarballs)),
    );
    const unpublished = packages.filter((_pkg, index) => fetched[index] === undefined);
    repackedNames.push(...unpublished.map((pkg) => pkg.name));
    const repacked = await packPackages(unpublished, tarballs);
    return packages.map(
      (pkg, index) => fetched[index] ?? (repacked.find((item) => item.name === pkg.name) as PackedPackage),
    );
  });
  const byName = new Map(packed.map((item) => [item.name, item]));
  const mirror = await timed('prebuilt binaries', () =>
    startPrebuiltMirror(runtimes, join(runDir, 'prebuilt')),
  );
  const libraries = packed.filter((item) => item.manifest.bin === undefined);
  const plans = runtimes
    .flatMap((runtime) => packed.map((target) => ({ runtime, target, types: false })))
    .sort((a, b) => installWeight(b.target) - installWeight(a.target));
  // The types project (every library at once) early in the queue: its test is the longest.
  if (runtimes[0] && libraries[0])
    plans.splice(1, 0, { runtime: runtimes[0], target: libraries[0], types: true });
  const env = mirror.env;
  let done: InstalledProject[];
  try {
    done = await timed('installs', () =>
      mapWithLimit(plans, installConcurrency, async ({ runtime, target, types }) => {
        if (types) {
          const workDir = join(runDir, 'installs', 'types');
          // Declarations only: no install script can fail it (a library whose own install fails is
          // reported by its own install), so every library's types are still judged.
          return installProject({
            runtime,
            target,
            source: { tarballs: libraries },
            workDir,
            ignoreScripts: true,
          });
        }
        const workDir = join(runDir, 'installs', `node${runtime.major}-${slug(target.name)}`);
        if (target.manifest.bin !== undefined) {
          return installProject({ runtime, target, source: { registry: registry.url }, workDir, env });
        }
        const closure = runtimeClosure(target.name, packages).map(
          (name) => byName.get(name) as PackedPackage,
        );
        return installProject({ runtime, target, source: { tarballs: closure }, workDir, env });
      }),
    );
  } finally {
    await mirror.close();
  }
  const typesInstall = done.find((_install, index) => plans[index]?.types);
  const installs = done.filter((_install, index) => !plans[index]?.types);
  const run: PackagingRun = {
    runDir,
    runtimes,
    packed,
    registry: { url: registry.url, npmrc: registry.npmrc },
    publish,
    installs,
    prebuilt: mirror.served,
    repacked: repackedNames,
    typesProject: typesInstall && { packages: libraries.map((item) => item.name), install: typesInstall },
    timings,
  };
  writeFileSync(join(runDir, 'run.json'), `${JSON.stringify(run, null, 2)}\n`);
  return { run, registry };
}

/** Longest installs first: a global one (it brings everything), then by the size of its budget. */
function installWeight(target: PackedPackage): number {
  return (target.manifest.bin !== undefined ? 1000 : 0) + installBudgetMiB(target.name);
}

/** The run prepared by the global setup (its `run.json`). */
export function readPackagingRun(runFile: string): PackagingRun {
  return JSON.parse(readFileSync(runFile, 'utf8')) as PackagingRun;
}
