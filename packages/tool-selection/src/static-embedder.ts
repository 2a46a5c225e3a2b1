/**
 * An {@link Embedder} for a static embedding model (the offline default): the model's own
 * `tokenizer.json` run by `@huggingface/tokenizers` (pure JavaScript, the tokenizers of transformers.js
 * without its ONNX runtime), then mean pooling of the model's int8 rows in plain JavaScript
 * (`static-embedding-model.ts`). Same vectors as running the ONNX graph through
 * `createTransformersEmbedder` (a test checks it on the real model), with no padding: every text
 * costs its own tokens only, whatever else is in the batch. Nothing here needs onnxruntime, sharp or
 * the network.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SwitchboardError } from '@switchboard/core';
import type { EmbedderInfo, EmbedOptions, TransformersEmbedder } from './embedder.js';
import { errorReason } from './error-reason.js';
import { OFFLINE_MODEL_FILES } from './offline-model-layout.js';
import { createRetryingLoad } from './retrying-load.js';
import type { StaticEmbeddingWeights } from './static-embedding-model.js';
import { poolStaticEmbedding, readStaticEmbeddingWeights } from './static-embedding-model.js';
import { ToolSelectionErrorCode } from './tool-selection-error-code.js';
import { normalizeInPlace } from './vector.js';
import type { TokenizerJsonLike } from './word-piece-kinds.js';
import { hasKnownWord, wordPieceKinds, wordPieceVocabulary } from './word-piece-kinds.js';

/** Options of {@link createStaticEmbedder}. */
export interface StaticEmbedderOptions {
  /** Folder holding `tokenizer.json`, `tokenizer_config.json` and `onnx/<onnxFile>`. */
  modelFolder: string;
  /** Reported model id (the persisted index's key). */
  modelId: string;
  /** ONNX file under `onnx/` whose initialisers hold the weights. @default 'model_quantized.onnx' */
  onnxFile?: string;
  /** Texts pooled between two checks of the abort signal (and turns of the event loop). @default 64 */
  batchSize?: number;
  /** A pooled vector shorter than this is returned as zeros (see `createTransformersEmbedder`). @default 1e-3 */
  minimumNorm?: number;
}

/** The parts of an `@huggingface/tokenizers` tokenizer this embedder calls. */
interface Tokenizer {
  encode(text: string): { ids: number[] };
  /** Its model; `vocab` is token text by id. */
  model: { vocab: string[] } | null;
}

interface Loaded {
  tokenizer: Tokenizer;
  maxTokens: number;
  weights: StaticEmbeddingWeights;
  wordKinds: Uint8Array | undefined;
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch (error) {
    throw new SwitchboardError({
      code: ToolSelectionErrorCode.EmbedderUnavailable,
      message: `${file} could not be read: ${errorReason(error)}: the folder is not a whole model (the offline one ships with the package; in the repository, restore it with \`git checkout\` or rebuild it with \`pnpm build:model\`).`,
      context: { file },
      cause: error,
    });
  }
}

/**
 * The tokenizer of the folder, from its `tokenizer.json` and `tokenizer_config.json`: the same ids as
 * transformers.js' `BertTokenizer` (checked on the 217,547 texts of the bench sets; model-build trains
 * with this tokenizer too). Imported on first load, so that importing this package stays cheap.
 */
async function loadTokenizer(
  modelFolder: string,
): Promise<{ tokenizer: Tokenizer; tokenizerJson: TokenizerJsonLike; maxTokens: number }> {
  const tokenizerJson = readJson(join(modelFolder, OFFLINE_MODEL_FILES.tokenizer)) as TokenizerJsonLike;
  const tokenizerConfig = readJson(join(modelFolder, OFFLINE_MODEL_FILES.tokenizerConfig)) as {
    model_max_length?: number;
  };
  const { Tokenizer } = await import('@huggingface/tokenizers');
  const tokenizer = new Tokenizer(tokenizerJson, tokenizerConfig);
  // transformers.js truncates to model_max_length when asked to (`truncation: true`); so do we.
  const maxTokens = tokenizerConfig.model_max_length ?? Number.POSITIVE_INFINITY;
  return { tokenizer, tokenizerJson, maxTokens };
}

/** Creates an embedder on a static model's folder; it loads on first use (or `load()`). */
export function createStaticEmbedder(options: StaticEmbedderOptions): TransformersEmbedder {
  const { modelFolder, modelId } = options;
  const onnxFile = join(modelFolder, 'onnx', options.onnxFile ?? 'model_quantized.onnx');
  const batchSize = Math.max(1, options.batchSize ?? 64);
  const minimumNorm = options.minimumNorm ?? 1e-3;
  let loaded: Loaded | undefined;
  let active: EmbedderInfo | undefined;

  async function doLoad(): Promise<EmbedderInfo> {
    if (!existsSync(onnxFile)) {
      throw new SwitchboardError({
        code: ToolSelectionErrorCode.EmbedderUnavailable,
        message: `Static embedding model "${modelId}" is not there: ${onnxFile} is missing (the offline model ships with the package; in the repository, restore it with \`git checkout\` or rebuild it with \`pnpm build:model\`).`,
        context: { model: modelId, file: onnxFile },
      });
    }
    const weights = readStaticEmbeddingWeights(onnxFile);
    const { tokenizer, tokenizerJson, maxTokens } = await loadTokenizer(modelFolder);
    const vocabulary = wordPieceVocabulary(tokenizerJson, tokenizer.model?.vocab);
    loaded = { tokenizer, maxTokens, weights, wordKinds: vocabulary && wordPieceKinds(vocabulary) };
    active = { modelId, dimensions: weights.dimensions, requestedModelId: modelId };
    return active;
  }

  const load = createRetryingLoad(doLoad);

  function embedOne(model: Loaded, text: string, scratch: Float64Array): Float32Array {
    const vector = new Float32Array(model.weights.dimensions);
    let ids = model.tokenizer.encode(text).ids;
    if (ids.length > model.maxTokens) ids = ids.slice(0, model.maxTokens);
    if (model.wordKinds && !hasKnownWord(ids, 0, ids.length, model.wordKinds)) return vector;
    if (!poolStaticEmbedding(model.weights, ids, vector, scratch)) return vector;
    return normalizeInPlace(vector, minimumNorm);
  }

  async function embed(texts: readonly string[], embedOptions: EmbedOptions = {}): Promise<Float32Array[]> {
    await load();
    embedOptions.signal?.throwIfAborted();
    const model = loaded as Loaded;
    const scratch = new Float64Array(model.weights.dimensions);
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += batchSize) {
      // Pooling is synchronous: between batches, let other work (requests, timers) run.
      if (start > 0) await new Promise((resolve) => setImmediate(resolve));
      embedOptions.signal?.throwIfAborted();
      const end = Math.min(texts.length, start + batchSize);
      for (let index = start; index < end; index++)
        vectors.push(embedOne(model, texts[index] as string, scratch));
    }
    return vectors;
  }

  return {
    specificationVersion: 'v1',
    modelId,
    get dimensions() {
      return active?.dimensions ?? 0;
    },
    load: () => load(),
    embed,
    info: () => active,
    async close() {
      loaded = undefined;
      active = undefined;
      load.reset();
    },
  };
}
