/**
 * The embedder and vector index of the commands that rank tools (`select`, `doctor`, `serve --select`).
 *
 * - By default, the offline model tool selection ships, in its exact index: the same rankings with
 *   and without a network, nothing downloaded, nothing compiled.
 * - `SWITCHBOARD_EMBEDDING_MODEL` names a transformers.js model (a hub id) instead: downloaded into the
 *   model cache when it is not there yet, within `SWITCHBOARD_EMBEDDING_TIMEOUT_MS` (60 s by default).
 *   It needs `@huggingface/transformers` installed beside the CLI; when it cannot load, a warning says
 *   why and what to do, and the offline model ranks.
 * - `SWITCHBOARD_OFFLINE=1`: no network for any model (a named one must be in the cache).
 * - `SWITCHBOARD_VECTOR_INDEX=hnsw`: the HNSW index on `hnswlib-node` (installed beside the CLI; the
 *   exact index stands in, with a warning, where it is not).
 *
 * The model cache is `~/.switchboard/models` (or `SWITCHBOARD_MODEL_CACHE`): beside the CLI's other
 * state, and writable where a global install's own folder is not.
 */
import { join } from 'node:path';
import type { Logger } from '@switchboard/core';
import {
  createOfflineEmbedder,
  createTransformersEmbedder,
  type SelectorIndexOption,
  type TransformersEmbedder,
} from '@switchboard/tool-selection';
import type { CommandContext } from './cli-command.js';
import { UsageError } from './cli-error.js';
import { homeOf } from './cli-home.js';

/** The variable that names a hub model to rank with (and so to download). */
export const embeddingModelVariable = 'SWITCHBOARD_EMBEDDING_MODEL';

/** The variable that bounds a named model's load, in milliseconds. */
export const embeddingTimeoutVariable = 'SWITCHBOARD_EMBEDDING_TIMEOUT_MS';

/** The variable that picks the vector index: `exact` (the default) or `hnsw`. */
export const vectorIndexVariable = 'SWITCHBOARD_VECTOR_INDEX';

/** Where downloaded models are kept. */
export function modelCacheOf(context: CommandContext): string {
  return context.io.env.SWITCHBOARD_MODEL_CACHE ?? join(homeOf(context), '.switchboard', 'models');
}

function loadTimeoutOf(context: CommandContext): number | undefined {
  const value = context.io.env[embeddingTimeoutVariable];
  if (value === undefined || value === '') return undefined;
  const timeout = Number(value);
  if (!Number.isInteger(timeout) || timeout <= 0) {
    throw new UsageError(
      `${embeddingTimeoutVariable} must be a whole number of milliseconds above 0, not "${value}".`,
    );
  }
  return timeout;
}

/** The embedder of a command run. */
export function cliEmbedder(context: CommandContext, logger: Logger): TransformersEmbedder {
  const configured = context.io.env[embeddingModelVariable];
  if (configured === undefined || configured === '') return createOfflineEmbedder();
  const loadTimeoutMs = loadTimeoutOf(context);
  // The default fallback (the offline model) keeps ranking when the named model cannot load; its
  // warning says what failed and what to install or set.
  return createTransformersEmbedder({
    model: configured,
    cacheDir: modelCacheOf(context),
    logger,
    ...(context.io.env.SWITCHBOARD_OFFLINE === '1' ? { allowRemote: false } : {}),
    ...(loadTimeoutMs === undefined ? {} : { loadTimeoutMs }),
  });
}

/** The vector index of a command run (`undefined`: the selector's default, the exact index). */
export function cliVectorIndex(context: CommandContext): SelectorIndexOption | undefined {
  const value = context.io.env[vectorIndexVariable];
  if (value === undefined || value === '' || value === 'exact') return undefined;
  if (value === 'hnsw') return { kind: 'hnsw' };
  throw new UsageError(`${vectorIndexVariable} must be exact or hnsw, not "${value}".`);
}
