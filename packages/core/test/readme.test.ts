import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';

const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');
const snippetFile = fileURLToPath(new URL(`./readme-snippet-${process.pid}.tmp.ts`, import.meta.url));

afterEach(() => {
  rmSync(snippetFile, { force: true });
  vi.restoreAllMocks();
});

describe('README', () => {
  it('quick example runs and prints what its comments say', async () => {
    const snippet = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
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
    expect(lines.slice(0, 2)).toEqual([
      'added mcp__filesystem__read_text_file',
      'added mcp__filesystem__write_file',
    ]);
    expect(lines[2]).toBe("{ server: 'filesystem', originalName: 'write_file' }");
    expect(lines[3]).toBe('my_agent_run');
    expect(lines.slice(4, 6)).toEqual([
      'mcp__filesystem__read_text_file read allow',
      'mcp__filesystem__write_file write ask',
    ]);
    expect(lines[6]).toContain("message: 'Here is the chart:\\n\\n[image: image/png, 70 B]'");
    expect(lines[6]).toContain("status: 'success'");
  });
});
