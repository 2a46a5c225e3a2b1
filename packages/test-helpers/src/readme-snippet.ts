/**
 * README snippets run as written: a package's README is part of its contract, so its tests take a
 * ```ts block out of it, point its imports at the package's source (and its `npx` servers at
 * node_modules), run it, and compare what it prints with what its comments say. The snippet is a
 * file beside the test, so that imports relative to the test resolve, and the test runner compiles
 * it as it compiles the test.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format } from 'node:util';
import { serverScript } from './official-servers.js';

/** How a README starts server-everything, and the same server from node_modules, as source text. */
export const npxServerEverything = "command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything']";

/** server-everything over stdio with this Node, as the source text that replaces {@link npxServerEverything}. */
export function localServerEverything(): string {
  return `command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(serverScript('server-everything'))}, 'stdio']`;
}

/**
 * The first ```ts block of the README at `readme` that comes after the line `heading` (after the
 * start of the file when `heading` is omitted); undefined when there is none.
 */
export function readmeSnippet(readme: URL, heading?: string): string | undefined {
  const text = readFileSync(readme, 'utf8');
  let from = 0;
  if (heading !== undefined) {
    const line = new RegExp(`^${heading.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n`, 'm').exec(text);
    if (!line) return undefined;
    from = line.index + line[0].length;
  }
  return /```ts\n([\s\S]*?)```/.exec(text.slice(from))?.[1];
}

/** A snippet written to a file; `remove()` (or leaving a `using` scope) deletes it. */
export interface SnippetFile extends Disposable {
  path: string;
  remove(): void;
}

let written = 0;

/**
 * Writes `source` to a `.ts` file in the folder of `nextTo` (a test's `import.meta.url`), under a
 * name no other run uses (a module runner caches modules by path, so the same name would run once).
 */
export function writeSnippet(source: string, nextTo: string | URL): SnippetFile {
  written += 1;
  const path = join(dirname(fileURLToPath(nextTo)), `readme-snippet-${process.pid}-${written}.tmp.ts`);
  writeFileSync(path, source);
  const remove = () => rmSync(path, { force: true });
  return { path, remove, [Symbol.dispose]: remove };
}

/** Options of {@link runSnippet}. */
export interface RunSnippetOptions {
  /** The test's `import.meta.url`: the snippet is written beside it. */
  nextTo: string | URL;
  /** Where to collect what it prints (pass one the snippet can also reach). @default a new array */
  lines?: string[];
  /** Told each line as it is printed (an event log's `push`, for a test that waits on a line). */
  onLine?: (line: string) => void;
}

/**
 * Runs `source` as a module beside the test and returns the lines it printed with `console.log`
 * (formatted as `console.log` formats them); the file is removed afterwards.
 */
export async function runSnippet(source: string, options: RunSnippetOptions): Promise<string[]> {
  const lines = options.lines ?? [];
  const file = writeSnippet(source, options.nextTo);
  const log = console.log;
  console.log = (...args: unknown[]) => {
    const line = format(...args);
    lines.push(line);
    options.onLine?.(line);
  };
  try {
    await import(/* @vite-ignore */ file.path);
  } finally {
    console.log = log;
    file.remove();
  }
  return lines;
}
