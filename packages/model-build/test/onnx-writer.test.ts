import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createTemporaryDirectory } from '@switchboard/test-helpers';
import {
  createTransformersEmbedder,
  OFFLINE_MODEL_FILES,
  OFFLINE_MODEL_SPECIAL_TOKENS,
} from '@switchboard/tool-selection';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createModelTokenizer,
  createTokenRows,
  dequantizeRow,
  modelConfig,
  quantizeRows,
  tokenizerConfig,
  tokenizerJson,
  tokenVocabulary,
  writeStaticEmbeddingOnnx,
} from '../src/index.js';

// A tiny model written by the build's own writers into the layout of the offline model, then loaded the
// way tool-selection loads the shipped one (transformers.js, no network): the vectors must be the mean of
// the dequantised rows of the text's tokens ([CLS] included), plus the bias, normalised.
const vocabulary = { words: ['read', 'file', 'book', 'flight'], extraWords: [], continuations: ['s'] };
const tokens = tokenVocabulary(vocabulary);
const dims = 4;
const rows = createTokenRows(Object.keys(tokens).length, dims);
const set = (token: string, values: number[]) => rows.data.set(values, (tokens[token] as number) * dims);
set('read', [1, 0, 0, 0]);
set('file', [0.8, 0.3, 0, 0]);
set('book', [0, 0, 1, 0]);
set('flight', [0, 0.2, 0.9, 0]);
set('##s', [0.1, 0.1, 0.1, 0]);
const recipe = { dims, maxLength: 64 };
const quantized = quantizeRows(rows, 1e-4);

const directory = createTemporaryDirectory('model-build-onnx-');
afterAll(() => directory.remove());
const modelId = 'tiny-static';
const write = (file: string, data: string | Uint8Array) => {
  const path = join(directory.path, modelId, file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, data);
};
write(OFFLINE_MODEL_FILES.onnx, writeStaticEmbeddingOnnx(quantized));
write(OFFLINE_MODEL_FILES.tokenizer, JSON.stringify(tokenizerJson(tokens)));
write(OFFLINE_MODEL_FILES.tokenizerConfig, JSON.stringify(tokenizerConfig(recipe)));
write(OFFLINE_MODEL_FILES.config, JSON.stringify(modelConfig(recipe, rows.count)));

function expected(ids: number[]): number[] {
  const sum = new Array<number>(dims).fill(0);
  for (const id of ids) {
    const row = dequantizeRow(quantized, id);
    for (let j = 0; j < dims; j++) sum[j] = (sum[j] as number) + (row[j] as number);
  }
  const mean = sum.map((value) => value / ids.length);
  const norm = Math.hypot(...mean);
  return mean.map((value) => value / norm);
}

describe('the ONNX and tokenizer writers', () => {
  it('give ids [CLS] first, words by id, unknown endings as ## pieces', async () => {
    const tokenizer = await createModelTokenizer(tokens, recipe);
    const cls = OFFLINE_MODEL_SPECIAL_TOKENS['[CLS]'];
    expect(tokenizer.encode('Read FILES')).toEqual([cls, tokens.read, tokens.file, tokens['##s']]);
    expect(tokenizer.encode('xyz')).toEqual([cls, OFFLINE_MODEL_SPECIAL_TOKENS['[UNK]']]);
  });

  it('write a folder transformers.js loads, whose vectors are the pooled dequantised rows', async () => {
    const embedder = createTransformersEmbedder({
      model: modelId,
      localModelPath: directory.path,
      allowRemote: false,
      quantized: true,
      fallback: false,
      minimumNorm: 0,
    });
    const info = await embedder.load();
    expect(info.dimensions).toBe(dims);
    const [readFile, bookFlight] = await embedder.embed(['read file', 'book flight']);
    const cls = OFFLINE_MODEL_SPECIAL_TOKENS['[CLS]'];
    const want = [expected([cls, tokens.read!, tokens.file!]), expected([cls, tokens.book!, tokens.flight!])];
    [readFile, bookFlight].forEach((vector, row) => {
      expect(vector).toHaveLength(dims);
      for (let j = 0; j < dims; j++) expect(vector![j]).toBeCloseTo(want[row]![j] as number, 6);
    });
    // The guard dimension carries only the bias: small but not zero.
    expect(readFile![dims - 1]).toBeGreaterThan(0);
    expect(readFile![dims - 1]).toBeLessThan(1e-3);
    await embedder.close?.();
  });
});
