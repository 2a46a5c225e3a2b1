/** A transformers.js embedder on the tiny fixture model, built into a temporary folder. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TransformersEmbedderOptions } from '../../src/index.js';
import { createTransformersEmbedder } from '../../src/index.js';
import { buildFixtureModel } from '../fixtures/static-model.js';

/** Builds the fixture model; `cleanup()` removes it. */
export function createFixtureModel(): { root: string; modelId: string; cleanup: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'tool-selection-model-'));
  const modelId = buildFixtureModel(root);
  return { root, modelId, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** An embedder loading the fixture model from `root`, never the network. */
export function createFixtureEmbedder(
  model: { root: string; modelId: string },
  options: TransformersEmbedderOptions = {},
) {
  return createTransformersEmbedder({
    model: model.modelId,
    localModelPath: model.root,
    allowRemote: false,
    quantized: false,
    fallback: false,
    ...options,
  });
}
