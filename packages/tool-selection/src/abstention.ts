/**
 * Whether a search should find nothing: the request fits none of the tools. The fused score
 * cannot tell (it is relative: the best BM25 hit always scores 1), so the dense ranking's cosine
 * decides, and under `unlessWordsMatch` only when BM25 found no tool sharing a word with the request
 * (a short request embeds far from a long description: README, "Abstaining").
 */
import type { RankedHit } from './fuse-rankings.js';
import { isZeroVector } from './vector.js';

/** What {@link abstains} reads of one search. */
export interface AbstentionInput {
  /** The dense ranking, best first (cosine scores). */
  dense: readonly RankedHit[];
  /** The BM25 ranking. */
  lexical: readonly RankedHit[];
  /** The query's vector; undefined without an embedder. */
  vector: Float32Array | undefined;
  /** Tools in the vector index (0 or undefined: no dense signal, nothing judged). */
  indexSize: number | undefined;
  minSimilarity: number | undefined;
  unlessWordsMatch: boolean | undefined;
}

/** True when the search should return no ranked tool. */
export function abstains(input: AbstentionInput): boolean {
  const { minSimilarity, vector } = input;
  if (minSimilarity === undefined || !input.indexSize || !vector) return false;
  if (input.unlessWordsMatch && input.lexical.length > 0) return false;
  // A query of no word the model knows (text in a script it was not trained on, e.g. Chinese)
  // embeds to zeros: the cosine says nothing about it, so BM25 alone decides (no hit, no tool).
  if (isZeroVector(vector)) return false;
  return (input.dense[0]?.score ?? 0) < minSimilarity;
}
