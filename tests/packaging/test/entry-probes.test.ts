// The load probes fail what a user's require() or import would fail: an exports map with no
// condition for require, top-level await (which require(esm) refuses), a missing package.
import { createTemporaryDirectories } from '@switchboard/test-helpers';
import { afterEach, describe, expect, it } from 'vitest';
import { probeEntries } from '../src/entry-probes.js';
import { packageEntries } from '../src/package-entries.js';
import { missingPackageOf } from '../src/peer-entries.js';
import { fakeInstall, manifest } from './fake-install.js';

const directories = createTemporaryDirectories();
afterEach(() => directories.removeAll());

describe('probeEntries', () => {
  it('loads a good entry both ways as one module, and reports each kind of failure', async () => {
    const packages = {
      good: {
        'package.json': manifest('good', { '.': { default: './index.js' } }),
        'index.js': 'export const a = 1;',
      },
      'import-only': {
        'package.json': manifest('import-only', { '.': { import: './index.js' } }),
        'index.js': 'export const b = 2;',
      },
      'top-level-await': {
        'package.json': manifest('top-level-await', { '.': { default: './index.js' } }),
        'index.js': 'await Promise.resolve();\nexport const c = 3;',
      },
      'needs-peer': {
        'package.json': manifest('needs-peer', { '.': { default: './index.js' } }),
        'index.js': "import 'absent-peer';\nexport const d = 4;",
      },
    };
    const project = fakeInstall(directories.make('probes-'), packages);
    const entries = Object.entries(packages).flatMap(([, files]) =>
      packageEntries(JSON.parse(files['package.json'] as string)),
    );
    const probes = await probeEntries(project, entries);
    const required = Object.fromEntries(probes.required.map((probe) => [probe.specifier, probe]));
    const imported = Object.fromEntries(probes.imported.map((probe) => [probe.specifier, probe]));

    expect(required.good).toEqual({ specifier: 'good', exportNames: ['a'] });
    expect(imported.good).toEqual({ specifier: 'good', exportNames: ['a'] });
    expect(probes.sameModule.good).toBe(true);

    expect(required['import-only']?.error).toMatch(/^ERR_PACKAGE_PATH_NOT_EXPORTED:/);
    expect(imported['import-only']?.error).toBeUndefined();
    expect(probes.sameModule['import-only']).toBe(false);

    expect(required['top-level-await']?.error).toMatch(/^ERR_REQUIRE_ASYNC_MODULE:/);
    expect(imported['top-level-await']?.error).toBeUndefined();

    expect(missingPackageOf(required['needs-peer']?.error as string)).toBe('absent-peer');
    expect(missingPackageOf(imported['needs-peer']?.error as string)).toBe('absent-peer');
  });
});
