// The README's quick start runs as written (with the server started from node_modules instead of npx).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { serverScript } from './helpers/servers.js';

const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');
const snippetFile = fileURLToPath(new URL(`./readme-snippet-${process.pid}.tmp.ts`, import.meta.url));

afterEach(() => {
  rmSync(snippetFile, { force: true });
  vi.restoreAllMocks();
});

describe('README', () => {
  it('quick start connects, calls echo and prints what its comments say', async () => {
    const snippet = /## Quick start\n\n```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(snippet).toBeDefined();
    const runnable = (snippet as string)
      .replace("from '@switchboard/client'", "from '../src/index.js'")
      .replace(
        "command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything']",
        `command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(serverScript('server-everything'))}, 'stdio']`,
      );
    expect(runnable).not.toContain('npx');
    writeFileSync(snippetFile, runnable);
    const lines: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
      lines.push(format(...args));
    });
    await import(snippetFile);
    expect(lines[0]).toBe('connected');
    expect(lines[1]).toContain("status: 'success'");
    expect(lines[1]).toContain("message: 'Echo: hello'");
    expect(lines[2]).toBe('1');
  });
});
