/**
 * The workspace's packages as the guard needs them: folder, name, the four dependency fields and the
 * `exports` map. The folders come from pnpm-workspace.yaml's `packages:` list, so a package added
 * to the workspace is checked (and must find its row in the layer table) without touching the guard.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** One workspace package. */
export interface WorkspacePackage {
  /** Its folder, relative to the root, with `/` (`packages/client`). */
  folder: string;
  /** `name` of its package.json. */
  name: string;
  /** `private: true` (never published). */
  private: boolean;
  /** The text of its package.json, to point at a line in it. */
  manifestText: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  optionalDependencies: Record<string, string>;
  /** The subpaths of its `exports` map (`.`, `./stdio`, `./*`); `['.']` when it has none but a `main`. */
  exportedSubpaths: string[];
}

/**
 * The folder patterns of pnpm-workspace.yaml's `packages:` list. The file's other keys are not needed,
 * and the list is a plain YAML sequence of strings, so it is read line by line rather than with a YAML
 * library the root does not depend on.
 */
export function readWorkspaceGlobs(root: string): string[] {
  const lines = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8').split('\n');
  const start = lines.findIndex((line) => line.trimEnd() === 'packages:');
  const globs: string[] = [];
  if (start < 0) return globs;
  for (const line of lines.slice(start + 1)) {
    const item = line.trim();
    if (item === '' || item.startsWith('#')) continue;
    if (!item.startsWith('- ')) break;
    globs.push(
      item
        .slice(2)
        .trim()
        .replace(/^['"]|['"]$/g, ''),
    );
  }
  return globs;
}

/** The folders a pattern names: `dir/*` is every folder in `dir` with a package.json; else the folder itself. */
function foldersOf(root: string, glob: string): string[] {
  if (glob.startsWith('!')) return [];
  if (!glob.endsWith('/*')) return existsSync(join(root, glob, 'package.json')) ? [glob] : [];
  const parent = glob.slice(0, -2);
  if (!existsSync(join(root, parent))) return [];
  return readdirSync(join(root, parent))
    .filter((entry) => statSync(join(root, parent, entry)).isDirectory())
    .filter((entry) => existsSync(join(root, parent, entry, 'package.json')))
    .sort()
    .map((entry) => `${parent}/${entry}`);
}

function exportedSubpathsOf(manifest: Record<string, unknown>): string[] {
  const exports = manifest.exports;
  if (exports === undefined) return manifest.main !== undefined ? ['.'] : [];
  if (typeof exports === 'string' || Array.isArray(exports)) return ['.'];
  const keys = Object.keys(exports as object);
  // A conditions object (`{ "import": …, "types": … }`) exports the root only.
  return keys.some((key) => key.startsWith('.')) ? keys : ['.'];
}

/** Every package of the workspace rooted at `root`. */
export function readWorkspacePackages(root: string): WorkspacePackage[] {
  const folders = [...new Set(readWorkspaceGlobs(root).flatMap((glob) => foldersOf(root, glob)))];
  return folders.map((folder) => {
    const manifestText = readFileSync(join(root, folder, 'package.json'), 'utf8');
    const manifest = JSON.parse(manifestText) as Record<string, unknown>;
    const field = (key: string) => (manifest[key] ?? {}) as Record<string, string>;
    return {
      folder,
      name: String(manifest.name ?? folder),
      private: manifest.private === true,
      manifestText,
      dependencies: field('dependencies'),
      devDependencies: field('devDependencies'),
      peerDependencies: field('peerDependencies'),
      optionalDependencies: field('optionalDependencies'),
      exportedSubpaths: exportedSubpathsOf(manifest),
    };
  });
}

/** Whether `subpath` (`./stdio`) is one of the exported subpaths, `*` patterns included. */
export function isExported(subpath: string, exportedSubpaths: readonly string[]): boolean {
  return exportedSubpaths.some((key) => {
    const star = key.indexOf('*');
    if (star < 0) return key === subpath;
    const prefix = key.slice(0, star);
    const suffix = key.slice(star + 1);
    return subpath.length >= key.length - 1 && subpath.startsWith(prefix) && subpath.endsWith(suffix);
  });
}
