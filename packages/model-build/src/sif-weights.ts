/**
 * Stage 4, the weights: each token's projected teacher vector times a SIF weight a / (a + p(rank)), p a
 * Zipf law over the frequency rank. Continuation pieces count as the rarest rank (times `pieceWeight`),
 * stopwords get zero rows. Rows are not length-normalised: a generic word, which stays near the mean
 * after centring, keeps a short vector — a weight of its own (+1 point of dense Recall@5, MODEL.md).
 */
import { OFFLINE_MODEL_SPECIAL_TOKENS } from '@switchboard/tool-selection';
import { createTokenRows, type TokenRows } from './token-rows.js';
import type { Vocabulary } from './vocabulary.js';

/** The numbers of the weighting (from the recipe). */
export interface SifSettings {
  /** SIF `a`. */
  sifA: number;
  /** Factor of the continuation pieces. */
  pieceWeight: number;
  /** Words whose rows are zero. */
  stopwords: readonly string[];
}

/** Number of special tokens ([PAD], [UNK], [CLS]) before the first text's row. */
export const SPECIAL_TOKEN_COUNT = Object.keys(OFFLINE_MODEL_SPECIAL_TOKENS).length;

/**
 * The weight of each text of `vocabulary` in row order (words, extra words, continuations). Words beyond
 * the ranked list (the extra words) count as the rarest rank.
 */
export function sifWeights(vocabulary: Vocabulary, settings: SifSettings): Float64Array {
  const { words, extraWords, continuations } = vocabulary;
  const stop = new Set(settings.stopwords);
  const harmonic = Math.log(1.78 * words.length);
  const tokenCount = words.length + extraWords.length;
  const texts = [...words, ...extraWords, ...continuations];
  const weights = new Float64Array(texts.length);
  for (let i = 0; i < texts.length; i++) {
    const isContinuation = i >= tokenCount;
    if (!isContinuation && stop.has(texts[i] as string)) continue;
    const rank = i < words.length ? i + 1 : words.length;
    weights[i] =
      (isContinuation ? settings.pieceWeight : 1) * (settings.sifA / (settings.sifA + 1 / (rank * harmonic)));
  }
  return weights;
}

/**
 * The distilled token rows: row `SPECIAL_TOKEN_COUNT + i` is text i's projected vector (`projected`,
 * texts × (dims − 1)) times its weight; the special rows and the guard column stay zero.
 */
export function weightedTokenRows(projected: Float32Array, weights: Float64Array, dims: number): TokenRows {
  const width = dims - 1;
  const texts = weights.length;
  if (projected.length !== texts * width) {
    throw new Error(`weightedTokenRows: ${projected.length} projected values for ${texts} texts × ${width}`);
  }
  const rows = createTokenRows(texts + SPECIAL_TOKEN_COUNT, dims);
  for (let i = 0; i < texts; i++) {
    const offset = (i + SPECIAL_TOKEN_COUNT) * dims;
    const weight = weights[i] as number;
    for (let j = 0; j < width; j++) rows.data[offset + j] = (projected[i * width + j] as number) * weight;
  }
  return rows;
}
