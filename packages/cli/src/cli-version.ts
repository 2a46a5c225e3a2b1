/**
 * The cli's own version, read from its package.json at run time. The file is found by walking up
 * from this module to the `package.json` named `@switchboard/cli`: the module runs from `src/` (the
 * tests), `dist/` (the programmatic entry) or a chunk of the bundled bin under `dist/chunks/`, and
 * each finds the same file, in the repository or in an install. Never `npm_package_version`: an
 * npm script of the project the cli runs in sets that to the project's own version.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageName = '@switchboard/cli';

/** The version in the cli's package.json; `unknown` if no such file is found above this module. */
export function cliVersion(from: string = fileURLToPath(import.meta.url)): string {
  let directory = dirname(from);
  for (;;) {
    let manifest: { name?: unknown; version?: unknown } | undefined;
    try {
      manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8'));
    } catch {
      // No package.json here (or not JSON): look further up.
    }
    if (manifest?.name === packageName && typeof manifest.version === 'string') return manifest.version;
    const parent = dirname(directory);
    if (parent === directory) return 'unknown';
    directory = parent;
  }
}
