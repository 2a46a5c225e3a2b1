import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';

const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');
const snippetFile = fileURLToPath(new URL(`./readme-schema-snippet-${process.pid}.tmp.ts`, import.meta.url));

afterEach(() => {
  rmSync(snippetFile, { force: true });
  vi.restoreAllMocks();
});

describe('README, schema conversion and validation', () => {
  it('runs the snippet and prints what its comments say', async () => {
    const section = readme.slice(readme.indexOf('## Schema conversion and validation'));
    const snippet = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
    expect(snippet).toBeDefined();
    writeFileSync(
      snippetFile,
      (snippet as string).replace("from '@switchboard/core'", "from '../src/index.js'"),
    );
    const lines: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
      lines.push(format(...args));
    });
    await import(snippetFile);
    // Each printed value must appear in the comment lines that follow its console.log.
    const comments = (snippet as string)
      .split('\n')
      .filter((line) => line.startsWith('// '))
      .map((line) => line.slice(3))
      .join('');
    expect(lines).toHaveLength(8);
    expect(comments.replaceAll(' ', '')).toContain((lines[0] as string).replaceAll(' ', ''));
    expect((lines[1] as string).replace(/\s+/g, ' ')).toBe(
      "[ 'moved-to-description /properties/path/minLength', 'made-nullable /properties/tail' ]",
    );
    expect(lines[2]).toBe('[]');
    expect(lines[3]).toBe("{ path: 'notes.txt' }");
    expect(comments.replaceAll(' ', '')).toContain((lines[4] as string).replaceAll(' ', ''));
    expect(lines[5]).toBe('false');
    const message = (lines[6] as string).split('\n');
    expect(message.slice(0, 3)).toEqual([
      'Invalid arguments for tool `read_file` (2 problems):',
      '- `path` is required',
      '- `tail` must be an integer, got string "3"',
    ]);
    expect(message.slice(4)).toEqual([
      'Arguments given: {"tail":"3"}',
      'Correct the arguments to match the schema and call `read_file` again.',
    ]);
    expect(lines[7]).toBe('{ compilations: 1, cacheHits: 1, cacheMisses: 1 }');
  });
});
