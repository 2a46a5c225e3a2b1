import type { ToolRegistry } from '@switchboard/core';
import { createMemoryEmbeddingStore, createToolRegistry } from '@switchboard/core';
import { createTemporaryDirectories } from '@switchboard/test-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolSelector } from '../src/index.js';
import {
  createDiscoverToolsTool,
  createOfflineEmbedder,
  createToolSelector,
  offlineDefaultModel,
} from '../src/index.js';
import { countEmbeddings } from './helpers/counting-embedder.js';
import { createFixtureEmbedder, createFixtureModel } from './helpers/fixture-embedder.js';
import type { ServerTools } from './helpers/official-tools.js';
import { fetchAppServerTools, fetchOfficialTools } from './helpers/official-tools.js';

const model = createFixtureModel();
let official: ServerTools[] = [];
const temporary = createTemporaryDirectories();
const selectors: ToolSelector[] = [];

beforeAll(async () => {
  official = await fetchOfficialTools();
}, 120_000);

afterAll(async () => {
  for (const selector of selectors) await selector.close();
  model.cleanup();
  temporary.removeAll();
});

function registryWithOfficialTools(): ToolRegistry {
  const registry = createToolRegistry();
  for (const { server, tools } of official) registry.registerMany(server, tools);
  return registry;
}

function selectorFor(
  registry: ToolRegistry,
  options: Partial<Parameters<typeof createToolSelector>[0]> = {},
) {
  const selector = createToolSelector({ registry, embedder: createFixtureEmbedder(model), ...options });
  selectors.push(selector);
  return selector;
}

const originalNames = (selected: Array<{ tool: { originalName: string } }>) =>
  selected.map((item) => item.tool.originalName);

describe('createToolSelector and MCP Apps', () => {
  it('never selects an app-only tool (the system-monitor app’s poller), nor discover_tools finds it', async () => {
    const monitor = await fetchAppServerTools();
    const poller = monitor.tools.find((tool) => tool.app?.visibility?.includes('app') === true);
    expect(poller?.name).toBe('poll-system-stats');
    const registry = registryWithOfficialTools();
    registry.registerMany(monitor.server, monitor.tools);
    const selector = selectorFor(registry);
    await selector.ready();
    // Its own description, word for word: the best possible match, were it indexed.
    const query = poller?.description ?? '';
    const names = async () => originalNames(await selector.select(query, { k: 50 }));
    expect(await names()).toContain('get-system-info');
    expect(await names()).not.toContain('poll-system-stats');
    const discover = createDiscoverToolsTool(selector);
    const found = await discover.execute({ query, limit: 50 });
    expect(found.structuredContent.tools.map((tool) => tool.name)).not.toContain(
      'mcp__monitor__poll-system-stats',
    );
    // The same tool offered to models (visibility changed) is found; hidden again, it is gone.
    const visible = {
      ...poller,
      app: { visibility: ['model', 'app'] as const },
    } as (typeof monitor.tools)[number];
    registry.register({ server: 'monitor', ...visible });
    await selector.ready();
    expect((await names())[0]).toBe('poll-system-stats');
    registry.register({ server: 'monitor', ...(poller as typeof visible) });
    expect(await names()).not.toContain('poll-system-stats');
  });
});

describe('createToolSelector on the official servers’ tools', () => {
  it('finds known tools for known queries', async () => {
    const registry = registryWithOfficialTools();
    const selector = selectorFor(registry);
    await selector.ready();
    expect(selector.info().indexed).toEqual({ dense: 36, lexical: 36 });

    const cases: Array<[query: string, expected: string, within: number]> = [
      ['list the files in a folder', 'list_directory', 3],
      ['add two numbers together', 'get-sum', 1],
      ['create relations between entities in the knowledge graph', 'create_relations', 1],
      ['echo my message back', 'echo', 1],
      ['show the environment variables', 'get-env', 1],
      ['rename a file', 'move_file', 3],
      ['read the entire knowledge graph', 'read_graph', 1],
    ];
    for (const [query, expected, within] of cases) {
      const selected = await selector.select(query, { k: 8 });
      expect(originalNames(selected).slice(0, within), query).toContain(expected);
    }
  });

  it('reports the signals behind each tool and respects k and minScore', async () => {
    const selector = selectorFor(registryWithOfficialTools());
    const selected = await selector.select('add two numbers together', { k: 3 });
    expect(selected).toHaveLength(3);
    const top = selected[0];
    expect(top?.signals.dense?.rank).toBe(1);
    expect(top?.signals.lexical?.rank).toBe(1);
    expect(top?.score).toBeGreaterThan(selected[2]?.score ?? 1);
    const strict = await selector.select('add two numbers together', { k: 8, minScore: top?.score ?? 0 });
    expect(strict.map((item) => item.name)).toEqual([top?.name]);
    const lexicalOnly = await selector.select('add two numbers together', { signals: 'lexical' });
    expect(lexicalOnly.every((item) => item.signals.dense === undefined)).toBe(true);
  });

  it('abstains under minSimilarity: no ranked tool, alwaysInclude kept', async () => {
    const selector = selectorFor(registryWithOfficialTools());
    const [best] = await selector.select('add two numbers together', { k: 1, signals: 'dense' });
    const similarity = best?.signals.dense?.score ?? 0;
    expect(similarity).toBeGreaterThan(0);
    const kept = await selector.select('add two numbers together', { minSimilarity: similarity - 1e-6 });
    expect(originalNames(kept)[0]).toBe('get-sum');
    const [echo] = await selector.select('echo my message back', { k: 1 });
    const none = await selector.select('add two numbers together', {
      minSimilarity: similarity + 1e-3,
      alwaysInclude: [echo?.name ?? 'echo'],
    });
    expect(none.map((item) => [item.tool.originalName, item.signals.alwaysIncluded])).toEqual([
      ['echo', true],
    ]);
    // Unknown words have no vector, and no BM25 hit either: nothing.
    expect(await selector.select('qwxz vbnmt', { minSimilarity: 0.1, alwaysInclude: [] })).toEqual([]);
  });

  it('unlessWordsMatch: a tool sharing a word with the request keeps the ranking whatever the cosine', async () => {
    const selector = selectorFor(registryWithOfficialTools());
    const unreachable = { minSimilarity: 1.01, alwaysInclude: [] };
    expect(await selector.select('add two numbers together', unreachable)).toEqual([]);
    const kept = await selector.select('add two numbers together', {
      ...unreachable,
      unlessWordsMatch: true,
    });
    expect(originalNames(kept)[0]).toBe('get-sum');
    // No word in common with any tool: the cosine decides, and nothing fits.
    expect(await selector.select('qwxz vbnmt', { ...unreachable, unlessWordsMatch: true })).toEqual([]);
    // Without the lexical signal the cosine alone decides.
    expect(
      await selector.select('add two numbers together', {
        ...unreachable,
        unlessWordsMatch: true,
        signals: 'dense',
      }),
    ).toEqual([]);
  });

  it('leaves a query the model cannot embed (Chinese) to BM25 under minSimilarity', async () => {
    const registry = registryWithOfficialTools();
    registry.register({
      server: 'weather',
      name: 'get-weather',
      description: '获取中国国内的天气预报信息',
      inputSchema: { type: 'object' },
    });
    const selector = selectorFor(registry);
    const found = await selector.select('国内天气预报', { minSimilarity: 0.3, alwaysInclude: [] });
    expect(originalNames(found)[0]).toBe('get-weather');
    expect(found[0]?.signals.dense).toBeUndefined();
  });

  it('drops a removed server’s tools from every later select()', async () => {
    const registry = registryWithOfficialTools();
    const selector = selectorFor(registry);
    await selector.ready();
    const before = await selector.select('read a file', { k: 8 });
    expect(before.some((item) => item.tool.server === 'filesystem')).toBe(true);
    expect(registry.unregisterServer('filesystem')).toBe(14);
    for (const query of ['read a file', 'list the files in a folder', 'move a file', 'directory tree']) {
      const after = await selector.select(query, { k: 36 });
      expect(
        after.some((item) => item.tool.server === 'filesystem'),
        query,
      ).toBe(false);
    }
    expect(selector.info().indexed).toEqual({ dense: 22, lexical: 22 });
  });

  it('follows tools added and updated after it started', async () => {
    const registry = registryWithOfficialTools();
    const selector = selectorFor(registry);
    await selector.ready();
    registry.register({
      server: 'clock',
      name: 'sleep_for',
      description: 'Wait for a number of seconds',
      inputSchema: { type: 'object', properties: { seconds: { type: 'number' } } },
    });
    expect(originalNames(await selector.select('sleep a few seconds', { k: 1 }))).toEqual(['sleep_for']);
    registry.register({
      server: 'clock',
      name: 'sleep_for',
      description: 'Show a tiny picture',
      inputSchema: { type: 'object' },
    });
    await selector.ready();
    const picture = await selector.select('show a tiny picture photo', { k: 2 });
    expect(originalNames(picture)).toContain('sleep_for');
  });

  it('persists its index: a restart re-embeds only what changed', async () => {
    const persistDir = temporary.make('tool-selector-');
    const firstEmbedder = countEmbeddings(createFixtureEmbedder(model));
    const first = createToolSelector({
      registry: registryWithOfficialTools(),
      embedder: firstEmbedder,
      index: { persistDir },
    });
    await first.ready();
    expect(firstEmbedder.embedded).toHaveLength(36);
    await first.close();

    const secondEmbedder = countEmbeddings(createFixtureEmbedder(model));
    const second = createToolSelector({
      registry: registryWithOfficialTools(),
      embedder: secondEmbedder,
      index: { persistDir },
    });
    await second.ready();
    expect(secondEmbedder.embedded).toEqual([]);
    expect(second.info().embeddings).toEqual({ computed: 0, reused: 36 });
    expect(originalNames(await second.select('add two numbers together', { k: 1 }))).toEqual(['get-sum']);
    await second.close();

    const changed = registryWithOfficialTools();
    const sum = changed.list({ server: 'everything' }).find((tool) => tool.originalName === 'get-sum');
    changed.register({
      ...(sum as NonNullable<typeof sum>),
      name: 'get-sum',
      description: 'Adds numbers: a plus b',
    });
    changed.unregisterServer('memory');
    const thirdEmbedder = countEmbeddings(createFixtureEmbedder(model));
    const third = createToolSelector({ registry: changed, embedder: thirdEmbedder, index: { persistDir } });
    await third.ready();
    expect(thirdEmbedder.embedded).toHaveLength(1);
    expect(thirdEmbedder.embedded[0]).toContain('Adds numbers: a plus b');
    expect(third.info().indexed.dense).toBe(27);
    await third.close();
  });

  it('warm-starts from an embedding store: a second selector embeds nothing, a changed tool alone', async () => {
    const embeddingStore = createMemoryEmbeddingStore();
    const firstEmbedder = countEmbeddings(createFixtureEmbedder(model));
    const first = createToolSelector({
      registry: registryWithOfficialTools(),
      embedder: firstEmbedder,
      embeddingStore,
    });
    await first.ready();
    expect(first.info().embeddings).toEqual({ computed: 36, reused: 0 });
    await first.close();

    // No persistDir: the in-memory index starts empty and is filled from the store.
    const secondEmbedder = countEmbeddings(createFixtureEmbedder(model));
    const second = createToolSelector({
      registry: registryWithOfficialTools(),
      embedder: secondEmbedder,
      embeddingStore,
    });
    await second.ready();
    expect(secondEmbedder.embedded).toEqual([]);
    expect(second.info().embeddings).toEqual({ computed: 0, reused: 36 });
    expect(second.info().indexed.dense).toBe(36);
    expect(originalNames(await second.select('add two numbers together', { k: 1 }))).toEqual(['get-sum']);
    await second.close();

    const changed = registryWithOfficialTools();
    const sum = changed.list({ server: 'everything' }).find((tool) => tool.originalName === 'get-sum');
    changed.register({
      ...(sum as NonNullable<typeof sum>),
      name: 'get-sum',
      description: 'Adds numbers: a plus b',
    });
    const thirdEmbedder = countEmbeddings(createFixtureEmbedder(model));
    const third = createToolSelector({ registry: changed, embedder: thirdEmbedder, embeddingStore });
    await third.ready();
    expect(thirdEmbedder.embedded).toHaveLength(1);
    expect(thirdEmbedder.embedded[0]).toContain('Adds numbers: a plus b');
    expect(third.info().embeddings).toEqual({ computed: 1, reused: 35 });
    await third.close();
  });

  it('a failing embedding store is logged and the tools are embedded', async () => {
    const warnings: string[] = [];
    const logger = {
      debug: () => {},
      info: () => {},
      error: () => {},
      warn: (_context: unknown, message?: string) => void warnings.push(message ?? ''),
    };
    const embedder = countEmbeddings(createFixtureEmbedder(model));
    const selector = selectorFor(registryWithOfficialTools(), {
      embedder,
      logger,
      embeddingStore: {
        specificationVersion: 'v1',
        load: async () => {
          throw new Error('database down');
        },
        save: async () => {
          throw new Error('database down');
        },
      },
    });
    await selector.ready();
    expect(embedder.embedded).toHaveLength(36);
    expect(selector.info().indexed.dense).toBe(36);
    expect(warnings.some((message) => message.includes('could not be read'))).toBe(true);
    expect(warnings.some((message) => message.includes('could not be written'))).toBe(true);
  });

  it('embeds tool documents with embedDocuments when the embedder has it, queries with embed', async () => {
    const inner = createFixtureEmbedder(model);
    const documents: string[] = [];
    const queries: string[] = [];
    const selector = selectorFor(registryWithOfficialTools(), {
      embedder: {
        specificationVersion: 'v1',
        modelId: 'asymmetric-fixture',
        get dimensions() {
          return inner.dimensions;
        },
        load: () => inner.load(),
        async embed(texts) {
          queries.push(...texts);
          return inner.embed(texts);
        },
        async embedDocuments(texts) {
          documents.push(...texts);
          return inner.embed(texts);
        },
      },
    });
    await selector.ready();
    expect(documents).toHaveLength(36);
    expect(queries).toEqual([]);
    const selected = await selector.select('list the files in a folder', { k: 3, alwaysInclude: [] });
    expect(originalNames(selected)).toContain('list_directory');
    expect(queries).toEqual(['list the files in a folder']);
    expect(documents).toHaveLength(36);
  });

  it('falls back to keywords when no embedding model loads, and says so', async () => {
    const registry = registryWithOfficialTools();
    const selector = selectorFor(registry, {
      embedder: createFixtureEmbedder({ root: model.root, modelId: 'missing/model' }),
    });
    await selector.ready();
    expect(selector.info().denseUnavailable).toMatch(/missing\/model/);
    const selected = await selector.select('add two numbers together', { k: 3 });
    expect(originalNames(selected)[0]).toBe('get-sum');
    expect(selected[0]?.signals.dense).toBeUndefined();
  });

  it('works on an empty registry', async () => {
    const registry = createToolRegistry();
    const selector = selectorFor(registry);
    await selector.ready();
    expect(await selector.select('read a file')).toEqual([]);
    expect(selector.tokenUsage([])).toMatchObject({ selectedTokens: 0, totalTokens: 0 });
    registry.registerMany('memory', official.find((entry) => entry.server === 'memory')?.tools ?? []);
    expect(originalNames(await selector.select('read the knowledge graph', { k: 1 }))).toEqual([
      'read_graph',
    ]);
  });

  it('answers a query of unknown words without NaN', async () => {
    const selector = selectorFor(registryWithOfficialTools());
    const selected = await selector.select('qwxz vbnmt plokij', { k: 5 });
    expect(selected).toEqual([]);
    const mixed = await selector.select('zzzz sum', { k: 3 });
    expect(mixed.every((item) => Number.isFinite(item.score))).toBe(true);
    expect(originalNames(mixed)[0]).toBe('get-sum');
  });

  it('always includes discover_tools and boosts categories named in the context', async () => {
    const registry = registryWithOfficialTools();
    const selector = selectorFor(registry);
    registry.register(createDiscoverToolsTool(selector));
    const selected = await selector.select('add two numbers together', { k: 2 });
    expect(selected.map((item) => item.name)).toContain('discover_tools');
    expect(selected.find((item) => item.name === 'discover_tools')?.signals.alwaysIncluded).toBe(true);
    expect(await selector.select('add numbers', { k: 2, alwaysInclude: [] })).toHaveLength(2);

    const plain = await selector.select('search for nodes or files', { k: 3, alwaysInclude: [] });
    const boosted = await selector.select('search for nodes or files', {
      k: 3,
      alwaysInclude: [],
      context: [{ role: 'user', content: 'I am working in the filesystem today' }],
    });
    expect(boosted[0]?.tool.server).toBe('filesystem');
    expect(boosted[0]?.signals.boost).toBeGreaterThan(0);
    expect(plain.find((item) => item.signals.boost)).toBeUndefined();
  });

  it('accounts for the tokens of the selected tools against all tools', async () => {
    const selector = selectorFor(registryWithOfficialTools());
    const selected = await selector.select('read a file', { k: 4 });
    const usage = selector.tokenUsage(selected);
    expect(usage.totalTools).toBe(36);
    expect(usage.selectedTools).toBe(4);
    expect(usage.selectedTokens).toBeGreaterThan(0);
    expect(usage.totalTokens).toBeGreaterThan(usage.selectedTokens * 3);
    expect(usage.savedTokens).toBe(usage.totalTokens - usage.selectedTokens);
  });

  it('rejects a non-string query with a clear error', async () => {
    const selector = selectorFor(registryWithOfficialTools());
    await expect(selector.select(42 as unknown as string)).rejects.toThrow(/query must be a string/);
  });
});

describe.skipIf(!offlineDefaultModel())('createToolSelector with the offline default model', () => {
  it('finds known tools on the official servers, dense and hybrid', async () => {
    const selector = selectorFor(registryWithOfficialTools(), { embedder: createOfflineEmbedder() });
    await selector.ready();
    const cases: Array<[query: string, expected: string]> = [
      ['show me what is inside this folder', 'list_directory'],
      ['list the files in a folder', 'list_directory'],
      ['add an observation to an entity', 'add_observations'],
      ['search the knowledge graph for a person', 'search_nodes'],
      ['what is 2 plus 3', 'get-sum'],
      ['compress a file with gzip', 'gzip-file-as-resource'],
    ];
    for (const [query, expected] of cases) {
      const hybrid = await selector.select(query, { k: 5, alwaysInclude: [] });
      expect(originalNames(hybrid), query).toContain(expected);
    }
    const dense = await selector.select('show me what is inside this folder', { k: 5, signals: 'dense' });
    expect(dense.every((item) => item.signals.dense !== undefined)).toBe(true);
    expect(await selector.select('qwxz vbnmt plokij', { alwaysInclude: [] })).toEqual([]);
  });
});
