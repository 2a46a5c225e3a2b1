/**
 * The layout of an offline static model folder: what `@switchboard/model-build` writes, what the runtime
 * (`offline-model.ts`, `transformers-embedder.ts`, `teacher-documents.ts`) reads and what the test fixture
 * imitates. One description, so that a file renamed or a dimension changed is changed for all three.
 * The folder is what transformers.js loads with `env.allowRemoteModels = false`: `<models>/<id>/` holding
 * the files below (MODEL.md describes their content).
 */

/** Model id of the offline default model, i.e. its folder name under the models folder. */
export const OFFLINE_MODEL_ID = 'switchboard-static-en-v1';

/** Output width of the offline default model: 255 distilled dimensions + 1 constant guard dimension. */
export const OFFLINE_MODEL_DIMS = 256;

/**
 * Index of the guard dimension (the last one): every position carries a small constant there and no
 * token anything else, so a text of only unknown words or stopwords pools to that direction, not to zero.
 */
export const OFFLINE_MODEL_GUARD_DIMENSION = OFFLINE_MODEL_DIMS - 1;

/** Width of the teacher's (Universal Sentence Encoder lite) sentence vectors. */
export const OFFLINE_MODEL_TEACHER_DIMS = 512;

/**
 * The ids of the tokenizer's special tokens. Their rows are zero; `[CLS]` starts every text, so even an
 * empty text has one position (and so the guard dimension).
 */
export const OFFLINE_MODEL_SPECIAL_TOKENS = { '[PAD]': 0, '[UNK]': 1, '[CLS]': 2 } as const;

/** The files of a model folder, by role: paths relative to the folder, with `/`. */
export const OFFLINE_MODEL_FILES = {
  /** The WordPiece tokenizer (transformers.js / Hugging Face `tokenizers` JSON). */
  tokenizer: 'tokenizer.json',
  /** Tokenizer class and special tokens. */
  tokenizerConfig: 'tokenizer_config.json',
  /** `model_type: "bert"`, width and vocabulary size: what makes transformers.js pick its BERT classes. */
  config: 'config.json',
  /** The int8 embedding table and its graph; the name transformers.js loads for `quantized: true`. */
  onnx: 'onnx/model_quantized.onnx',
  /** float32 LE: the teacher centre [512], then the PCA axes [dims − 1][512] (`documents: 'teacher'`). */
  teacherProjection: 'teacher-projection.f32',
  /** Recipe, inputs and the SHA-256 of every other file: {@link OfflineModelBuildInfo}. */
  buildInfo: 'build-info.json',
} as const;

/** The path of one file of a model folder (a value of {@link OFFLINE_MODEL_FILES}). */
export type OfflineModelFile = (typeof OFFLINE_MODEL_FILES)[keyof typeof OFFLINE_MODEL_FILES];

/** The files `build-info.json` hashes: every file of the folder but itself. */
export type OfflineModelHashedFile = Exclude<OfflineModelFile, typeof OFFLINE_MODEL_FILES.buildInfo>;

/** The files `build-info.json` hashes, in a fixed order. */
export const OFFLINE_MODEL_HASHED_FILES: readonly OfflineModelHashedFile[] = [
  OFFLINE_MODEL_FILES.tokenizer,
  OFFLINE_MODEL_FILES.tokenizerConfig,
  OFFLINE_MODEL_FILES.config,
  OFFLINE_MODEL_FILES.onnx,
  OFFLINE_MODEL_FILES.teacherProjection,
];

/** Number of float32 values in `teacher-projection.f32` for a model of `dimensions` (centre + axes). */
export function teacherProjectionLength(dimensions: number = OFFLINE_MODEL_DIMS): number {
  return OFFLINE_MODEL_TEACHER_DIMS * dimensions;
}

/** Size and SHA-256 of one file of a model folder. */
export interface OfflineModelFileDigest {
  /** Lower-case hex SHA-256 of the file's bytes. */
  sha256: string;
  /** Its size in bytes. */
  bytes: number;
}

/**
 * `build-info.json`: what a model folder was built from, and the digest of each of its files, which the
 * package build checks (so that committed weights are never silently replaced or half-written).
 */
export interface OfflineModelBuildInfo {
  /**
   * Hash of the recipe, the model build's source and the versions of its inputs: a build whose key
   * matches the folder's is skipped.
   */
  cacheKey: string;
  /** The recipe the folder was built with; `name` is the model id. Its other fields are the build's. */
  recipe: { readonly name: string };
  /** Rows of the embedding table (vocabulary size, special tokens included). */
  tokens: number;
  /** Output width ({@link OFFLINE_MODEL_DIMS} for the default model). */
  dims: number;
  /** Size and SHA-256 of every file but `build-info.json`, by path relative to the folder. */
  files: Record<OfflineModelHashedFile, OfflineModelFileDigest>;
  /** The teacher, as `package@version (name, licence)`. */
  teacher: string;
  /** Where the word list came from. */
  vocabulary: string;
  /** The file and layout of the teacher projection. */
  teacherProjection: { file: string; layout: string };
  /** Where the refit sentences came from. */
  tokenlearnCorpus: string;
}
