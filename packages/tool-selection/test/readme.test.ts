import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format } from 'node:util';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createFixtureEmbedder, createFixtureModel } from './helpers/fixture-embedder.js';

const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');
const snippetFile = fileURLToPath(new URL(`./readme-snippet-${process.pid}.tmp.ts`, import.meta.url));
const model = createFixtureModel();
const persistDir = mkdtempSync(join(tmpdir(), 'tool-selection-readme-'));

afterAll(() => {
  rmSync(snippetFile, { force: true });
  rmSync(persistDir, { recursive: true, force: true });
  model.cleanup();
  vi.restoreAllMocks();
});

describe('README', () => {
  it('quick example runs and prints what its comments say', async () => {
    const snippet = /## Quick example\n\n```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(snippet).toBeDefined();
    // The test swaps in the local fixture model (no network) and a temporary index folder.
    (globalThis as Record<string, unknown>).readmeEmbedder = createFixtureEmbedder(model);
    writeFileSync(
      snippetFile,
      (snippet as string)
        .replace("from '@switchboard/tool-selection'", "from '../src/index.js'")
        .replace("persistDir: '.switchboard/tool-index'", `persistDir: ${JSON.stringify(persistDir)}`)
        .replace(
          'createToolSelector({ registry,',
          'createToolSelector({ registry, embedder: (globalThis as any).readmeEmbedder,',
        ),
    );
    const lines: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
      lines.push(format(...args));
    });
    await import(snippetFile);
    expect(lines[0]).toMatch(/^\[ 'mcp__math__get_sum', .*'discover_tools' \]$/);
    expect(lines[1]).toBe('4');
    expect(lines[2]).toBe(model.modelId);
  });
});
