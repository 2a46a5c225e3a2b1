/**
 * An {@link Embedder} on transformers.js (`@huggingface/transformers`, an optional peer dependency):
 * a hub or local ONNX model, feature extraction, mean pooling, L2 normalisation. Opt-in by name —
 * the default embedder everywhere is the offline model (`createOfflineEmbedder`), which needs none of
 * this. A load is bounded (`loadTimeoutMs`); when the model cannot load (the package missing, no
 * network, a bogus id, the time up) it falls back to the offline model by default and says why in one
 * log line and in `info().fallbackReason` / `fallbackCode`, or, with `fallback: false`, fails with a
 * `SwitchboardError` that names the model, what failed and what to do.
 */
import type { Logger } from '@switchboard/core';
import { SwitchboardError, silentLogger } from '@switchboard/core';
import type { Embedder, EmbedderInfo, EmbedOptions, LocalModel, TransformersEmbedder } from './embedder.js';
import { errorReason } from './error-reason.js';
import { createOfflineEmbedder, offlineDefaultModel } from './offline-embedder.js';
import { importOptional } from './optional-dependency.js';
import { createRetryingLoad } from './retrying-load.js';
import { ToolSelectionErrorCode } from './tool-selection-error-code.js';
import { normalizeInPlace } from './vector.js';
import type { TokenizerJsonLike } from './word-piece-kinds.js';
import { hasKnownWord, wordPieceKinds, wordPieceVocabulary } from './word-piece-kinds.js';

/** Options of {@link createTransformersEmbedder}. */
export interface TransformersEmbedderOptions {
  /**
   * Hub id (e.g. `Xenova/all-MiniLM-L6-v2`) or local folder name of the model. Required: a hub model
   * is opt-in by name; without one, use `createOfflineEmbedder()`.
   */
  model: string;
  /** Load the quantised ONNX file (`onnx/model_quantized.onnx`, dtype `q8`). @default true */
  quantized?: boolean;
  /** Where downloaded models are cached. @default transformers.js' own cache folder */
  cacheDir?: string;
  /** Folder searched first for `<model>/` (config.json, tokenizer.json, onnx/). @default transformers.js' default */
  localModelPath?: string;
  /** Allow downloads from the model hub. @default true */
  allowRemote?: boolean;
  /** The hub (or a mirror) models are downloaded from. @default transformers.js' own, https://huggingface.co/ */
  remoteHost?: string;
  /**
   * How long a load may take — importing transformers.js, downloading the model, creating its
   * session — before it is given up with `EMBEDDER_TIMEOUT` (downloads in flight are aborted).
   * @default 60000
   */
  loadTimeoutMs?: number;
  /**
   * What to use when the model cannot load: a local model, another embedder, or `false` to fail.
   * @default the offline default model shipped with this package (`createOfflineEmbedder()`)
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

/** Default of {@link TransformersEmbedderOptions.loadTimeoutMs}. */
const DEFAULT_LOAD_TIMEOUT_MS = 60_000;

/** What the install of the optional package needs, for its error message. */
const TRANSFORMERS_PACKAGE = {
  name: '@huggingface/transformers',
  range: '^4.3.1',
  installNote:
    'its onnxruntime-node downloads CUDA files from api.nuget.org at install; where that cannot be reached, install with ONNXRUNTIME_NODE_INSTALL=skip: the CPU runtime ships in the package',
  alternative:
    'Or rank with the offline model this package ships, which needs neither: createOfflineEmbedder() (the default of createToolSelector).',
};

interface TensorLike {
  data: ArrayLike<number | bigint>;
  dims: number[];
}

/** The parts of a transformers.js feature-extraction pipeline this embedder drives directly. */
interface Extractor {
  tokenizer: ((
    texts: string[],
    options: { padding: boolean; truncation: boolean },
  ) => Record<string, TensorLike>) & {
    /** The parsed tokenizer.json (transformers.js 4 keeps it); read for the word-kinds rule only. */
    _tokenizerJSON?: TokenizerJsonLike;
  };
  model: (inputs: Record<string, TensorLike>) => Promise<Record<string, TensorLike | undefined>>;
  dispose?: () => Promise<unknown>;
}

/** The parts of `@huggingface/transformers` used here. */
interface TransformersModule {
  env: {
    localModelPath: string;
    allowRemoteModels: boolean;
    allowLocalModels: boolean;
    cacheDir: string | null;
    remoteHost: string;
    fetch: (input: string | URL, init?: RequestInit) => Promise<unknown>;
  };
  pipeline: (task: 'feature-extraction', model: string, options: { dtype: string }) => Promise<unknown>;
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

interface PipelineSettings {
  model: string;
  quantized: boolean;
  localModelPath?: string;
  allowRemote: boolean;
  cacheDir?: string;
  remoteHost?: string;
}

interface LoadedPipeline {
  extractor: Extractor;
  dimensions: number;
  wordKinds: Uint8Array | undefined;
}

// transformers.js reads its settings (local folder, remote access, cache, fetch) from one global `env`:
// loads are serialised so that two embedders with different settings never see each other's.
let loadQueue: Promise<unknown> = Promise.resolve();

/** Loads a pipeline under `settings`; `signal` aborts its downloads. */
function loadPipeline(settings: PipelineSettings, signal: AbortSignal): Promise<LoadedPipeline> {
  const run = async (): Promise<LoadedPipeline> => {
    signal.throwIfAborted();
    const transformers = (await importOptional(
      { ...TRANSFORMERS_PACKAGE, neededBy: `Embedding model "${settings.model}"` },
      () => import('@huggingface/transformers'),
    )) as unknown as TransformersModule;
    const { env } = transformers;
    const saved = {
      localModelPath: env.localModelPath,
      allowRemoteModels: env.allowRemoteModels,
      allowLocalModels: env.allowLocalModels,
      cacheDir: env.cacheDir,
      remoteHost: env.remoteHost,
      fetch: env.fetch,
    };
    try {
      if (settings.localModelPath !== undefined)
        env.localModelPath = ensureTrailingSlash(settings.localModelPath);
      env.allowRemoteModels = settings.allowRemote;
      env.allowLocalModels = true;
      if (settings.cacheDir !== undefined) env.cacheDir = settings.cacheDir;
      if (settings.remoteHost !== undefined) env.remoteHost = ensureTrailingSlash(settings.remoteHost);
      const fetchBefore = saved.fetch;
      // Downloads stop when the load is given up (its time is up), instead of running on unseen.
      env.fetch = (input, init) =>
        fetchBefore(input, {
          ...init,
          signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal,
        });
      const extractor = (await transformers.pipeline('feature-extraction', settings.model, {
        dtype: settings.quantized ? 'q8' : 'fp32',
      })) as Extractor;
      // One probe tells the width, whatever the model's config says.
      const { dimensions } = await runExtractor(extractor, ['probe']);
      if (!(dimensions > 0)) throw new Error(`model "${settings.model}" produced no embedding dimensions`);
      const tokenizerJson = extractor.tokenizer._tokenizerJSON;
      const vocabulary = tokenizerJson && wordPieceVocabulary(tokenizerJson);
      return { extractor, dimensions, wordKinds: vocabulary && wordPieceKinds(vocabulary) };
    } finally {
      Object.assign(env, saved);
    }
  };
  const result = loadQueue.then(run, run);
  loadQueue = result.catch(() => undefined);
  return result;
}

/**
 * `load` raced against `timeoutMs`: on time-out the controller aborts the load's downloads, the
 * returned promise rejects with `EMBEDDER_TIMEOUT`, and a pipeline that still arrives is disposed.
 */
function withinTime(
  model: string,
  timeoutMs: number,
  load: (signal: AbortSignal) => Promise<LoadedPipeline>,
  where: string,
): Promise<LoadedPipeline> {
  const controller = new AbortController();
  const loading = load(controller.signal);
  if (!Number.isFinite(timeoutMs)) return loading;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new SwitchboardError({
        code: ToolSelectionErrorCode.EmbedderTimeout,
        message: `Embedding model "${model}" did not load within ${timeoutMs} ms (loadTimeoutMs): ${where} took longer. Raise loadTimeoutMs, fetch the model once where the network is fast (it is cached), or use the offline model: createOfflineEmbedder().`,
        context: { model, timeoutMs },
      });
      controller.abort(error);
      reject(error);
    }, timeoutMs);
  });
  loading.then(
    (late) => {
      if (controller.signal.aborted) void late.extractor.dispose?.().catch(() => undefined);
    },
    () => undefined,
  );
  return Promise.race([loading, timeout]).finally(() => clearTimeout(timer));
}

function ensureTrailingSlash(path: string): string {
  return path.endsWith('/') ? path : `${path}/`;
}

/** The error of a failed model load: what failed and what to do, by where the model was looked for. */
function loadError(error: unknown, settings: PipelineSettings): SwitchboardError {
  if (SwitchboardError.isInstance(error)) return error;
  const { model, allowRemote } = settings;
  const local = settings.localModelPath ?? "transformers.js' local model folder";
  const cache = settings.cacheDir ?? "transformers.js' cache folder";
  const advice = allowRemote
    ? `It was looked for in ${local} and ${cache}, then fetched from ${settings.remoteHost ?? 'the Hugging Face hub'}: check the model id and the network (or give a mirror as remoteHost), or use the offline model: createOfflineEmbedder().`
    : `Downloads are off (allowRemote: false), and it is in neither ${local}/${model}/ nor ${cache}: put its files there, allow downloads, or use the offline model: createOfflineEmbedder().`;
  return new SwitchboardError({
    code: ToolSelectionErrorCode.EmbedderUnavailable,
    message: `Embedding model "${model}" could not be loaded: ${errorReason(error)}. ${advice}`,
    context: { model, allowRemote },
    cause: error,
  });
}

/**
 * Creates an embedder on transformers.js (`@huggingface/transformers`, installed beside this package);
 * the model loads on first use (or `load()`).
 */
export function createTransformersEmbedder(options: TransformersEmbedderOptions): TransformersEmbedder {
  const requestedModelId = options?.model;
  if (typeof requestedModelId !== 'string' || requestedModelId === '') {
    throw new SwitchboardError({
      code: ToolSelectionErrorCode.InvalidArgument,
      message:
        'createTransformersEmbedder: name the model ({ model: "Xenova/all-MiniLM-L6-v2" }, a hub id or a folder under localModelPath). For the offline model this package ships, use createOfflineEmbedder().',
      context: { received: typeof requestedModelId },
    });
  }
  const quantized = options.quantized ?? true;
  const allowRemote = options.allowRemote ?? true;
  const loadTimeoutMs = options.loadTimeoutMs ?? DEFAULT_LOAD_TIMEOUT_MS;
  const batchSize = Math.max(1, options.batchSize ?? 64);
  const minimumNorm = options.minimumNorm ?? 1e-3;
  const logger = options.logger ?? silentLogger;
  let backend: Backend | undefined;
  let active: EmbedderInfo | undefined;

  const settings: PipelineSettings = {
    model: requestedModelId,
    quantized,
    allowRemote,
    ...(options.localModelPath === undefined ? {} : { localModelPath: options.localModelPath }),
    ...(options.cacheDir === undefined ? {} : { cacheDir: options.cacheDir }),
    ...(options.remoteHost === undefined ? {} : { remoteHost: options.remoteHost }),
  };
  const where = allowRemote ? 'finding or downloading it and creating its session' : 'reading it from disk';

  async function loadFallback(failure: SwitchboardError): Promise<EmbedderInfo> {
    // The offline default runs without onnxruntime (static-embedder.ts): same vectors, less memory.
    const fallback =
      options.fallback === undefined
        ? offlineDefaultModel() && createOfflineEmbedder({ batchSize, minimumNorm })
        : options.fallback;
    if (fallback === false || fallback === undefined) {
      if (fallback === false) throw failure;
      throw new SwitchboardError({
        code: failure.code,
        message: `${failure.message} The offline model is missing from this copy of @switchboard/tool-selection too (it ships in models/; in the repository, restore it with \`git checkout\` or rebuild it with \`pnpm build:model\`).`,
        context: failure.context,
        cause: failure,
      });
    }
    const reason = failure.message;
    try {
      if ('embed' in fallback) {
        const info = fallback.load ? await fallback.load() : undefined;
        backend = { kind: 'embedder', embedder: fallback };
        active = {
          modelId: info?.modelId ?? fallback.modelId,
          dimensions: info?.dimensions ?? fallback.dimensions,
          requestedModelId,
          fallbackReason: reason,
          fallbackCode: failure.code,
        };
      } else {
        const local: PipelineSettings = {
          model: fallback.modelId,
          quantized: fallback.quantized ?? false,
          localModelPath: fallback.localModelPath,
          allowRemote: false,
          ...(options.cacheDir === undefined ? {} : { cacheDir: options.cacheDir }),
        };
        const loaded = await withinTime(
          fallback.modelId,
          loadTimeoutMs,
          (signal) => loadPipeline(local, signal),
          'reading it from disk',
        ).catch((error: unknown) => {
          throw loadError(error, local);
        });
        backend = { kind: 'pipeline', ...loaded };
        active = {
          modelId: fallback.modelId,
          dimensions: loaded.dimensions,
          requestedModelId,
          fallbackReason: reason,
          fallbackCode: failure.code,
        };
      }
    } catch (fallbackError) {
      throw new SwitchboardError({
        code: failure.code,
        message: `${reason} The fallback could not be loaded either: ${errorReason(fallbackError)}`,
        context: { model: requestedModelId, allowRemote },
        cause: fallbackError,
      });
    }
    logger.warn(`${reason} Using "${active.modelId}" (${active.dimensions} dimensions) instead.`);
    return active;
  }

  async function doLoad(): Promise<EmbedderInfo> {
    try {
      const loaded = await withinTime(
        requestedModelId,
        loadTimeoutMs,
        (signal) => loadPipeline(settings, signal),
        where,
      );
      backend = { kind: 'pipeline', ...loaded };
      active = { modelId: requestedModelId, dimensions: loaded.dimensions, requestedModelId };
      return active;
    } catch (error) {
      return loadFallback(loadError(error, settings));
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
      else if (backend?.kind === 'pipeline') await backend.extractor.dispose?.();
      backend = undefined;
      active = undefined;
      load.reset();
    },
  };
}
