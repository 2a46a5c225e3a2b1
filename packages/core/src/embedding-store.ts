/**
 * Where computed embeddings are kept between processes, so that a restart (or another replica)
 * re-embeds only documents it has never seen. Versioned: a shared database, a file or a test double
 * can stand behind it. Vectors are keyed by a model key (vectors of different models never mix) and
 * by a content key (a document hash), so an unchanged document finds its vector whatever its name.
 */

import type { MaybePromise } from './registry-store.js';

/** Persistence of embedding vectors, by model and content key. */
export interface EmbeddingStore {
  /** Version of this interface the implementation follows. */
  readonly specificationVersion: 'v1';
  /**
   * The stored vectors of `keys` under `modelKey`; keys without one are absent from the map.
   * `modelKey` names what the vectors depend on, e.g. `modelId@dimensions`.
   */
  load(modelKey: string, keys: readonly string[]): MaybePromise<Map<string, Float32Array>>;
  /** Stores (or replaces) vectors under `modelKey`, by content key. */
  save(modelKey: string, entries: ReadonlyMap<string, Float32Array>): MaybePromise<void>;
}

/**
 * An embedding store in this process's memory: the built-in implementation, for tests and for
 * several selectors of one process sharing their work.
 */
export function createMemoryEmbeddingStore(): EmbeddingStore {
  const models = new Map<string, Map<string, Float32Array>>();
  return {
    specificationVersion: 'v1',
    load(modelKey, keys) {
      const stored = models.get(modelKey);
      const found = new Map<string, Float32Array>();
      if (!stored) return found;
      for (const key of keys) {
        const vector = stored.get(key);
        // A copy: the caller may hand the vector to an index that keeps it.
        if (vector) found.set(key, vector.slice());
      }
      return found;
    },
    save(modelKey, entries) {
      let stored = models.get(modelKey);
      if (!stored) {
        stored = new Map();
        models.set(modelKey, stored);
      }
      for (const [key, vector] of entries) stored.set(key, vector.slice());
    },
  };
}
