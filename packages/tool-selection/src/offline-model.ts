/**
 * Where the offline default embedding model lives once `pnpm run build:model` (or `build`) has made it.
 * See MODEL.md: a static English model distilled from the Universal Sentence Encoder lite, loaded by
 * @xenova/transformers with remote models disabled.
 */
import { fileURLToPath } from 'node:url';

/** Model id, i.e. the folder name under {@link OFFLINE_MODELS_DIR}. */
export const OFFLINE_MODEL_ID = 'switchboard-static-en-v1';

/** Folder to use as transformers.js `env.localModelPath` (packages/tool-selection/models/, with a trailing slash). */
export const OFFLINE_MODELS_DIR: string = fileURLToPath(new URL('../models/', import.meta.url));

/** Output width of the model (255 distilled dimensions + 1 constant guard dimension). */
export const OFFLINE_MODEL_DIMS = 256;
