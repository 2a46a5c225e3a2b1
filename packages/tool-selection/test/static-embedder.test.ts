import { join } from 'node:path';
import { SwitchboardError } from '@switchboard/core';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createOfflineEmbedder,
  createTransformersEmbedder,
  OFFLINE_MODEL_DIMS,
  OFFLINE_MODEL_FILES,
  OFFLINE_MODEL_ID,
  OFFLINE_MODELS_DIR,
  offlineDefaultModel,
} from '../src/index.js';
import { createStaticEmbedder } from '../src/static-embedder.js';
import { readStaticEmbeddingWeights } from '../src/static-embedding-model.js';
import { createFixtureModel } from './helpers/fixture-embedder.js';

const paragraph =
  'Create a new calendar event with a title, a start and an end time, invite the attendees by email, attach the agenda document and remind everyone ten minutes before it begins. ';

// Short and long, with accents, digits, punctuation, unknown words, stop words only and nothing:
// what queries and tool documents look like, and the edges of the zero-vector rule.
const texts = [
  'send an email',
  'list files in a directory',
  paragraph.repeat(12), // ~2,100 characters, ~450 tokens
  'Café résumé naïve: convert 25 °C to Fahrenheit',
  'get_weather_forecast: Returns the forecast for a city. city. days (1-14).',
  'qwxz vbnmt plokij',
  'the of and',
  '',
  'zzzz sum',
  paragraph.repeat(60), // ~11,000 characters: past nothing, but long
];

const maxDifference = (a: readonly Float32Array[], b: readonly Float32Array[]) => {
  let max = 0;
  a.forEach((vector, row) => {
    vector.forEach((value, dimension) => {
      max = Math.max(max, Math.abs(value - ((b[row] as Float32Array)[dimension] as number)));
    });
  });
  return max;
};

describe.skipIf(!offlineDefaultModel())(
  'createOfflineEmbedder (JavaScript pooling of the static model)',
  () => {
    const onnx = createTransformersEmbedder({
      model: OFFLINE_MODEL_ID,
      localModelPath: OFFLINE_MODELS_DIR,
      allowRemote: false,
      quantized: offlineDefaultModel()?.quantized ?? true,
      fallback: false,
    });
    afterAll(() => onnx.close?.());

    it('gives the vectors of the ONNX graph run by onnxruntime (within 1e-5), zeros where it gives zeros', async () => {
      const embedder = createOfflineEmbedder();
      expect(await embedder.load()).toEqual({
        modelId: OFFLINE_MODEL_ID,
        dimensions: OFFLINE_MODEL_DIMS,
        requestedModelId: OFFLINE_MODEL_ID,
      });
      const pooled = await embedder.embed(texts);
      const reference = await onnx.embed(texts);
      expect(pooled).toHaveLength(texts.length);
      expect(maxDifference(pooled, reference)).toBeLessThan(1e-5);
      const zeros = (vectors: Float32Array[]) =>
        vectors.map((vector) => vector.every((value) => value === 0));
      expect(zeros(pooled)).toEqual(zeros(reference));
      expect(zeros(pooled)).toEqual([false, false, false, false, false, true, true, true, false, false]);
    });

    it('embeds long and short texts in one batch exactly as one at a time (no padding)', async () => {
      const embedder = createOfflineEmbedder({ batchSize: 3 });
      const batched = await embedder.embed(texts);
      const single = await Promise.all(texts.map(async (text) => (await embedder.embed([text]))[0]));
      expect(batched).toEqual(single);
    });

    it('truncates to the tokenizer’s model_max_length, as the ONNX path does', async () => {
      const embedder = createOfflineEmbedder();
      // "[CLS]" + 8,191 words is 8,192 tokens, the model's maximum: more words change nothing.
      const [atLimit, pastLimit, shorter] = await embedder.embed([
        'read '.repeat(8191),
        `${'read '.repeat(8191)} flight hotel booking`,
        'read '.repeat(100),
      ]);
      expect(pastLimit).toEqual(atLimit);
      expect(shorter).not.toEqual(atLimit);
    });

    it('reads the int8 rows, scales and bias of the built model', () => {
      const weights = readStaticEmbeddingWeights(
        join(OFFLINE_MODELS_DIR, OFFLINE_MODEL_ID, OFFLINE_MODEL_FILES.onnx),
      );
      expect(weights.dimensions).toBe(OFFLINE_MODEL_DIMS);
      expect(weights.rows).toHaveLength(weights.tokens * weights.dimensions);
      expect(weights.scales).toHaveLength(weights.tokens);
      // MODEL.md: the guard dimension carries the bias (1e-4) and no token has anything there.
      expect(weights.bias[OFFLINE_MODEL_DIMS - 1]).toBeCloseTo(1e-4, 8);
      for (let token = 0; token < weights.tokens; token += 997) {
        expect(weights.rows[token * weights.dimensions + OFFLINE_MODEL_DIMS - 1]).toBe(0);
      }
    });

    it('honours an aborted signal', async () => {
      await expect(
        createOfflineEmbedder().embed(['file'], { signal: AbortSignal.abort() }),
      ).rejects.toThrow();
    });
  },
);

describe('createStaticEmbedder', () => {
  const fixture = createFixtureModel();
  afterAll(() => fixture.cleanup());

  it('refuses an ONNX graph that is not a static int8 model, naming the file and what to use', async () => {
    // The fixture is a float Gather only: a real ONNX model, but not the int8 → scale → bias graph.
    const embedder = createStaticEmbedder({
      modelFolder: join(fixture.root, fixture.modelId),
      modelId: fixture.modelId,
    });
    const error = await embedder.load().catch((caught: unknown) => caught);
    expect(SwitchboardError.hasCode(error, 'EMBEDDER_UNAVAILABLE')).toBe(true);
    expect((error as Error).message).toContain(join(fixture.root, fixture.modelId, OFFLINE_MODEL_FILES.onnx));
    expect((error as Error).message).toContain('its graph is Gather');
    expect((error as Error).message).toContain('createTransformersEmbedder');
  });

  it('says where a missing model folder comes from', async () => {
    const embedder = createStaticEmbedder({ modelFolder: join(fixture.root, 'absent'), modelId: 'absent' });
    await expect(embedder.load()).rejects.toThrow(/is missing .*git checkout.*pnpm build:model/);
  });
});
