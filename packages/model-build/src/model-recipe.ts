/**
 * The recipe of the offline default model: every number the build uses. Any change here changes the
 * cache key (build-info.ts) and so rebuilds the model. MODEL.md says why each value is what it is.
 */
import { OFFLINE_MODEL_DIMS, OFFLINE_MODEL_ID } from '@switchboard/tool-selection';
import type { ContrastiveRecipe } from './contrastive-finetune.js';

/** Settings of the Tokenlearn-style refit (tokenlearn-refit.ts). */
export interface TokenlearnRecipe {
  /** English WordNet sentences to refit on (glosses and usage examples; never benchmark text). */
  sentences: number;
  epochs: number;
  learningRate: number;
  /** Strength of the pull back towards the distilled rows. */
  pull: number;
  /** Seed of the sentence order. */
  seed: number;
  /** Sentences per teacher call when the targets are recomputed. */
  teacherBatch: number;
}

/** What the fine-tuning stage trains on, and how; part of the model recipe. */
export interface ContrastiveFinetuneRecipe extends ContrastiveRecipe {
  /** Labelled folders under the data root, in the bench format. */
  folders: string[];
  /** Unlabeled catalogue folder for weak pairs (name words → description). */
  catalogue: string;
  /** Weight of a catalogue pair against a labelled one. */
  catalogueWeight: number;
  /** BM25's best wrong tools kept per query as hard negatives. */
  hardNegatives: number;
}

/** The recipe: what the build makes, with which numbers. */
export interface ModelRecipe {
  /** Model id: the folder name. */
  name: string;
  /** Most frequent alphabetic words of the wink (GloVe) vocabulary to keep. */
  words: number;
  /** Output dimensions: the PCA width plus one constant guard dimension (see `bias`). */
  dims: number;
  /** Words used to fit the PCA. */
  pcaSample: number;
  /** SIF weight a / (a + p(word)), p from a Zipf law over the frequency rank. */
  sifA: number;
  /** Weight of the ##continuation pieces relative to a word of the rarest rank (they are noisier than words). */
  pieceWeight: number;
  /** Tokens per teacher call. */
  teacherBatch: number;
  /** Value of the guard dimension every token carries: keeps an all-unknown text off the zero vector. */
  bias: number;
  /** Longest input, in tokens. */
  maxLength: number;
  /**
   * Tokenlearn-style refit: the token rows are moved (SGD on 1 − cosine, pulled back towards the distilled
   * rows) so that a sentence's pooled vector points where the teacher's embedding of the whole sentence
   * points. Epochs and learning rate were chosen on the loss of 500 held-out corpus sentences.
   */
  tokenlearn: TokenlearnRecipe;
  /**
   * Contrastive fine-tuning on labelled query → tool pairs after the refit (contrastive-finetune-stage.ts);
   * no `folders`, no fine-tuning. Chosen on folders held out one at a time, never on MetaTool (MODEL.md).
   */
  contrastive: ContrastiveFinetuneRecipe;
}

/** The recipe of `switchboard-static-en-v1`. */
export const MODEL_RECIPE: Readonly<ModelRecipe> = Object.freeze({
  name: OFFLINE_MODEL_ID,
  words: 50000,
  dims: OFFLINE_MODEL_DIMS,
  pcaSample: 20000,
  sifA: 1e-3,
  pieceWeight: 0,
  teacherBatch: 1000,
  bias: 1e-4,
  maxLength: 8192,
  tokenlearn: Object.freeze({
    sentences: 27500,
    epochs: 3,
    learningRate: 0.2,
    pull: 0.01,
    seed: 7,
    teacherBatch: 50,
  }),
  contrastive: Object.freeze({
    folders: ['seal-tools', 'bfcl', 'apibench', 'stabletoolbench', 'toolalpaca'],
    catalogue: 'mcp-catalogue',
    catalogueWeight: 1.5,
    hardNegatives: 8,
    epochs: 2,
    batchSize: 64,
    learningRate: 0.002,
    temperature: 0.1,
    pull: 0,
    seed: 7,
  }),
});

/**
 * Words that carry no topic: their rows are zero, so they add nothing to a text's pooled vector (and the
 * refit leaves zero rows zero). The model's own list: the BM25 side of tool-selection drops a shorter one
 * (62 words, all but `us` and `using` also here), so a word such as `find` or `help` still counts there.
 */
export const MODEL_STOPWORDS: readonly string[] = Object.freeze(
  'a about above after again against all am an and any are as at be because been before being below between both but by can could did do does doing down during each few for from further had has have having he her here hers herself him himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other our ours ourselves out over own same she should so some such than that the their theirs them themselves then there these they this those through to too under until up very was we were what when where which while who whom why will with would you your yours yourself yourselves s t don let lets ll re ve d m also may might must shall want need like please help get find show give tell make use know'.split(
    ' ',
  ),
);

/**
 * The recipe with `overrides` (a JSON object of recipe fields, as in `SWITCHBOARD_MODEL_RECIPE`) applied
 * on top: for experiments only; the overrides change the cache key like any recipe change. Fields are
 * replaced whole (`{"tokenlearn": {...}}` replaces all of `tokenlearn`).
 */
export function resolveRecipe(overrides?: string): ModelRecipe {
  const recipe: ModelRecipe = {
    ...MODEL_RECIPE,
    tokenlearn: { ...MODEL_RECIPE.tokenlearn },
    contrastive: { ...MODEL_RECIPE.contrastive, folders: [...MODEL_RECIPE.contrastive.folders] },
  };
  if (!overrides) return recipe;
  let parsed: unknown;
  try {
    parsed = JSON.parse(overrides);
  } catch (error) {
    throw new Error(
      `SWITCHBOARD_MODEL_RECIPE is not JSON (${(error as Error).message}): give an object of recipe fields, e.g. '{"dims":128}'.`,
    );
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error(`SWITCHBOARD_MODEL_RECIPE must be a JSON object of recipe fields, got ${overrides}.`);
  }
  for (const key of Object.keys(parsed)) {
    if (!(key in recipe)) {
      throw new Error(
        `SWITCHBOARD_MODEL_RECIPE names "${key}", which is no recipe field (${Object.keys(recipe).join(', ')}).`,
      );
    }
  }
  return Object.assign(recipe, parsed);
}
