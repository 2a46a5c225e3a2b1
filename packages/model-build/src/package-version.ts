/** The installed version of a dependency: part of the cache key and of build-info.json's provenance. */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/**
 * `version` of the installed `name` package, resolved from model-build as the build imports it. Found by
 * walking up from its entry, because some packages (ml-matrix) do not export their package.json.
 */
export function packageVersion(name: string): string {
  let folder = dirname(require.resolve(name));
  for (;;) {
    const manifest = join(folder, 'package.json');
    if (existsSync(manifest)) {
      const parsed = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string };
      if (parsed.name === name && parsed.version) return parsed.version;
    }
    const parent = dirname(folder);
    if (parent === folder) throw new Error(`no package.json of ${name} above ${require.resolve(name)}`);
    folder = parent;
  }
}
