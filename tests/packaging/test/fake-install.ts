/**
 * Small installed projects written by hand, for the suite's own tests: a folder whose node_modules
 * holds packages made of a package.json and a few files, as npm would have left them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { InstalledProject } from '../src/install-project.js';

/** Packages by name, each a map of file → text (its package.json among them). */
export type FakePackages = Record<string, Record<string, string>>;

/** Writes `packages` into `<dir>/node_modules` and returns the project as the suite's checks see one. */
export function fakeInstall(dir: string, packages: FakePackages): InstalledProject {
  for (const [name, files] of Object.entries(packages)) {
    for (const [file, text] of Object.entries(files)) {
      const path = join(dir, 'node_modules', ...name.split('/'), file);
      mkdirSync(join(path, '..'), { recursive: true });
      writeFileSync(path, text);
    }
  }
  return {
    target: Object.keys(packages)[0] ?? '',
    runtime: {
      label: `Node ${process.versions.node}`,
      major: Number(process.versions.node.split('.')[0]),
      node: process.execPath,
      npmCli: '',
      env: { PATH: process.env.PATH ?? '' },
    },
    global: false,
    root: dir,
    binDir: undefined,
    ok: true,
    failure: undefined,
    seconds: 0,
    bytes: 0,
    packageCount: Object.keys(packages).length,
  };
}

/** A package.json of an ES module package. */
export function manifest(name: string, exports: unknown, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ name, version: '1.0.0', type: 'module', exports, ...extra });
}
