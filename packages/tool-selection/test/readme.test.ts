import { createTemporaryDirectory, readmeSnippet, runSnippet } from '@switchboard/test-helpers';
import { afterAll, describe, expect, it } from 'vitest';
import { createFixtureEmbedder, createFixtureModel } from './helpers/fixture-embedder.js';

const readme = new URL('../README.md', import.meta.url);
const model = createFixtureModel();
const persistDir = createTemporaryDirectory('tool-selection-readme-');

afterAll(() => {
  persistDir.remove();
  model.cleanup();
});

describe('README', () => {
  it('quick example runs and prints what its comments say', async () => {
    const snippet = readmeSnippet(readme, '## Quick example');
    expect(snippet).toBeDefined();
    // The test swaps in the local fixture model (no network) and a temporary index folder.
    (globalThis as Record<string, unknown>).readmeEmbedder = createFixtureEmbedder(model);
    const lines = await runSnippet(
      (snippet as string)
        .replace("from '@switchboard/tool-selection'", "from '../src/index.js'")
        .replace("persistDir: '.switchboard/tool-index'", `persistDir: ${JSON.stringify(persistDir.path)}`)
        .replace(
          'createToolSelector({ registry,',
          'createToolSelector({ registry, embedder: (globalThis as any).readmeEmbedder,',
        ),
      { nextTo: import.meta.url },
    );
    expect(lines[0]).toMatch(/^\[ 'mcp__math__get_sum', .*'discover_tools' \]$/);
    expect(lines[1]).toBe('4');
    expect(lines[2]).toBe(model.modelId);
  });
});
