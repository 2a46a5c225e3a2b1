// The README's "Persistence and usage" snippet runs as written (server from node_modules, store in a temp dir).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { serverScript } from './helpers/servers.js';

const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');
const temporary: string[] = [];

afterEach(() => {
  for (const path of temporary.splice(0)) rmSync(path, { recursive: true, force: true });
  vi.restoreAllMocks();
});

describe('README: Persistence and usage', () => {
  it('records a call, the hook sees it, and usage grows across runs', async () => {
    const snippet = /## Persistence and usage\n[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(snippet).toBeDefined();
    const dir = mkdtempSync(join(tmpdir(), 'sb-readme-store-'));
    temporary.push(dir);
    const runnable = (snippet as string)
      .replace(
        "from '@switchboard/client'",
        `from ${JSON.stringify(fileURLToPath(new URL('../src/index.js', import.meta.url)))}`,
      )
      .replace(
        "from '@switchboard/client/sqlite-store'",
        `from ${JSON.stringify(fileURLToPath(new URL('../src/sqlite-store/index.js', import.meta.url)))}`,
      )
      .replace(
        'createSqliteStore()',
        `createSqliteStore({ path: ${JSON.stringify(join(dir, 'registry.db'))} })`,
      )
      .replace(
        "command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything']",
        `command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(serverScript('server-everything'))}, 'stdio']`,
      );
    expect(runnable).not.toContain('npx');
    const lines: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
      lines.push(format(...args));
    });
    for (const run of [1, 2]) {
      const file = join(dir, `snippet-${run}.ts`);
      writeFileSync(file, runnable);
      await import(file);
    }
    expect(lines).toEqual(['mcp__everything__echo true true', '1', 'mcp__everything__echo true true', '2']);
  });
});
