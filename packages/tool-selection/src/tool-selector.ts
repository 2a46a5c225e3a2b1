/**
 * The tool selector: keeps a dense (vector) and a lexical (BM25) index in step with a tool registry
 * and answers "which few tools fit this request" with a fused ranking. By default the dense signal is
 * the offline model this package ships in the exact index: nothing downloaded, nothing compiled.
 */
import type {
  EmbeddingStore,
  Logger,
  RegisteredTool,
  ToolRegistry,
  ToolRegistryEvent,
} from '@switchboard/core';
import { discoverToolsDefaults, isModelFacing, SwitchboardError, silentLogger } from '@switchboard/core';
import { abstains } from './abstention.js';
import type { Embedder, EmbedderInfo } from './embedder.js';
import { errorReason } from './error-reason.js';
import type { FusedHit, FusionOptions, RankedHit } from './fuse-rankings.js';
import { defaultFusion, fuseRankings } from './fuse-rankings.js';
import type { LexicalIndex } from './lexical-index.js';
import { createLexicalIndex } from './lexical-index.js';
import { createOfflineEmbedder } from './offline-embedder.js';
import type { SelectorIndexOption, VectorIndexInfo } from './selector-index.js';
import { createSelectorIndex } from './selector-index.js';
import { tokenize } from './text-tokens.js';
import type { TokenEstimator, TokenUsage } from './token-estimator.js';
import { createTokenEstimator } from './token-estimator.js';
import { hashToolDocument, toEmbeddingText, toolCategories, toToolDocument } from './tool-document.js';
import { isZeroVector } from './vector.js';
import type { VectorIndex } from './vector-index.js';

/** Which signals rank the tools. */
export type SelectionSignals = 'hybrid' | 'dense' | 'lexical';

/** A recent message, for context boosting. */
export type ContextMessage = string | { role?: string; content?: unknown };

/** Options of {@link ToolSelector.select}. */
export interface SelectOptions {
  /** How many tools to return (not counting `alwaysInclude`). @default 8 */
  k?: number;
  /** Drop tools whose fused score is below this. @default 0 */
  minScore?: number;
  /**
   * Return no ranked tool (only `alwaysInclude`) when the most similar tool's cosine similarity is
   * below this: the request fits none of the tools. Needs the dense signal (ignored without it, and
   * for a query of no word the model knows, which only BM25 can judge).
   * The README's "Abstaining" table gives what each value costs on BFCL. @default off
   */
  minSimilarity?: number;
  /**
   * With `minSimilarity`: abstain only when, besides, no tool shares a word with the request (BM25
   * finds nothing); on MetaTool, 0.3 alone gave 17.6 % of real requests nothing, 0.3 with this 0.5 % (README, "Abstaining"). @default false
   */
  unlessWordsMatch?: boolean;
  /** Public names returned whatever the query, when registered. @default ['discover_tools'] */
  alwaysInclude?: readonly string[];
  /** Recent messages: tools whose server or category they name get `categoryBoost`. */
  context?: readonly ContextMessage[];
  /** Added to the fused score of tools whose category the context names. @default 0.1 */
  categoryBoost?: number;
  /** Signals to rank with. @default 'hybrid' */
  signals?: SelectionSignals;
  /** Aborts the query embedding. */
  signal?: AbortSignal;
}

/** A selected tool, with its score and the signals that put it there. */
export interface SelectedTool {
  tool: RegisteredTool;
  /** Public name. */
  name: string;
  /** Fused score (higher is better). */
  score: number;
  signals: {
    /** Rank (1-based) and cosine similarity in the dense ranking. */
    dense?: { rank: number; score: number };
    /** Rank (1-based) and BM25 score in the lexical ranking. */
    lexical?: { rank: number; score: number };
    /** Score added because the context named the tool's category. */
    boost?: number;
    /** Present because of `alwaysInclude`. */
    alwaysIncluded?: true;
  };
}

/** What the selector is running with. */
export interface ToolSelectorInfo {
  /** The active embedder (after any fallback); undefined while loading or when it failed. */
  embedder?: EmbedderInfo;
  /** Why the dense signal is off (lexical only); absent when it is on. */
  denseUnavailable?: string;
  /** The code of the error behind `denseUnavailable`; absent with it. */
  denseUnavailableCode?: string;
  /** The vector index in use and why; undefined while loading or when the dense signal is off. */
  index?: VectorIndexInfo;
  /** Tools known to the selector. */
  tools: number;
  /** Tools in the dense and lexical indexes. */
  indexed: { dense: number; lexical: number };
  /** Documents embedded since creation, and embeddings reused from a persisted index or the embedding store. */
  embeddings: { computed: number; reused: number };
  fusion: Required<FusionOptions>;
}

/** Options of {@link createToolSelector}. */
export interface ToolSelectorOptions {
  /** The registry to follow. */
  registry: ToolRegistry;
  /**
   * The embedder of the dense signal. @default createOfflineEmbedder(): the model this package ships,
   * the same rankings with and without a network
   */
  embedder?: Embedder;
  /**
   * The vector index (dimensions and key come from the embedder): options of the built-in exact index
   * (`{ kind: 'exact', persistDir }`), of the HNSW index on the optional `hnswlib-node`
   * (`{ kind: 'hnsw', M, ef, persistDir }`; the exact index stands in when it cannot load), or a
   * factory of another `VectorIndex`. HNSW-only options without a `kind` ask for HNSW.
   * @default the exact index, in memory
   */
  index?: SelectorIndexOption;
  /**
   * Where vectors are shared between processes (core's `EmbeddingStore` v1, e.g. the PostgreSQL
   * store of `@switchboard/client/postgres-store`): before a tool document is embedded its hash is
   * looked up there, and what is embedded is saved there, so replicas starting on one database
   * embed each document once. Used with or instead of `index.persistDir`. A failing store is
   * logged and the documents are embedded. @default none
   */
  embeddingStore?: EmbeddingStore;
  /** The lexical index. @default createLexicalIndex() */
  lexical?: LexicalIndex;
  /** Fusion of the two rankings. */
  fusion?: FusionOptions;
  /** Default `alwaysInclude`. @default ['discover_tools'] */
  alwaysInclude?: readonly string[];
  /** Query embeddings kept (repeated queries are common). 0 disables. @default 256 */
  queryCacheSize?: number;
  /** Estimates a tool definition's tokens. @default createTokenEstimator() */
  tokenEstimator?: TokenEstimator;
  /** Delay before persisting after a change, in ms. @default 1000 */
  saveDelayMs?: number;
  /** @default silentLogger */
  logger?: Logger;
}

/** Picks the relevant tools of a registry for a request. */
export interface ToolSelector {
  /** The best tools for `query`, best first, then `alwaysInclude` tools not already in. */
  select(query: string, options?: SelectOptions): Promise<SelectedTool[]>;
  /** `select` for many queries at once (one batched embedding call). */
  selectMany(queries: readonly string[], options?: SelectOptions): Promise<SelectedTool[][]>;
  /** Estimated tokens of `selected` against all registered tools. */
  tokenUsage(selected: readonly Pick<SelectedTool, 'tool'>[]): TokenUsage;
  /** Resolves once the indexes hold every tool registered so far. */
  ready(): Promise<void>;
  info(): ToolSelectorInfo;
  /** Stops following the registry and persists the index (the embedder stays open: it is the caller's). */
  close(): Promise<void>;
}

// No embedding text is kept: it is rebuilt for the few tools that need embedding, so a warm restart
// of 100,000 tools neither builds nor holds 30 MB of text it never uses.
interface Entry {
  tool: RegisteredTool;
  hash: string;
  categories: string[][];
}

/** Tool documents embedded (and saved to the embedding store) per embedder call while indexing. */
const EMBED_CHUNK = 1024;

/** Creates a selector following `registry`; it starts indexing at once (see `ready()`). */
export function createToolSelector(options: ToolSelectorOptions): ToolSelector {
  const { registry } = options;
  const embedder = options.embedder ?? createOfflineEmbedder();
  const logger = options.logger ?? silentLogger;
  const fusion: Required<FusionOptions> = { ...defaultFusion, ...options.fusion };
  const lexical = options.lexical ?? createLexicalIndex();
  const defaultAlwaysInclude = options.alwaysInclude ?? [discoverToolsDefaults.name];
  const cacheSize = options.queryCacheSize ?? 256;
  const estimate = options.tokenEstimator ?? createTokenEstimator();
  const saveDelayMs = options.saveDelayMs ?? 1000;

  const entries = new Map<string, Entry>();
  const queryCache = new Map<string, Float32Array>();
  const tokenCache = new Map<string, number>();
  let index: VectorIndex | undefined;
  // What stored vectors depend on: the model in use and its dimensions (the persisted index's key too).
  let modelKey = '';
  let embedderInfo: EmbedderInfo | undefined;
  let denseUnavailable: string | undefined;
  let denseUnavailableCode: string | undefined;
  let indexInfo: VectorIndexInfo | undefined;
  let computed = 0;
  let reused = 0;
  let closed = false;
  let saveTimer: NodeJS.Timeout | undefined;
  let dirty = false;
  // Every index mutation that needs the embedder runs on this chain, in registry order.
  let work: Promise<void> = Promise.resolve();

  // A server's tools share its name as a category: one word list per distinct category, not per tool
  // (28 MB at 100,000 tools otherwise). Category strings are few (servers, meta categories).
  const categoryWordLists = new Map<string, string[]>();
  function categoryWords(category: string): string[] {
    let words = categoryWordLists.get(category);
    if (!words) {
      words = tokenize(category, { keepStopWords: true });
      categoryWordLists.set(category, words);
    }
    return words;
  }

  function upsertLexical(tool: RegisteredTool): Entry {
    const document = toToolDocument(tool);
    const entry: Entry = {
      tool,
      hash: hashToolDocument(document),
      categories: toolCategories(tool).map(categoryWords),
    };
    entries.set(tool.name, entry);
    lexical.add(tool.name, document);
    tokenCache.delete(tool.name);
    return entry;
  }

  function removeTool(name: string): void {
    entries.delete(name);
    lexical.remove(name);
    tokenCache.delete(name);
    if (index?.remove(name)) scheduleSave();
  }

  async function embedMissing(names: readonly string[]): Promise<void> {
    if (!index) return;
    const pending = names
      .map((name) => entries.get(name))
      .filter(
        (entry): entry is Entry => entry !== undefined && index?.hashOf(entry.tool.name) !== entry.hash,
      );
    reused += names.length - pending.length;
    if (pending.length === 0) return;
    const stored = await loadStoredVectors(pending);
    const toEmbed: Entry[] = [];
    for (const entry of pending) {
      const vector = stored.get(entry.hash);
      if (vector === undefined) {
        toEmbed.push(entry);
        continue;
      }
      reused++;
      addCurrent(entry, vector);
    }
    // In chunks: the texts and vectors of one chunk are alive at a time, not those of every tool
    // (at 100,000 tools, ~140 MB held until the last was inserted).
    for (let start = 0; start < toEmbed.length; start += EMBED_CHUNK) {
      const chunk = toEmbed.slice(start, start + EMBED_CHUNK);
      const texts = chunk.map((entry) => toEmbeddingText(toToolDocument(entry.tool)));
      const vectors = await (embedder.embedDocuments
        ? embedder.embedDocuments(texts)
        : embedder.embed(texts));
      computed += chunk.length;
      chunk.forEach((entry, position) => {
        addCurrent(entry, vectors[position] as Float32Array);
      });
      await saveStoredVectors(chunk, vectors);
    }
    scheduleSave();
  }

  function addCurrent(entry: Entry, vector: Float32Array): void {
    // The tool may have been removed or changed while embedding: only the current version goes in.
    if (entries.get(entry.tool.name) !== entry) return;
    index?.add(entry.tool.name, vector, entry.hash);
  }

  async function loadStoredVectors(pending: readonly Entry[]): Promise<Map<string, Float32Array>> {
    const store = options.embeddingStore;
    const usable = new Map<string, Float32Array>();
    if (!store || !index) return usable;
    try {
      const found = await store.load(modelKey, [...new Set(pending.map((entry) => entry.hash))]);
      // A vector of another length cannot go into this index: embedding it again repairs the store.
      for (const [key, vector] of found) if (vector.length === index.dimensions) usable.set(key, vector);
    } catch (error) {
      logger.warn(
        { error: error instanceof Error ? error.message : String(error) },
        'Tool selection: the embedding store could not be read; embedding the tools instead.',
      );
    }
    return usable;
  }

  async function saveStoredVectors(
    embedded: readonly Entry[],
    vectors: readonly Float32Array[],
  ): Promise<void> {
    const store = options.embeddingStore;
    if (!store) return;
    const byHash = new Map<string, Float32Array>();
    embedded.forEach((entry, position) => {
      byHash.set(entry.hash, vectors[position] as Float32Array);
    });
    try {
      await store.save(modelKey, byHash);
    } catch (error) {
      logger.warn(
        { error: error instanceof Error ? error.message : String(error) },
        'Tool selection: the embedding store could not be written; other processes will embed these tools again.',
      );
    }
  }

  function scheduleSave(): void {
    if (closed || !index) return;
    dirty = true;
    if (saveTimer) return;
    saveTimer = setTimeout(() => {
      saveTimer = undefined;
      persist();
    }, saveDelayMs);
    saveTimer.unref?.();
  }

  function persist(): void {
    if (!dirty || !index) return;
    dirty = false;
    try {
      index.save();
    } catch (error) {
      logger.warn(
        { error: error instanceof Error ? error.message : String(error) },
        'Could not persist the tool index; it will be rebuilt on the next start.',
      );
    }
  }

  function enqueue(task: () => Promise<void>): Promise<void> {
    work = work.then(task).catch((error: unknown) => {
      logger.error(
        { error: error instanceof Error ? error.message : String(error) },
        'Tool selection: indexing failed; those tools are ranked by keywords only.',
      );
    });
    return work;
  }

  function onEvent(event: ToolRegistryEvent): void {
    if (event.type === 'removed') {
      removeTool(event.tool.name);
      return;
    }
    if (event.type === 'updated' && event.previous.name !== event.tool.name) removeTool(event.previous.name);
    // A tool no model may see (an app's own helper) is never indexed, so never selected.
    if (!isModelFacing(event.tool)) {
      if (entries.has(event.tool.name)) removeTool(event.tool.name);
      return;
    }
    upsertLexical(event.tool);
    const name = event.tool.name;
    enqueue(() => embedMissing([name]));
  }

  // Subscribe before listing, so that no change falls between the two.
  const unsubscribe = registry.subscribe(onEvent);
  for (const tool of registry.list({ modelFacing: true })) upsertLexical(tool);

  const initialBuild = enqueue(async () => {
    try {
      embedderInfo = embedder.load
        ? await embedder.load()
        : { modelId: embedder.modelId, dimensions: embedder.dimensions, requestedModelId: embedder.modelId };
    } catch (error) {
      denseUnavailable = SwitchboardError.isInstance(error) ? error.message : errorReason(error);
      if (SwitchboardError.isInstance(error)) denseUnavailableCode = error.code;
      logger.error(
        `Tool selection: no embedding model could be loaded, ranking by keywords only. ${denseUnavailable}`,
      );
      return;
    }
    const info = embedderInfo;
    modelKey = `${info.modelId}@${info.dimensions}`;
    const created = createSelectorIndex(options.index, info, modelKey, logger);
    index = created.index;
    indexInfo = created.info;
    if (index.load()) {
      for (const id of index.ids()) if (!entries.has(id)) index.remove(id);
    }
    await embedMissing([...entries.keys()]);
    persist();
  });

  async function embedQueries(
    queries: readonly string[],
    signal?: AbortSignal,
  ): Promise<Array<Float32Array | undefined>> {
    // Only the first build is waited for: tools added later are found by keywords until embedded,
    // rather than holding every query up behind a large server's batch.
    await initialBuild;
    if (!index || index.size === 0) return queries.map(() => undefined);
    const result: Array<Float32Array | undefined> = new Array(queries.length);
    const missing: number[] = [];
    queries.forEach((query, position) => {
      const cached = queryCache.get(query);
      if (cached) {
        // Re-insert: a Map iterates in insertion order, so the oldest entry is the least recently used.
        queryCache.delete(query);
        queryCache.set(query, cached);
        result[position] = cached;
      } else missing.push(position);
    });
    if (missing.length > 0) {
      const vectors = await embedder.embed(
        missing.map((position) => queries[position] as string),
        signal ? { signal } : {},
      );
      missing.forEach((position, offset) => {
        const vector = vectors[offset] as Float32Array;
        result[position] = vector;
        if (cacheSize > 0) {
          queryCache.set(queries[position] as string, vector);
          if (queryCache.size > cacheSize) queryCache.delete(queryCache.keys().next().value as string);
        }
      });
    }
    return result;
  }

  function contextTokens(context: readonly ContextMessage[] | undefined): Set<string> | undefined {
    if (!context || context.length === 0) return undefined;
    const tokens = new Set<string>();
    for (const message of context) {
      const text =
        typeof message === 'string' ? message : typeof message.content === 'string' ? message.content : '';
      for (const token of tokenize(text, { keepStopWords: true })) tokens.add(token);
    }
    return tokens;
  }

  function rank(
    query: string,
    vector: Float32Array | undefined,
    selectOptions: SelectOptions,
  ): SelectedTool[] {
    const k = selectOptions.k ?? 8;
    const signals = selectOptions.signals ?? 'hybrid';
    const candidates = Math.max(fusion.candidates, k);
    let dense: RankedHit[] = [];
    if (signals !== 'lexical' && vector && index && !isZeroVector(vector)) {
      dense = index.search(vector, { limit: candidates });
    }
    const lexicalHits: RankedHit[] = signals === 'dense' ? [] : lexical.search(query, { limit: candidates });
    // The threshold is a fusion rule: a single-signal ranking is reported as it is.
    const fused: FusedHit[] = abstains({
      dense,
      lexical: lexicalHits,
      vector,
      indexSize: index?.size,
      minSimilarity: selectOptions.minSimilarity,
      unlessWordsMatch: selectOptions.unlessWordsMatch,
    })
      ? []
      : fuseRankings(
          dense,
          lexicalHits,
          signals === 'hybrid' ? fusion : { ...fusion, denseThreshold: Number.NEGATIVE_INFINITY },
          signals === 'hybrid' ? { terms: new Set(tokenize(query)).size } : {},
        );

    const tokens = contextTokens(selectOptions.context);
    const boost = selectOptions.categoryBoost ?? 0.1;
    const boosted = new Map<string, number>();
    if (tokens && boost !== 0) {
      for (const hit of fused) {
        const entry = entries.get(hit.id);
        if (entry?.categories.some((words) => words.length > 0 && words.every((word) => tokens.has(word)))) {
          hit.score += boost;
          boosted.set(hit.id, boost);
        }
      }
      fused.sort((a, b) => b.score - a.score);
    }

    const minScore = selectOptions.minScore ?? 0;
    const selected: SelectedTool[] = [];
    for (const hit of fused) {
      if (selected.length >= k) break;
      if (hit.score < minScore) break;
      const entry = entries.get(hit.id);
      // Removed since the search structures last saw it.
      if (!entry) continue;
      selected.push({
        tool: entry.tool,
        name: hit.id,
        score: hit.score,
        signals: {
          ...(hit.dense ? { dense: hit.dense } : {}),
          ...(hit.lexical ? { lexical: hit.lexical } : {}),
          ...(boosted.has(hit.id) ? { boost: boosted.get(hit.id) as number } : {}),
        },
      });
    }
    for (const name of selectOptions.alwaysInclude ?? defaultAlwaysInclude) {
      const entry = entries.get(name);
      if (!entry || selected.some((item) => item.name === name)) continue;
      selected.push({ tool: entry.tool, name, score: 0, signals: { alwaysIncluded: true } });
    }
    return selected;
  }

  function checkQuery(query: unknown): asserts query is string {
    if (typeof query !== 'string') {
      throw new SwitchboardError({
        code: 'INVALID_ARGUMENT',
        message: `select(query): query must be a string, got ${query === null ? 'null' : typeof query}.`,
        context: { received: typeof query },
      });
    }
  }

  async function selectMany(
    queries: readonly string[],
    selectOptions: SelectOptions = {},
  ): Promise<SelectedTool[][]> {
    for (const query of queries) checkQuery(query);
    const vectors =
      selectOptions.signals === 'lexical'
        ? queries.map(() => undefined)
        : await embedQueries(queries, selectOptions.signal);
    return queries.map((query, position) => rank(query, vectors[position], selectOptions));
  }

  function tokensOf(tool: RegisteredTool): number {
    let tokens = tokenCache.get(tool.name);
    if (tokens === undefined) {
      tokens = estimate(tool);
      tokenCache.set(tool.name, tokens);
    }
    return tokens;
  }

  return {
    async select(query, selectOptions = {}) {
      checkQuery(query);
      const [result] = await selectMany([query], selectOptions);
      return result ?? [];
    },
    selectMany,
    tokenUsage(selected) {
      let totalTokens = 0;
      for (const entry of entries.values()) totalTokens += tokensOf(entry.tool);
      let selectedTokens = 0;
      for (const item of selected) selectedTokens += tokensOf(item.tool);
      return {
        selectedTokens,
        totalTokens,
        savedTokens: totalTokens - selectedTokens,
        selectedTools: selected.length,
        totalTools: entries.size,
      };
    },
    async ready() {
      // Loop: work queued while waiting must be waited for too.
      let current: Promise<void>;
      do {
        current = work;
        await current;
      } while (current !== work);
    },
    info() {
      return {
        ...(embedderInfo ? { embedder: embedderInfo } : {}),
        ...(denseUnavailable ? { denseUnavailable } : {}),
        ...(denseUnavailableCode ? { denseUnavailableCode } : {}),
        ...(indexInfo ? { index: indexInfo } : {}),
        tools: entries.size,
        indexed: { dense: index?.size ?? 0, lexical: lexical.size },
        embeddings: { computed, reused },
        fusion,
      };
    },
    async close() {
      if (closed) return;
      unsubscribe();
      await work;
      closed = true;
      if (saveTimer) clearTimeout(saveTimer);
      saveTimer = undefined;
      persist();
    },
  };
}
