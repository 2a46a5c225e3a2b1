/**
 * The embedder of the commands that rank tools (`select`, `doctor`, `serve --select`).
 *
 * - `SWITCHBOARD_EMBEDDING_MODEL` names a transformers.js model: that one, downloaded from the
 *   model hub into the model cache when it is not there yet (a warning, and the offline model,
 *   when it cannot be).
 * - Otherwise the default model, from the model cache only: when it is not there, the offline
 *   model this package ships is used at once, without a network attempt — where the hub is
 *   unreachable, each attempt cost a "fetch failed" warning on every command, and could take as
 *   long as the DNS resolver does to fail. A hint says once how to fetch the default model.
 * - `SWITCHBOARD_OFFLINE=1`: no network for any model.
 *
 * The model cache is `~/.switchboard/models` (or `SWITCHBOARD_MODEL_CACHE`): beside the CLI's other
 * state, and writable where a global install's own folder is not.
 */
import { join } from 'node:path';
import type { Logger } from '@switchboard/core';
import {
  createTransformersEmbedder,
  type EmbedderInfo,
  type EmbedOptions,
  type TransformersEmbedder,
} from '@switchboard/tool-selection';
import type { CommandContext } from './cli-command.js';
import { homeOf } from './cli-home.js';
import { showHintOnce } from './cli-notices.js';

/** The model a command ranks with when none is configured (tool selection's default). */
export const defaultEmbeddingModel = 'Xenova/all-MiniLM-L6-v2';

/** The variable that names the model to use (and so to download). */
export const embeddingModelVariable = 'SWITCHBOARD_EMBEDDING_MODEL';

/** The key under which the hint of {@link cliEmbedder} is remembered as shown. */
export const embeddingModelHint = 'embedding-model';

/** Where downloaded models are kept. */
export function modelCacheOf(context: CommandContext): string {
  return context.io.env.SWITCHBOARD_MODEL_CACHE ?? join(homeOf(context), '.switchboard', 'models');
}

/** The embedder of a command run. */
export function cliEmbedder(context: CommandContext, logger: Logger): TransformersEmbedder {
  const offline = context.io.env.SWITCHBOARD_OFFLINE === '1';
  const configured = context.io.env[embeddingModelVariable];
  const cacheDir = modelCacheOf(context);
  if (configured !== undefined && configured !== '') {
    return createTransformersEmbedder({
      model: configured,
      cacheDir,
      logger,
      ...(offline ? { allowRemote: false } : {}),
    });
  }
  const embedder = createTransformersEmbedder({
    model: defaultEmbeddingModel,
    cacheDir,
    allowRemote: false,
    // Not being in the cache is the expected case, not a problem: the hint below says what to do.
    logger: demoteWarnings(logger),
  });
  if (offline) return embedder;
  return withHintOnFallback(embedder, (info) => {
    showHintOnce(
      context,
      embeddingModelHint,
      `ranking with the offline model ${info.modelId}: ${defaultEmbeddingModel} is not in ${cacheDir} and is not downloaded unasked. To download it once: ${embeddingModelVariable}=${defaultEmbeddingModel} switchboard doctor (any transformers.js model id works). Shown once.`,
    );
  });
}

/** `logger` with its warnings written as debug lines. */
function demoteWarnings(logger: Logger): Logger {
  type Args = Parameters<Logger['debug']>;
  return {
    debug: (...args: Args) => logger.debug(...args),
    info: (...args: Args) => logger.info(...args),
    warn: (...args: Args) => logger.debug(...args),
    error: (...args: Args) => logger.error(...args),
  } as Logger;
}

/** `embedder`, calling `onFallback` once when its first load fell back from the requested model. */
function withHintOnFallback(
  embedder: TransformersEmbedder,
  onFallback: (info: EmbedderInfo) => void,
): TransformersEmbedder {
  let told = false;
  const load = async (): Promise<EmbedderInfo> => {
    const info = await embedder.load();
    if (!told && info.fallbackReason !== undefined) onFallback(info);
    told = true;
    return info;
  };
  return {
    specificationVersion: 'v1',
    get modelId() {
      return embedder.modelId;
    },
    get dimensions() {
      return embedder.dimensions;
    },
    load,
    async embed(texts: readonly string[], options?: EmbedOptions) {
      await load();
      return embedder.embed(texts, options);
    },
    info: () => embedder.info(),
    close: async () => embedder.close?.(),
  };
}
