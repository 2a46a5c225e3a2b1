/**
 * Stage 5, the Tokenlearn-style refit: the token rows are moved so that the normalised sum of a sentence's
 * rows points where the teacher's (projected, normalised) vector of the whole sentence points — SGD on
 * 1 − cosine, plus a pull of strength `pull` back to the starting rows, in a seeded order. Rows that
 * start at zero (special tokens, stopwords, continuation pieces) stay zero.
 */
import { OFFLINE_MODEL_SPECIAL_TOKENS } from '@switchboard/tool-selection';
import type { BuildLog } from './build-log.js';
import type { TokenlearnRecipe } from './model-recipe.js';
import { createSeededRandom, shuffleInPlace } from './refit-corpus.js';
import type { TokenRowStage, TokenRows } from './token-rows.js';

/** Settings of the SGD (the recipe's `tokenlearn` less its corpus size and teacher batch). */
export type TokenlearnSettings = Pick<TokenlearnRecipe, 'epochs' | 'learningRate' | 'pull' | 'seed'>;

/** Mean 1 − cosine of each epoch, in order. */
export type TokenlearnLosses = number[];

/**
 * Refits `rows` in place on `sentences` (token ids, special tokens left out) and their `targets`
 * (sentences × (dims − 1)); the guard column is not touched. Returns the mean loss of each epoch.
 */
export function tokenlearn(
  rows: TokenRows,
  sentences: readonly (readonly number[])[],
  targets: Float32Array,
  settings: TokenlearnSettings,
  log: BuildLog,
): TokenlearnLosses {
  const { data: rowData, dims: stride } = rows;
  const k = stride - 1;
  if (targets.length !== sentences.length * k) {
    throw new Error(`tokenlearn: ${targets.length} target values for ${sentences.length} sentences × ${k}`);
  }
  const start = Float32Array.from(rowData);
  const trainable = (id: number) => {
    for (let j = 0; j < k; j++) if (start[id * stride + j] !== 0) return true;
    return false;
  };
  const order = [...sentences.keys()];
  const random = createSeededRandom(settings.seed);
  const pooled = new Float64Array(k);
  const gradient = new Float64Array(k);
  const losses: TokenlearnLosses = [];
  for (let epoch = 0; epoch < settings.epochs; epoch++) {
    shuffleInPlace(order, random);
    let loss = 0;
    for (const i of order) {
      const ids = sentences[i] as readonly number[];
      if (!ids.length) continue;
      pooled.fill(0);
      for (const id of ids)
        for (let j = 0; j < k; j++) pooled[j] = (pooled[j] as number) + (rowData[id * stride + j] as number);
      let norm = 0;
      for (let j = 0; j < k; j++) norm += (pooled[j] as number) * (pooled[j] as number);
      norm = Math.sqrt(norm);
      if (norm < 1e-9) continue;
      const target = targets.subarray(i * k, i * k + k);
      let cosine = 0;
      for (let j = 0; j < k; j++) cosine += (pooled[j] as number) * (target[j] as number);
      cosine /= norm;
      loss += 1 - cosine;
      // Gradient of 1 − cos(p, y) with respect to p; each row of the sentence gets it once per occurrence.
      for (let j = 0; j < k; j++)
        gradient[j] = -((target[j] as number) - (cosine * (pooled[j] as number)) / norm) / norm;
      const counts = new Map<number, number>();
      for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
      for (const [id, times] of counts) {
        if (!trainable(id)) continue;
        const offset = id * stride;
        for (let j = 0; j < k; j++) {
          rowData[offset + j] =
            (rowData[offset + j] as number) -
            settings.learningRate *
              (times * (gradient[j] as number) +
                settings.pull * ((rowData[offset + j] as number) - (start[offset + j] as number)));
        }
      }
    }
    losses.push(loss / order.length);
    log(`tokenlearn epoch ${epoch + 1}: mean 1 - cosine ${(loss / order.length).toFixed(4)}`);
  }
  return losses;
}

/** The refit as a {@link TokenRowStage}: the corpus is encoded with the model's tokenizer, specials left out. */
export function createTokenlearnRefitStage(corpus: readonly string[], targets: Float32Array): TokenRowStage {
  const firstText = Object.keys(OFFLINE_MODEL_SPECIAL_TOKENS).length;
  return {
    name: 'tokenlearn-refit',
    run(rows, context) {
      // Special ids have zero rows and would add nothing: leave them out.
      const sentences = corpus.map((text) => context.tokenizer.encode(text).filter((id) => id >= firstText));
      const { epochs, learningRate, pull, seed } = context.recipe.tokenlearn;
      tokenlearn(rows, sentences, targets, { epochs, learningRate, pull, seed }, context.log);
      return rows;
    },
  };
}
