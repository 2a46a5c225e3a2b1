/** A transformers.js embedder on the tiny fixture model, built into a temporary folder. */
import { createTemporaryDirectory } from '@switchboard/test-helpers';
import type { TransformersEmbedderOptions } from '../../src/index.js';
import { createTransformersEmbedder } from '../../src/index.js';
import { buildFixtureModel } from '../fixtures/static-model.js';

/** Builds the fixture model; `cleanup()` removes it. */
export function createFixtureModel(): { root: string; modelId: string; cleanup: () => void } {
  const directory = createTemporaryDirectory('tool-selection-model-');
  const modelId = buildFixtureModel(directory.path);
  return { root: directory.path, modelId, cleanup: directory.remove };
}

/** An embedder loading the fixture model from `root`, never the network. */
export function createFixtureEmbedder(
  model: { root: string; modelId: string },
  options: Partial<TransformersEmbedderOptions> = {},
) {
  return createTransformersEmbedder({
    model: model.modelId,
    localModelPath: model.root,
    allowRemote: false,
    // The fixture's file has the offline model's name (onnx/model_quantized.onnx), float inside.
    quantized: true,
    fallback: false,
    ...options,
  });
}
