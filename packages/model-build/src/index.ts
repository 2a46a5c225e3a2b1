/**
 * Public API of @switchboard/model-build (private, never published): the model build and its stages, for
 * the CLI, the tests and stages added later. Named exports only.
 */

export type { ModelBuildInfo } from './build-info.js';
export { MODEL_INPUT_PACKAGES, modelBuildInfo, modelCacheKey } from './build-info.js';
export type { BuildLog } from './build-log.js';
export { createBuildLog } from './build-log.js';
export type { BuildModelOptions, BuildModelResult } from './build-model.js';
export { buildModel, runTokenRowStages } from './build-model.js';
export type { ContrastiveRecipe, StaticRows, TrainingPair } from './contrastive-finetune.js';
export { fineTuneContrastive } from './contrastive-finetune.js';
export type { ContrastiveFinetuneStageOptions } from './contrastive-finetune-stage.js';
export {
  createContrastiveFinetuneStage,
  defaultTrainingDataRoot,
  trainingDataHashes,
} from './contrastive-finetune-stage.js';
export type { ContrastiveFinetuneRecipe, ModelRecipe, TokenlearnRecipe } from './model-recipe.js';
export { MODEL_RECIPE, MODEL_STOPWORDS, resolveRecipe } from './model-recipe.js';
export { writeStaticEmbeddingOnnx } from './onnx-writer.js';
export type { PcaProjection, SymmetricEigen } from './pca.js';
export { applyProjection, fitPca, symmetricEigen } from './pca.js';
export type { QuantizedRows } from './quantize.js';
export { dequantizeRow, quantizeRows } from './quantize.js';
export { createSeededRandom, loadRefitCorpus, shuffleInPlace } from './refit-corpus.js';
export type { SifSettings } from './sif-weights.js';
export { SPECIAL_TOKEN_COUNT, sifWeights, weightedTokenRows } from './sif-weights.js';
export type { TeacherVectorsOptions } from './teacher-vectors.js';
export { embedWithTeacher } from './teacher-vectors.js';
export type { TokenRowContext, TokenRowStage, TokenRows } from './token-rows.js';
export { checkTokenRows, createTokenRows } from './token-rows.js';
export type { ModelTokenizer, TokenVocabulary } from './tokenizer-writer.js';
export {
  createModelTokenizer,
  modelConfig,
  tokenizerConfig,
  tokenizerJson,
  tokenVocabulary,
} from './tokenizer-writer.js';
export type { TokenlearnLosses, TokenlearnSettings } from './tokenlearn-refit.js';
export { createTokenlearnRefitStage, tokenlearn } from './tokenlearn-refit.js';
export type { TokenlearnTargets, TokenlearnTargetsOptions } from './tokenlearn-targets.js';
export { readTokenlearnTargets } from './tokenlearn-targets.js';
export type { FolderQuery, FolderTool, TrainingFolder } from './training-folder.js';
export { readTrainingFolder } from './training-folder.js';
export type { Encode, TrainingSet } from './training-pairs.js';
export { addCataloguePairs, addLabelledPairs } from './training-pairs.js';
export type { Vocabulary } from './vocabulary.js';
export { loadVocabulary, vocabularyTexts } from './vocabulary.js';
