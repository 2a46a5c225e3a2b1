// The README's "Persistence and usage" snippet runs as written (server from node_modules, store in a temp dir).
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createTemporaryDirectories,
  localServerEverything,
  npxServerEverything,
  readmeSnippet,
  runSnippet,
} from '@switchboard/test-helpers';
import { afterEach, describe, expect, it } from 'vitest';

const readme = new URL('../README.md', import.meta.url);
const temporary = createTemporaryDirectories();

afterEach(() => temporary.removeAll());

describe('README: Persistence and usage', () => {
  it('records a call, the hook sees it, and usage grows across runs', async () => {
    const snippet = readmeSnippet(readme, '## Persistence and usage');
    expect(snippet).toBeDefined();
    const dir = temporary.make('sb-readme-store-');
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
      .replace(npxServerEverything, localServerEverything());
    expect(runnable).not.toContain('npx');
    const lines: string[] = [];
    // Two runs against the same store: usage grows across them.
    await runSnippet(runnable, { nextTo: import.meta.url, lines });
    await runSnippet(runnable, { nextTo: import.meta.url, lines });
    expect(lines).toEqual(['mcp__everything__echo true true', '1', 'mcp__everything__echo true true', '2']);
  });
});
