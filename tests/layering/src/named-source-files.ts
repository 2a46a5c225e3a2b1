/**
 * The source files a document names: every `something.ts` it writes in backticks must exist, so a
 * map of the code (docs/architecture.md) cannot keep pointing at files that were renamed or split.
 * A name matches a file under `packages/<name>/src/` by its last path segments (`http/mcp-post.ts`
 * or `mcp-post.ts`), or a path from the repository's root (`tests/layering/src/known-loops.ts`);
 * a `*` stands for any part of one segment (`commands/*-command.ts`).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** A file name in backticks that no file answers to, with its 1-based line in the document. */
export interface MissingFile {
  name: string;
  line: number;
}

/** A backticked token that names a TypeScript file: path segments, no spaces, ending in `.ts`. */
const namedFile = /`([\w*.-]+(?:\/[\w*.-]+)*\.ts)`/g;

/** Every file under `folder`, as paths relative to it with `/`. */
function filesBelow(folder: string, prefix = ''): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(folder)) {
    if (entry === 'node_modules') continue;
    const path = join(folder, entry);
    if (statSync(path).isDirectory()) files.push(...filesBelow(path, `${prefix}${entry}/`));
    else files.push(`${prefix}${entry}`);
  }
  return files;
}

/** The source files of every package: `packages/<name>/src/**`, relative to each `src/`. */
function packageSources(root: string): string[] {
  const packages = join(root, 'packages');
  const files: string[] = [];
  for (const name of readdirSync(packages)) {
    const source = join(packages, name, 'src');
    if (existsSync(source) && statSync(source).isDirectory()) files.push(...filesBelow(source));
  }
  return files;
}

/** `name` as a pattern over the ends of relative paths: `*` is any run within one segment. */
function suffixPattern(name: string): RegExp {
  const escaped = name.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*');
  return new RegExp(`(?:^|/)${escaped}$`);
}

/** The `.ts` names in backticks in `markdown` that match no package source file and no root path. */
export function missingNamedFiles(markdown: string, root: string): MissingFile[] {
  const sources = packageSources(root);
  const missing: MissingFile[] = [];
  const lines = markdown.split('\n');
  for (const [index, line] of lines.entries()) {
    for (const match of line.matchAll(namedFile)) {
      const name = match[1] as string;
      const pattern = suffixPattern(name);
      const found =
        sources.some((file) => pattern.test(file)) || (!name.includes('*') && existsSync(join(root, name)));
      if (!found) missing.push({ name, line: index + 1 });
    }
  }
  return missing;
}
