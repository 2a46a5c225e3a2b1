import { describe, expect, it } from 'vitest';
import type { StaticRows, TrainingPair } from '../src/contrastive-finetune.js';
import { fineTuneContrastive } from '../src/contrastive-finetune.js';

// A tiny static model: 8 tokens × 4 dims (the last the guard), random rows, ids 0–2 special.
function tinyModel(): StaticRows {
  const dims = 4;
  const rows = new Float32Array(8 * dims);
  let state = 3;
  for (let id = 3; id < 8; id++)
    for (let j = 0; j < dims - 1; j++) {
      state = (state * 48271) % 2147483647;
      rows[id * dims + j] = state / 2147483647 - 0.5;
    }
  const trainable = Uint8Array.from([0, 0, 0, 1, 1, 1, 1, 0]);
  return { rows, dims, bias: Float32Array.from([0, 0, 0, 1e-4]), trainable, guardDimension: true };
}

function cosine(model: StaticRows, a: Int32Array, b: Int32Array): number {
  const pool = (ids: Int32Array) => {
    const out = new Float64Array(model.dims);
    for (const id of ids)
      for (let j = 0; j < model.dims; j++)
        out[j] = (out[j] as number) + (model.rows[id * model.dims + j] as number) / ids.length;
    for (let j = 0; j < model.dims; j++) out[j] = (out[j] as number) + (model.bias[j] as number);
    const norm = Math.hypot(...out);
    return out.map((value) => value / norm);
  };
  const x = pool(a);
  const y = pool(b);
  return x.reduce((sum, value, j) => sum + value * (y[j] as number), 0);
}

// Queries 3 and 4 are answered by documents [5] and [6]; token 7 is frozen (a stopword, say).
const documents = [Int32Array.from([2, 5, 7]), Int32Array.from([2, 6, 7])];
const pairs: TrainingPair[] = [
  { query: Int32Array.from([2, 3]), positive: 0, positives: new Set([0]), hardNegatives: [1], group: 0 },
  { query: Int32Array.from([2, 4]), positive: 1, positives: new Set([1]), hardNegatives: [0], group: 0 },
];
const recipe = { epochs: 30, batchSize: 2, learningRate: 0.05, temperature: 0.1, pull: 0, seed: 7 };

describe('fineTuneContrastive', () => {
  it('pulls each query to its document and away from the other', () => {
    const model = tinyModel();
    const before = [
      cosine(model, pairs[0]!.query, documents[0]!),
      cosine(model, pairs[0]!.query, documents[1]!),
    ];
    const losses = fineTuneContrastive(model, documents, pairs, recipe);
    const after = [
      cosine(model, pairs[0]!.query, documents[0]!),
      cosine(model, pairs[0]!.query, documents[1]!),
    ];
    expect(losses.at(-1)).toBeLessThan(losses[0] as number);
    expect(after[0]! - after[1]!).toBeGreaterThan(before[0]! - before[1]! + 0.5);
    expect(cosine(model, pairs[1]!.query, documents[1]!)).toBeGreaterThan(
      cosine(model, pairs[1]!.query, documents[0]!),
    );
  });

  it('leaves frozen rows and the guard column as they were', () => {
    const model = tinyModel();
    const start = Float32Array.from(model.rows);
    fineTuneContrastive(model, documents, pairs, recipe);
    for (const id of [0, 1, 2, 7])
      expect(model.rows.subarray(id * 4, id * 4 + 4)).toEqual(start.subarray(id * 4, id * 4 + 4));
    for (let id = 0; id < 8; id++) expect(model.rows[id * 4 + 3]).toBe(0);
    expect(model.rows.subarray(12, 16)).not.toEqual(start.subarray(12, 16));
  });

  it('is deterministic: the same seed gives the same rows', () => {
    const first = tinyModel();
    const second = tinyModel();
    fineTuneContrastive(first, documents, pairs, recipe);
    fineTuneContrastive(second, documents, pairs, recipe);
    expect(second.rows).toEqual(first.rows);
  });

  it('never uses another answer of the query as its negative', () => {
    // Both documents answer the query: no negative remains, so the loss is zero and nothing moves.
    const model = tinyModel();
    const start = Float32Array.from(model.rows);
    const both = new Set([0, 1]);
    const losses = fineTuneContrastive(
      model,
      documents,
      [
        { query: Int32Array.from([2, 3]), positive: 0, positives: both, hardNegatives: [], group: 0 },
        { query: Int32Array.from([2, 3]), positive: 1, positives: both, hardNegatives: [], group: 0 },
      ],
      { ...recipe, epochs: 2 },
    );
    expect(losses.every((loss) => Math.abs(loss) < 1e-9)).toBe(true);
    expect(model.rows).toEqual(start);
  });
});
