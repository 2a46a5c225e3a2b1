/**
 * The entries a package offers, read from the `exports` map of its packed package.json: the root and
 * every subpath, each with the file its types and its code resolve to. Every one of them is
 * imported, required and type-checked by the suite, so a subpath added to the map is judged without
 * a change here.
 */
import type { PackageManifest } from './publishable-packages.js';

/** One public entry of a package. */
export interface PackageEntry {
  /** The exports key (`.`, `./stdio`). */
  subpath: string;
  /** What a user writes (`@switchboard/transports/stdio`). */
  specifier: string;
  /** The `types` target, relative to the package (`./dist/stdio.d.ts`); undefined when there is none. */
  types: string | undefined;
  /** What `import` resolves to, relative to the package; undefined when no condition gives it. */
  importTarget: string | undefined;
  /** What `require` resolves to, relative to the package; undefined when no condition gives it. */
  requireTarget: string | undefined;
}

type Conditions = string | null | { [condition: string]: Conditions } | Conditions[];

/** The target a Node.js resolution with `conditions` picks out of a conditions value. */
function resolveConditions(value: Conditions, conditions: readonly string[]): string | undefined {
  if (typeof value === 'string') return value;
  if (value === null) return undefined;
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = resolveConditions(item, conditions);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const [condition, target] of Object.entries(value)) {
    if (condition === 'default' || conditions.includes(condition)) {
      const found = resolveConditions(target, conditions);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/**
 * The entries of `manifest`: its `exports` map's keys (a pattern key is expanded over `files`, the
 * tarball's file list), or the root alone for a package with only `main`.
 */
export function packageEntries(manifest: PackageManifest, files: readonly string[] = []): PackageEntry[] {
  const exportsField = manifest.exports as Conditions | undefined;
  if (exportsField === undefined) {
    if (manifest.main === undefined) return [];
    const main = manifest.main.startsWith('./') ? manifest.main : `./${manifest.main}`;
    return [
      {
        subpath: '.',
        specifier: manifest.name,
        types: manifest.types,
        importTarget: main,
        requireTarget: main,
      },
    ];
  }
  const map: Record<string, Conditions> =
    typeof exportsField === 'object' &&
    exportsField !== null &&
    !Array.isArray(exportsField) &&
    Object.keys(exportsField).some((key) => key.startsWith('.'))
      ? exportsField
      : { '.': exportsField };
  const entries: PackageEntry[] = [];
  for (const [subpath, value] of Object.entries(map)) {
    for (const concrete of expandPattern(subpath, value, files)) {
      const substitute = (target: string | undefined) =>
        target === undefined || concrete.star === undefined ? target : target.replaceAll('*', concrete.star);
      entries.push({
        subpath: concrete.subpath,
        specifier: concrete.subpath === '.' ? manifest.name : `${manifest.name}/${concrete.subpath.slice(2)}`,
        types: substitute(resolveConditions(value, ['types'])),
        importTarget: substitute(resolveConditions(value, ['node', 'import'])),
        requireTarget: substitute(resolveConditions(value, ['node', 'require'])),
      });
    }
  }
  return entries;
}

/** A key with `*`: one concrete subpath per file of the tarball that its code target matches. */
function expandPattern(
  subpath: string,
  value: Conditions,
  files: readonly string[],
): Array<{ subpath: string; star: string | undefined }> {
  if (!subpath.includes('*')) return [{ subpath, star: undefined }];
  const target = resolveConditions(value, ['node', 'import']);
  if (target === undefined || !target.includes('*')) return [];
  const [before, after] = target.slice(2).split('*') as [string, string];
  return files
    .filter(
      (file) => file.startsWith(before) && file.endsWith(after) && file.length > before.length + after.length,
    )
    .map((file) => file.slice(before.length, file.length - after.length))
    .map((star) => ({ subpath: subpath.replace('*', star), star }));
}
