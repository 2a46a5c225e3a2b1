import { createTemporaryDirectory, readmeSnippet, runSnippet } from '@switchboard/test-helpers';
import { afterAll, describe, expect, it } from 'vitest';

const readme = new URL('../README.md', import.meta.url);
const persistDir = createTemporaryDirectory('tool-selection-readme-');

afterAll(() => {
  persistDir.remove();
});

describe('README', () => {
  it('quick example runs as written, on the offline model, and prints what its comments say', async () => {
    const snippet = readmeSnippet(readme, '## Quick example');
    expect(snippet).toBeDefined();
    // Only the index folder is swapped (a temporary one): the defaults need no network.
    const lines = await runSnippet(
      (snippet as string)
        .replace("from '@switchboard/tool-selection'", "from '../src/index.js'")
        .replace("persistDir: '.switchboard/tool-index'", `persistDir: ${JSON.stringify(persistDir.path)}`),
      { nextTo: import.meta.url },
    );
    expect(lines[0]).toMatch(/^\[ 'mcp__math__get_sum', .*'discover_tools' \]$/);
    expect(lines[1]).toBe('4');
    expect(lines[2]).toBe('switchboard-static-en-v1');
  });
});
