/**
 * Where the offline default embedding model lives: the folder this package ships, committed in the
 * repository and checked against its `build-info.json` by the package build (MODEL.md). A static English
 * model distilled from the Universal Sentence Encoder lite, loaded by @xenova/transformers with remote
 * models disabled; its files are described by `offline-model-layout.ts`.
 */
import { fileURLToPath } from 'node:url';

/**
 * Folder to use as transformers.js `env.localModelPath` (packages/tool-selection/models/, with a trailing
 * slash); the model is its `OFFLINE_MODEL_ID` subfolder.
 */
export const OFFLINE_MODELS_DIR: string = fileURLToPath(new URL('../models/', import.meta.url));
