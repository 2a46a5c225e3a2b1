/** Wraps an embedder and counts the texts it embeds (to prove what a restart re-embeds). */
import type { Embedder } from '../../src/index.js';

/** An embedder that counts embedded texts. */
export interface CountingEmbedder extends Embedder {
  /** Texts embedded so far. */
  readonly embedded: string[];
}

/** Wraps `inner`, recording every text passed to `embed`. */
export function countEmbeddings(inner: Embedder): CountingEmbedder {
  const embedded: string[] = [];
  return {
    specificationVersion: 'v1',
    get modelId() {
      return inner.modelId;
    },
    get dimensions() {
      return inner.dimensions;
    },
    embedded,
    ...(inner.load ? { load: () => (inner.load as NonNullable<Embedder['load']>)() } : {}),
    async embed(texts, options) {
      embedded.push(...texts);
      return inner.embed(texts, options);
    },
  };
}
