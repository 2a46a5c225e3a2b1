import { describe, expect, it } from 'vitest';
import { packageEntries } from '../src/package-entries.js';

describe('packageEntries', () => {
  it('reads each subpath with its types, import and require targets', () => {
    const entries = packageEntries({
      name: '@switchboard/x',
      version: '0.0.0',
      exports: {
        '.': { types: './dist/index.d.ts', default: './dist/index.js' },
        './stdio': { types: './dist/stdio.d.ts', import: './dist/stdio.js' },
      },
    });
    expect(entries).toEqual([
      {
        subpath: '.',
        specifier: '@switchboard/x',
        types: './dist/index.d.ts',
        importTarget: './dist/index.js',
        requireTarget: './dist/index.js',
      },
      {
        subpath: './stdio',
        specifier: '@switchboard/x/stdio',
        types: './dist/stdio.d.ts',
        importTarget: './dist/stdio.js',
        // Only `import`: a require() of this subpath has nothing to resolve to.
        requireTarget: undefined,
      },
    ]);
  });

  it('expands a pattern over the tarball files and reads a main-only package', () => {
    const patterned = packageEntries(
      { name: 'p', version: '1.0.0', exports: { './*': { types: './dist/*.d.ts', default: './dist/*.js' } } },
      ['dist/a.js', 'dist/a.d.ts', 'dist/b.js', 'README.md'],
    );
    expect(patterned.map((entry) => [entry.specifier, entry.requireTarget])).toEqual([
      ['p/a', './dist/a.js'],
      ['p/b', './dist/b.js'],
    ]);
    expect(packageEntries({ name: 'm', version: '1.0.0', main: 'index.js' })[0]?.requireTarget).toBe(
      './index.js',
    );
  });
});
