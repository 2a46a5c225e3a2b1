/** Public API of @switchboard/tool-selection. Any new export added here becomes public API: use named exports, not wildcards. */

export type { OfflineModelCheck, OfflineModelProblem } from './check-offline-model.js';
export { checkOfflineModel, digestBytes, digestOfflineModelFiles } from './check-offline-model.js';
export type {
  DiscoveredTool,
  DiscoverToolsResult,
  DiscoverToolsTool,
  DiscoverToolsToolOptions,
} from './discover-tools-tool.js';
export { createDiscoverToolsTool } from './discover-tools-tool.js';
export type { Embedder, EmbedderInfo, EmbedOptions, LocalModel, TransformersEmbedder } from './embedder.js';
export type { ExactIndexOptions } from './exact-index.js';
export { createExactIndex } from './exact-index.js';
export type { FusedHit, FusionOptions, FusionQuery, RankedHit } from './fuse-rankings.js';
export { defaultFusion, fuseRankings } from './fuse-rankings.js';
export type { HnswIndexOptions } from './hnsw-index.js';
export { createHnswIndex } from './hnsw-index.js';
export type { LexicalFieldWeights, LexicalHit, LexicalIndex, LexicalIndexOptions } from './lexical-index.js';
export { createLexicalIndex } from './lexical-index.js';
export type { OfflineEmbedderOptions } from './offline-embedder.js';
export { createOfflineEmbedder, offlineDefaultModel } from './offline-embedder.js';
export { OFFLINE_MODELS_DIR } from './offline-model.js';
export type {
  OfflineModelBuildInfo,
  OfflineModelFile,
  OfflineModelFileDigest,
  OfflineModelHashedFile,
} from './offline-model-layout.js';
export {
  OFFLINE_MODEL_DIMS,
  OFFLINE_MODEL_FILES,
  OFFLINE_MODEL_GUARD_DIMENSION,
  OFFLINE_MODEL_HASHED_FILES,
  OFFLINE_MODEL_ID,
  OFFLINE_MODEL_SPECIAL_TOKENS,
  OFFLINE_MODEL_TEACHER_DIMS,
  teacherProjectionLength,
} from './offline-model-layout.js';
export type {
  SelectorExactIndexOptions,
  SelectorHnswIndexOptions,
  SelectorIndexOption,
  VectorIndexFactory,
  VectorIndexInfo,
} from './selector-index.js';
export type { StaticEmbedderOptions } from './static-embedder.js';
export { createStaticEmbedder } from './static-embedder.js';
export type { TokenizeOptions } from './text-tokens.js';
export { tokenize } from './text-tokens.js';
export type { TokenEstimator, TokenEstimatorOptions, TokenUsage } from './token-estimator.js';
export { createTokenEstimator } from './token-estimator.js';
export type { ToolDocument, ToolDocumentSource } from './tool-document.js';
export { hashToolDocument, splitIdentifier, toEmbeddingText, toToolDocument } from './tool-document.js';
export { ToolSelectionErrorCode } from './tool-selection-error-code.js';
export type {
  ContextMessage,
  SelectedTool,
  SelectionSignals,
  SelectOptions,
  ToolSelector,
  ToolSelectorInfo,
  ToolSelectorOptions,
} from './tool-selector.js';
export { createToolSelector } from './tool-selector.js';
export type { TransformersEmbedderOptions } from './transformers-embedder.js';
export { createTransformersEmbedder } from './transformers-embedder.js';
export type { VectorHit, VectorIndex } from './vector-index.js';
