import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTemporaryDirectories } from '@switchboard/test-helpers';
import { afterEach, describe, expect, it } from 'vitest';
import type { PackedPackage } from '../src/pack-packages.js';
import {
  exportsProblems,
  licenseProblems,
  metadataProblems,
  readmeProblems,
  sourceMapProblems,
  staleModuleProblems,
  supportedNodeRange,
} from '../src/package-hygiene.js';
import { workspaceRoot } from '../src/publishable-packages.js';

const directories = createTemporaryDirectories();
afterEach(() => directories.removeAll());

/** A packed package that passes every rule; `change` breaks one thing. */
function packed(change: (pkg: PackedPackage) => void = () => {}): PackedPackage {
  const pkg: PackedPackage = {
    name: '@switchboard/x',
    version: '0.1.0',
    folder: 'packages/x',
    tarball: '/nowhere/x.tgz',
    tarballBytes: 1,
    files: ['LICENSE', 'README.md', 'package.json', 'dist/index.js', 'dist/index.d.ts'],
    manifest: {
      name: '@switchboard/x',
      version: '0.1.0',
      license: 'MIT',
      keywords: ['mcp'],
      homepage: 'https://example.org/x',
      repository: { type: 'git', url: 'git+https://example.org/x.git', directory: 'packages/x' },
      bugs: { url: 'https://example.org/x/issues' },
      engines: { node: supportedNodeRange },
      exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
      dependencies: { '@switchboard/core': '^0.1.0' },
    },
  };
  change(pkg);
  return pkg;
}

/** An unpacked copy of `pkg` with the repository's LICENSE and the given files. */
function unpacked(extra: Record<string, string> = {}): string {
  const dir = directories.make('hygiene-');
  writeFileSync(join(dir, 'LICENSE'), readFileSync(join(workspaceRoot, 'LICENSE')));
  writeFileSync(join(dir, 'README.md'), 'Runs on Node.js 20.19+, 22.12+ and 24.\n');
  for (const [file, text] of Object.entries(extra)) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  return dir;
}

describe('package hygiene', () => {
  it('finds nothing wrong with a package that follows every rule', () => {
    const dir = unpacked();
    expect([
      ...licenseProblems(packed(), dir),
      ...metadataProblems(packed()),
      ...exportsProblems(packed()),
      ...sourceMapProblems(packed(), dir),
      ...readmeProblems(dir),
    ]).toEqual([]);
  });

  it('fails a tarball without LICENSE, or with another text', () => {
    const dir = unpacked();
    expect(
      licenseProblems(
        packed((pkg) => pkg.files.splice(0, 1)),
        dir,
      ),
    ).toEqual(['the tarball has no LICENSE file']);
    writeFileSync(join(dir, 'LICENSE'), 'All rights reserved.');
    expect(licenseProblems(packed(), dir)).toEqual([
      "LICENSE in the tarball is not the repository's LICENSE",
    ]);
  });

  it('fails a broken exports map: a target the tarball does not hold, a missing condition', () => {
    const broken = packed((pkg) => {
      pkg.manifest.exports = {
        '.': { types: './dist/index.d.ts', default: './dist/main.js' },
        './stdio': { types: './dist/index.d.ts', import: './dist/index.js' },
      };
    });
    expect(exportsProblems(broken)).toEqual([
      '@switchboard/x: its import target ./dist/main.js is not in the tarball',
      '@switchboard/x: its require target ./dist/main.js is not in the tarball',
      '@switchboard/x/stdio: no target for require',
    ]);
  });

  it('fails missing metadata, other engines and a workspace: range left behind', () => {
    const bare = packed((pkg) => {
      pkg.manifest.repository = { type: 'git', url: 'git+https://example.org/x.git' };
      delete pkg.manifest.homepage;
      delete pkg.manifest.bugs;
      pkg.manifest.keywords = [];
      pkg.manifest.engines = { node: '>=20' };
      pkg.manifest.dependencies = { '@switchboard/core': 'workspace:^' };
    });
    expect(metadataProblems(bare)).toEqual([
      '"repository.directory" is undefined, not "packages/x"',
      'no "homepage"',
      'no "bugs" url',
      'no "keywords"',
      `"engines.node" is ">=20", not "${supportedNodeRange}"`,
      'dependencies.@switchboard/core is still "workspace:^" (pack with pnpm)',
    ]);
  });

  it('fails a source map whose sources are neither embedded nor shipped', () => {
    const pointing = JSON.stringify({ version: 3, sources: ['../src/index.ts'], mappings: '' });
    const embedding = JSON.stringify({
      version: 3,
      sources: ['../src/index.ts'],
      sourcesContent: ['export {};'],
      mappings: '',
    });
    const dir = unpacked({ 'dist/index.js.map': pointing, 'dist/other.js.map': embedding });
    const withMaps = packed((pkg) => pkg.files.push('dist/index.js.map', 'dist/other.js.map'));
    expect(sourceMapProblems(withMaps, dir)).toEqual([
      'dist/index.js.map points at ../src/index.ts, which the tarball does not hold',
    ]);
  });

  it('fails a README that does not say which Node versions are supported', () => {
    const dir = unpacked({ 'README.md': '# x\n' });
    expect(readmeProblems(dir)).toHaveLength(1);
  });

  it('fails a compiled module whose source is gone, and passes bundled chunks', () => {
    const root = directories.make('workspace-');
    mkdirSync(join(root, 'packages', 'x', 'src'), { recursive: true });
    writeFileSync(join(root, 'packages', 'x', 'src', 'index.ts'), '');
    const withStale = packed((pkg) =>
      pkg.files.push('dist/renamed.js', 'dist/renamed.d.ts', 'dist/chunks/chunk-AB12.js'),
    );
    expect(staleModuleProblems(packed(), root)).toEqual([]);
    expect(staleModuleProblems(withStale, root)).toEqual([
      'dist/renamed.js has no source (src/renamed.ts): a stale build output; rebuild the package',
      'dist/renamed.d.ts has no source (src/renamed.ts): a stale build output; rebuild the package',
    ]);
  });
});
