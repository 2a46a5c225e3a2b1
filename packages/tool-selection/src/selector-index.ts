/**
 * The selector's choice of vector index (`createToolSelector({ index })`): the built-in exact index by
 * default, the HNSW index when asked for (falling back to the exact one, with the reason, when
 * `hnswlib-node` is not installed or not built), or a plug-in's factory. What was chosen and why is
 * reported in `selector.info().index`, which `switchboard doctor` prints.
 */
import type { Logger } from '@switchboard/core';
import { SwitchboardError } from '@switchboard/core';
import type { EmbedderInfo } from './embedder.js';
import { errorReason } from './error-reason.js';
import type { ExactIndexOptions } from './exact-index.js';
import { createExactIndex } from './exact-index.js';
import type { HnswIndexOptions } from './hnsw-index.js';
import { createHnswIndex } from './hnsw-index.js';
import type { VectorIndex } from './vector-index.js';

/** Options of the built-in exact index, as the selector takes them (dimensions and key come from the embedder). */
export interface SelectorExactIndexOptions extends Omit<ExactIndexOptions, 'dimensions' | 'key'> {
  /** The exact index (the default). */
  kind?: 'exact';
}

/** Options of the built-in HNSW index, as the selector takes them (dimensions and key come from the embedder). */
export interface SelectorHnswIndexOptions extends Omit<HnswIndexOptions, 'dimensions' | 'key'> {
  /** The HNSW index on the optional `hnswlib-node`; the exact index stands in when it cannot load. */
  kind: 'hnsw';
}

/** A plug-in index: called once the embedder has loaded, with what it loaded (the index's dimensions). */
export type VectorIndexFactory = (embedder: EmbedderInfo) => VectorIndex;

/**
 * The selector's `index` option. The HNSW index's own options without a `kind` (how it was asked for
 * before the exact index became the default) still ask for it.
 */
export type SelectorIndexOption =
  | SelectorExactIndexOptions
  | SelectorHnswIndexOptions
  | (Omit<HnswIndexOptions, 'dimensions' | 'key'> & { kind?: undefined })
  | VectorIndexFactory;

/** What the selector reports about its vector index. */
export interface VectorIndexInfo {
  /** The index in use: `'exact'`, `'hnswlib-node'`, or a plug-in's `kind` (`'custom'` when it has none). */
  kind: string;
  /** What was asked for: `'exact'`, `'hnsw'` or `'custom'` (a factory). */
  requestedKind: 'exact' | 'hnsw' | 'custom';
  /** One line on how it searches, when the index says (`VectorIndex.description`). */
  description?: string;
  /** Why the requested index is not the one in use; absent when it is. */
  fallbackReason?: string;
  /** The code of the error behind `fallbackReason`; absent with it. */
  fallbackCode?: string;
}

/** Options only the HNSW index has: given without a `kind`, they ask for it (as before `kind` existed). */
const hnswOnlyOptions = ['space', 'M', 'efConstruction', 'ef', 'randomSeed'] as const;

function requestedKindOf(option: SelectorIndexOption | undefined): VectorIndexInfo['requestedKind'] {
  if (typeof option === 'function') return 'custom';
  if (option?.kind === 'hnsw') return 'hnsw';
  if (option?.kind === undefined && option && hnswOnlyOptions.some((name) => name in option)) return 'hnsw';
  return 'exact';
}

/** Creates the index `option` asks for, for vectors of `embedder`, persisted under `key`. */
export function createSelectorIndex(
  option: SelectorIndexOption | undefined,
  embedder: EmbedderInfo,
  key: string,
  logger: Logger,
): { index: VectorIndex; info: VectorIndexInfo } {
  const requestedKind = requestedKindOf(option);
  const describe = (index: VectorIndex): Pick<VectorIndexInfo, 'kind' | 'description'> => ({
    kind: index.kind ?? 'custom',
    ...(index.description === undefined ? {} : { description: index.description }),
  });
  if (typeof option === 'function') {
    const index = option(embedder);
    return { index, info: { ...describe(index), requestedKind } };
  }
  const { kind: _kind, ...settings } = option ?? {};
  const exact = () =>
    createExactIndex({
      dimensions: embedder.dimensions,
      key,
      ...pick(settings as SelectorExactIndexOptions, ['initialCapacity', 'persistDir', 'kernel']),
    });
  if (requestedKind === 'exact') {
    const index = exact();
    return { index, info: { ...describe(index), requestedKind } };
  }
  try {
    const index = createHnswIndex({
      ...(settings as SelectorHnswIndexOptions),
      dimensions: embedder.dimensions,
      key,
    });
    return { index, info: { ...describe(index), requestedKind } };
  } catch (error) {
    const index = exact();
    const fallbackReason = SwitchboardError.isInstance(error) ? error.message : errorReason(error);
    logger.warn(
      `Tool selection: the HNSW index could not be created (${fallbackReason}); searching every vector exactly instead.`,
    );
    return {
      index,
      info: {
        ...describe(index),
        requestedKind,
        fallbackReason,
        ...(SwitchboardError.isInstance(error) ? { fallbackCode: error.code } : {}),
      },
    };
  }
}

function pick<T extends object, K extends keyof T>(source: T, keys: readonly K[]): Pick<T, K> {
  const picked = {} as Pick<T, K>;
  for (const name of keys) if (source[name] !== undefined) picked[name] = source[name];
  return picked;
}
