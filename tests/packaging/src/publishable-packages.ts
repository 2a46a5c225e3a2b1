/**
 * The packages the suite judges, found rather than listed: every package.json under `packages/`
 * that is not `private`. A package added there (or split out of another) is packed, installed and
 * judged by the next run without a change here.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root folder. */
export const workspaceRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** The fields of a package.json the suite reads. */
export interface PackageManifest {
  name: string;
  version: string;
  private?: boolean;
  license?: string;
  keywords?: string[];
  homepage?: string;
  repository?: { type?: string; url?: string; directory?: string } | string;
  bugs?: { url?: string } | string;
  engines?: Record<string, string>;
  type?: string;
  main?: string;
  types?: string;
  bin?: Record<string, string> | string;
  files?: string[];
  exports?: unknown;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

/** One publishable package of the workspace. */
export interface WorkspacePackage {
  name: string;
  /** Its folder, absolute. */
  dir: string;
  /** Its folder relative to the root, with `/` (`packages/client`). */
  folder: string;
  manifest: PackageManifest;
}

/** Every non-private package under `packages/`, sorted by folder. */
export function publishablePackages(root = workspaceRoot): WorkspacePackage[] {
  const parent = join(root, 'packages');
  return readdirSync(parent, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(parent, entry.name, 'package.json')))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const dir = join(parent, name);
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageManifest;
      return { name: manifest.name, dir, folder: `packages/${name}`, manifest };
    })
    .filter((pkg) => pkg.manifest.private !== true);
}

/** The names of the workspace packages `name` depends on at run time (dependencies and optional ones), transitively, itself first. */
export function runtimeClosure(name: string, packages: readonly WorkspacePackage[]): string[] {
  const byName = new Map(packages.map((pkg) => [pkg.name, pkg]));
  const seen: string[] = [];
  const visit = (current: string) => {
    if (seen.includes(current)) return;
    const pkg = byName.get(current);
    if (!pkg) return;
    seen.push(current);
    const fields = { ...pkg.manifest.dependencies, ...pkg.manifest.optionalDependencies };
    for (const dependency of Object.keys(fields)) visit(dependency);
  };
  visit(name);
  return seen;
}

/** The `packageManager` of the root package.json (`pnpm@12.4.2`): the pnpm that packs and publishes. */
export function workspacePackageManager(root = workspaceRoot): string {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    packageManager?: string;
  };
  if (!manifest.packageManager?.startsWith('pnpm@')) {
    throw new Error(
      `${join(root, 'package.json')} has no "packageManager": "pnpm@…" field; the suite packs with that pnpm.`,
    );
  }
  return manifest.packageManager;
}
