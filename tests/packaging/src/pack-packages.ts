/**
 * The run's tarballs, one per publishable package, in one folder that every install and judge
 * reads: those the release dry run published (`changeset publish` packs with `pnpm publish`, which
 * runs each package's `prepack` and rewrites `workspace:` ranges into versions), fetched back from
 * the local registry — so what is judged is what was published, packed once. A package the publish
 * did not take is packed here with `pnpm pack`, the same packer, so that it is still judged.
 */
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mapWithLimit } from './map-with-limit.js';
import type { PackageManifest, WorkspacePackage } from './publishable-packages.js';
import { workspacePackageManager, workspaceRoot } from './publishable-packages.js';
import { describeFailure, runCommand, succeeded } from './run-command.js';

/** One packed package. */
export interface PackedPackage {
  name: string;
  version: string;
  /** Its workspace folder, relative to the root (`packages/client`). */
  folder: string;
  /** Absolute path of the `.tgz`. */
  tarball: string;
  /** Size of the `.tgz` in bytes. */
  tarballBytes: number;
  /** The files in the tarball, relative to its `package/` folder (`dist/index.js`). */
  files: string[];
  /** The package.json as packed. */
  manifest: PackageManifest;
}

/** Lists and reads a tarball with the system's `tar`. */
export async function readTarball(tarball: string): Promise<{ files: string[]; manifest: PackageManifest }> {
  const env = { ...process.env };
  const listed = await runCommand('tar', ['-tzf', tarball], { cwd: workspaceRoot, env });
  if (!succeeded(listed)) throw new Error(describeFailure(listed));
  const files = listed.stdout
    .split('\n')
    .filter((line) => line.startsWith('package/') && !line.endsWith('/'))
    .map((line) => line.slice('package/'.length));
  const read = await runCommand('tar', ['-xzOf', tarball, 'package/package.json'], {
    cwd: workspaceRoot,
    env,
  });
  if (!succeeded(read)) throw new Error(describeFailure(read));
  return { files, manifest: JSON.parse(read.stdout) as PackageManifest };
}

/** The file name pnpm and npm give a package's tarball (`@switchboard/client` 0.1.0 → `switchboard-client-0.1.0.tgz`). */
export function tarballName(name: string, version: string): string {
  return `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`;
}

/** Reads a tarball in `destination` into what the suite knows of it. */
async function describeTarball(folder: string, tarball: string): Promise<PackedPackage> {
  const { files, manifest } = await readTarball(tarball);
  return {
    name: manifest.name,
    version: manifest.version,
    folder,
    tarball,
    tarballBytes: statSync(tarball).size,
    files,
    manifest,
  };
}

/** Downloads the tarball of `pkg` at its workspace version from `registry` into `destination`; undefined when it is not there. */
export async function fetchPublishedTarball(
  pkg: WorkspacePackage,
  registry: string,
  destination: string,
): Promise<PackedPackage | undefined> {
  const document = await fetch(new URL(pkg.name.replace('/', '%2f'), registry));
  if (!document.ok) return undefined;
  const packument = (await document.json()) as { versions?: Record<string, { dist?: { tarball?: string } }> };
  const url = packument.versions?.[pkg.manifest.version]?.dist?.tarball;
  if (!url) return undefined;
  const response = await fetch(url);
  if (!response.ok) return undefined;
  const tarball = join(destination, tarballName(pkg.name, pkg.manifest.version));
  writeFileSync(tarball, Buffer.from(await response.arrayBuffer()));
  return describeTarball(pkg.folder, tarball);
}

/** Packs each of `packages` into `destination` (three at a time); throws with pnpm's output when one fails. */
export async function packPackages(
  packages: readonly WorkspacePackage[],
  destination: string,
): Promise<PackedPackage[]> {
  const pnpm = workspacePackageManager();
  return mapWithLimit(packages, 3, async (pkg) => {
    const packed = await runCommand('npx', ['-y', pnpm, 'pack', '--pack-destination', destination], {
      cwd: pkg.dir,
      env: { ...process.env, NO_COLOR: '1' },
      timeoutMs: 300_000,
    });
    const tarball = join(destination, tarballName(pkg.name, pkg.manifest.version));
    if (!succeeded(packed) || !existsSync(tarball)) {
      throw new Error(`Packing ${pkg.name} failed: ${describeFailure(packed)}`);
    }
    return describeTarball(pkg.folder, tarball);
  });
}
