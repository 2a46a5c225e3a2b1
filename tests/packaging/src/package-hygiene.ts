/**
 * What a release needs besides working code, checked on each tarball as packed: the licence text
 * (the repository's LICENSE, which pnpm adds to a package that has none), the metadata npm shows
 * (`repository` with `directory`, `homepage`, `bugs`, `keywords`), `engines` that admit only the
 * Node versions whose `require()` loads these ES modules, no `workspace:` range left, every
 * `exports` target present, source maps only with the sources they point at, and a README that
 * says which Node versions are supported, and no compiled module whose source is gone (a stale
 * file an earlier build left in dist/). Each rule returns a sentence per problem.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import type { PackedPackage } from './pack-packages.js';
import { packageEntries } from './package-entries.js';
import { workspaceRoot } from './publishable-packages.js';

/**
 * The Node versions every package supports: those whose `require()` loads an ES module graph
 * without a flag (20.19 on the 20 line, 22.12 on the 22 line) — the packages are ES modules only.
 */
export const supportedNodeRange = '^20.19.0 || >=22.12.0';

/** The licence file at the root of a tarball, if any. */
function licenseFile(files: readonly string[]): string | undefined {
  return files.find((file) => /^licen[cs]e(\.(md|txt))?$/i.test(file));
}

/** Problems with the licence: the field, and the repository's LICENSE text in the tarball. */
export function licenseProblems(packed: PackedPackage, packageDir: string): string[] {
  const problems: string[] = [];
  if (packed.manifest.license !== 'MIT')
    problems.push(`"license" is ${JSON.stringify(packed.manifest.license)}, not "MIT"`);
  const file = licenseFile(packed.files);
  if (!file) return [...problems, 'the tarball has no LICENSE file'];
  const expected = readFileSync(join(workspaceRoot, 'LICENSE'), 'utf8').trim();
  if (readFileSync(join(packageDir, file), 'utf8').trim() !== expected) {
    problems.push(`${file} in the tarball is not the repository's LICENSE`);
  }
  return problems;
}

/** Problems with the fields npm's page and `npm repo`/`npm bugs` read. */
export function metadataProblems(packed: PackedPackage): string[] {
  const { manifest } = packed;
  const problems: string[] = [];
  const repository = manifest.repository;
  if (typeof repository !== 'object' || !repository.url) problems.push('"repository" has no "url"');
  else if (repository.directory !== packed.folder) {
    problems.push(
      `"repository.directory" is ${JSON.stringify(repository.directory)}, not "${packed.folder}"`,
    );
  }
  if (!manifest.homepage) problems.push('no "homepage"');
  const bugs = typeof manifest.bugs === 'string' ? manifest.bugs : manifest.bugs?.url;
  if (!bugs) problems.push('no "bugs" url');
  if (!Array.isArray(manifest.keywords) || manifest.keywords.length === 0) problems.push('no "keywords"');
  if (manifest.engines?.node !== supportedNodeRange) {
    problems.push(`"engines.node" is ${JSON.stringify(manifest.engines?.node)}, not "${supportedNodeRange}"`);
  }
  for (const field of ['dependencies', 'optionalDependencies', 'peerDependencies'] as const) {
    for (const [name, range] of Object.entries(manifest[field] ?? {})) {
      if (range.startsWith('workspace:'))
        problems.push(`${field}.${name} is still "${range}" (pack with pnpm)`);
    }
  }
  return problems;
}

/** Problems with the `exports` map: a target the tarball does not hold. */
export function exportsProblems(packed: PackedPackage): string[] {
  const files = new Set(packed.files);
  const problems: string[] = [];
  const entries = packageEntries(packed.manifest, packed.files);
  if (entries.length === 0) problems.push('no entries (no "exports" and no "main")');
  for (const entry of entries) {
    for (const [what, target] of [
      ['types', entry.types],
      ['import', entry.importTarget],
      ['require', entry.requireTarget],
    ] as const) {
      if (target === undefined) problems.push(`${entry.specifier}: no target for ${what}`);
      else if (!files.has(normalize(target)))
        problems.push(`${entry.specifier}: its ${what} target ${target} is not in the tarball`);
    }
  }
  return problems;
}

/** Problems with source maps (declaration maps too): a source neither embedded nor shipped. */
export function sourceMapProblems(packed: PackedPackage, packageDir: string): string[] {
  const files = new Set(packed.files);
  const problems: string[] = [];
  for (const file of packed.files.filter((name) => name.endsWith('.map'))) {
    const map = JSON.parse(readFileSync(join(packageDir, file), 'utf8')) as {
      sources?: string[];
      sourcesContent?: Array<string | null>;
      sourceRoot?: string;
    };
    const missing = (map.sources ?? []).filter((source, index) => {
      if (typeof map.sourcesContent?.[index] === 'string') return false;
      const shipped = normalize(join(dirname(file), map.sourceRoot ?? '', source));
      return !files.has(shipped) || !existsSync(join(packageDir, shipped));
    });
    if (missing.length > 0)
      problems.push(`${file} points at ${missing.slice(0, 3).join(', ')}, which the tarball does not hold`);
  }
  return problems;
}

/** Folders of dist/ a bundler writes (content-hashed names, no one-to-one source). */
const bundledFolders = ['dist/chunks/', 'dist/page/'];

/**
 * Compiled modules with no source in the package's workspace folder: a file an earlier build left
 * in dist/ after its source was removed or renamed (tsc never deletes output, and turbo restores
 * dist/** from its cache), which would ship as dead code a user can still deep-import.
 */
export function staleModuleProblems(packed: PackedPackage, root = workspaceRoot): string[] {
  const problems: string[] = [];
  for (const file of packed.files) {
    if (!file.startsWith('dist/') || bundledFolders.some((folder) => file.startsWith(folder))) continue;
    const stem = /^dist\/(.+?)(?:\.d)?\.(?:js|ts)$/.exec(file)?.[1];
    if (stem === undefined) continue;
    const source = ['.ts', '.tsx'].map((extension) => join(root, packed.folder, 'src', stem + extension));
    if (!source.some((path) => existsSync(path)))
      problems.push(`${file} has no source (src/${stem}.ts): a stale build output; rebuild the package`);
  }
  return problems;
}

/** A README that does not say which Node versions are supported. */
export function readmeProblems(packageDir: string): string[] {
  const readme = join(packageDir, 'README.md');
  if (!existsSync(readme)) return ['the tarball has no README.md'];
  return readFileSync(readme, 'utf8').includes('20.19')
    ? []
    : ['README.md does not say which Node versions are supported (20.19+, 22.12+, 24)'];
}
