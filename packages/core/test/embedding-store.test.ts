import { describe, expect, it } from 'vitest';
import { createMemoryEmbeddingStore } from '../src/index.js';

describe('createMemoryEmbeddingStore', () => {
  it('answers only the keys it holds, per model, with copies', async () => {
    const store = createMemoryEmbeddingStore();
    const vector = new Float32Array([0.6, 0.8]);
    await store.save('model-a@2', new Map([['hash-1', vector]]));
    vector[0] = 0;
    const found = await store.load('model-a@2', ['hash-1', 'hash-2']);
    expect([...found.keys()]).toEqual(['hash-1']);
    expect(Array.from(found.get('hash-1') ?? [])).toEqual([Math.fround(0.6), Math.fround(0.8)]);
    expect((await store.load('model-b@2', ['hash-1'])).size).toBe(0);
    expect(store.specificationVersion).toBe('v1');
  });
});
