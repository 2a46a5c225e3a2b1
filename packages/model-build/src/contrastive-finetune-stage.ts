/**
 * The fine-tuning step of the model build: contrastive training of the token rows on the labelled
 * tool-retrieval folders (query → tool) and on weak pairs of the unlabeled MCP catalogue, between the
 * Tokenlearn refit and the quantisation. The data lives outside the repository (../shared/bench/train,
 * its README gives sources and licences); build-info records the SHA-256 of every file read.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StaticRows } from './contrastive-finetune.js';
import { fineTuneContrastive } from './contrastive-finetune.js';
import type { ContrastiveFinetuneRecipe } from './model-recipe.js';
import type { TokenRowStage } from './token-rows.js';
import { readTrainingFolder } from './training-folder.js';
import type { TrainingSet } from './training-pairs.js';
import { addCataloguePairs, addLabelledPairs } from './training-pairs.js';

/** `../shared/bench/train` beside the repository: where the public training data is kept. */
export const defaultTrainingDataRoot: string = fileURLToPath(
  new URL('../../../../shared/bench/train/', import.meta.url),
);

/** A recipe folder is a name under the data root, or an absolute path (the leave-one-out bench's splits). */
function folderPath(dataRoot: string, folder: string): string {
  return isAbsolute(folder) ? folder : resolve(dataRoot, folder);
}

/** Options of {@link createContrastiveFinetuneStage}. */
export interface ContrastiveFinetuneStageOptions {
  recipe: ContrastiveFinetuneRecipe;
  /** Folder holding the training folders (`../shared/bench/train` from the repository root). */
  dataRoot: string;
  /** Words whose rows stay zero (the model's stopwords). */
  stopwords: readonly string[];
}

/** SHA-256 of every data file the stage reads, by relative path: what the cache key and build-info record. */
export function trainingDataHashes(
  dataRoot: string,
  recipe: ContrastiveFinetuneRecipe,
): Record<string, string> {
  const hashes: Record<string, string> = {};
  for (const folder of [...recipe.folders, recipe.catalogue]) {
    for (const file of ['tools.jsonl', 'queries.jsonl']) {
      const path = join(folderPath(dataRoot, folder), file);
      if (!existsSync(path)) {
        if (folder === recipe.catalogue && file === 'queries.jsonl') continue;
        throw new Error(
          `The fine-tuning data is missing ${path}: the model build reads ../shared/bench/train (pass --data <dir> to read another copy).`,
        );
      }
      hashes[`${folder}/${file}`] = createHash('sha256').update(readFileSync(path)).digest('hex');
    }
  }
  return hashes;
}

/** The stage: pairs from the folders, encoded with the model's own tokenizer, then {@link fineTuneContrastive}. */
export function createContrastiveFinetuneStage(options: ContrastiveFinetuneStageOptions): TokenRowStage {
  const { recipe, dataRoot } = options;
  return {
    name: 'contrastive-finetune',
    run(rows, context) {
      const encode = (text: string) => Int32Array.from(context.tokenizer.encode(text));
      const set: TrainingSet = { documents: [], pairs: [] };
      for (const folder of recipe.folders)
        addLabelledPairs(set, readTrainingFolder(folderPath(dataRoot, folder)), encode, recipe.hardNegatives);
      const labelled = set.pairs.length;
      addCataloguePairs(
        set,
        readTrainingFolder(folderPath(dataRoot, recipe.catalogue), { labelled: false }),
        encode,
        recipe.catalogueWeight,
      );
      context.log(
        `contrastive fine-tuning: ${labelled} labelled pairs from ${recipe.folders.join(', ')}, ${set.pairs.length - labelled} weak pairs from ${recipe.catalogue}`,
      );
      const model: StaticRows = {
        rows: rows.data,
        dims: rows.dims,
        // The graph adds the bias at every position: training pools the way run time does.
        bias: Float32Array.from({ length: rows.dims }, (_, j) =>
          j === rows.dims - 1 ? context.recipe.bias : 0,
        ),
        trainable: trainableRows(rows.count, context.tokenizer.vocabulary, options.stopwords),
        guardDimension: true,
      };
      fineTuneContrastive(model, set.documents, set.pairs, recipe, (epoch, loss) =>
        context.log(`contrastive fine-tuning epoch ${epoch}: loss ${loss.toFixed(4)}`),
      );
      return rows;
    },
  };
}

/**
 * Which rows may move: every token but the special ones (ids 0–2) and the stopwords, whose zero rows
 * keep them out of every pooled vector. Continuation pieces start at zero and may learn.
 */
function trainableRows(
  count: number,
  vocabulary: Readonly<Record<string, number>>,
  stopwords: readonly string[],
): Uint8Array {
  const trainable = new Uint8Array(count).fill(1);
  for (let id = 0; id < Math.min(3, count); id++) trainable[id] = 0;
  for (const word of stopwords) {
    const id = vocabulary[word];
    if (id !== undefined) trainable[id] = 0;
  }
  return trainable;
}
