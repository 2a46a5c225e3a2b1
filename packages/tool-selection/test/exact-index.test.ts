import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SwitchboardError } from '@switchboard/core';
import { createTemporaryDirectories } from '@switchboard/test-helpers';
import { afterAll, describe, expect, it } from 'vitest';
import { createExactIndex, ToolSelectionErrorCode } from '../src/index.js';

const temporary = createTemporaryDirectories();
afterAll(() => temporary.removeAll());

/** Deterministic pseudo-random vectors (not unit length: the index normalises). */
function vectors(count: number, dimensions: number, seed = 1): Float32Array[] {
  let state = seed;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) & 0x7fffffff;
    return state / 0x7fffffff - 0.5;
  };
  return Array.from({ length: count }, () => Float32Array.from({ length: dimensions }, next));
}

/** The `limit` nearest ids by cosine, computed the plain way. */
function bruteForce(stored: Map<string, Float32Array>, query: Float32Array, limit: number): string[] {
  const norm = (vector: Float32Array) => Math.hypot(...vector);
  return [...stored]
    .map(([id, vector]) => {
      let dot = 0;
      for (let j = 0; j < vector.length; j++) dot += (vector[j] as number) * (query[j] as number);
      return { id, score: dot / (norm(vector) * norm(query)) };
    })
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map((hit) => hit.id);
}

describe.each(['wasm-simd', 'javascript'] as const)('createExactIndex (kernel %s)', (kernel) => {
  it('returns the true nearest neighbours with their cosine, through growth, updates and removals', () => {
    const dimensions = 37; // not a multiple of 16: rows are padded
    const index = createExactIndex({ dimensions, initialCapacity: 16, kernel });
    const stored = new Map<string, Float32Array>();
    const all = vectors(300, dimensions);
    all.forEach((vector, position) => {
      index.add(`t${position}`, vector, `h${position}`);
      stored.set(`t${position}`, vector);
    });
    // Replace some, remove others (the last row moves into each hole).
    const replacements = vectors(20, dimensions, 7);
    for (let position = 0; position < 20; position++) {
      index.add(`t${position * 3}`, replacements[position] as Float32Array, 'new');
      stored.set(`t${position * 3}`, replacements[position] as Float32Array);
    }
    for (const id of ['t1', 't299', 't150', 't4']) {
      expect(index.remove(id)).toBe(true);
      stored.delete(id);
    }
    expect(index.remove('t1')).toBe(false);
    expect(index.size).toBe(296);
    expect(index.has('t4')).toBe(false);
    expect(index.hashOf('t3')).toBe('new');
    expect(index.hashOf('t5')).toBe('h5');
    expect(new Set(index.ids())).toEqual(new Set(stored.keys()));
    for (const query of vectors(25, dimensions, 99)) {
      const hits = index.search(query, { limit: 10 });
      expect(hits.map((hit) => hit.id)).toEqual(bruteForce(stored, query, 10));
      expect(hits[0]?.score).toBeLessThanOrEqual(1);
      expect(hits.every((hit, rank) => rank === 0 || hit.score <= (hits[rank - 1]?.score as number))).toBe(
        true,
      );
    }
    const [self] = index.search(stored.get('t10') as Float32Array, { limit: 1 });
    expect(self?.id).toBe('t10');
    expect(self?.score).toBeCloseTo(1, 5);
  });

  it('returns at most as many hits as it holds, and none when empty', () => {
    const index = createExactIndex({ dimensions: 4, kernel });
    expect(index.search(new Float32Array(4), { limit: 5 })).toEqual([]);
    index.add('a', Float32Array.of(1, 0, 0, 0));
    index.add('b', Float32Array.of(0, 1, 0, 0));
    expect(index.search(Float32Array.of(1, 0.1, 0, 0), { limit: 5 }).map((hit) => hit.id)).toEqual([
      'a',
      'b',
    ]);
    index.clear();
    expect(index.size).toBe(0);
    expect(index.search(Float32Array.of(1, 0, 0, 0))).toEqual([]);
  });

  it('persists vectors and hashes under its key, and ignores another key’s or a damaged folder', () => {
    const persistDir = temporary.make('exact-index-');
    const dimensions = 20;
    const first = createExactIndex({ dimensions, persistDir, key: 'model-a@20', kernel });
    const all = vectors(50, dimensions, 3);
    all.forEach((vector, position) => {
      first.add(`t${position}`, vector, `h${position}`);
    });
    first.remove('t7');
    first.save();
    const query = vectors(1, dimensions, 5)[0] as Float32Array;

    const second = createExactIndex({ dimensions, persistDir, key: 'model-a@20', kernel });
    expect(second.load()).toBe(true);
    expect(second.size).toBe(49);
    expect(second.hashOf('t8')).toBe('h8');
    expect(second.has('t7')).toBe(false);
    expect(second.search(query, { limit: 5 })).toEqual(first.search(query, { limit: 5 }));

    // Without the scan's saved int8 form (an index saved by the JavaScript kernel), it is quantised again.
    rmSync(join(persistDir, 'model-a_20', 'exact.i8'), { force: true });
    const requantised = createExactIndex({ dimensions, persistDir, key: 'model-a@20', kernel });
    expect(requantised.load()).toBe(true);
    expect(requantised.search(query, { limit: 5 })).toEqual(first.search(query, { limit: 5 }));

    expect(createExactIndex({ dimensions, persistDir, key: 'model-b@20', kernel }).load()).toBe(false);
    expect(createExactIndex({ dimensions: 21, persistDir, key: 'model-a@20', kernel }).load()).toBe(false);

    // A vectors file cut short (a crash mid-copy): not loaded, and removed so the next save starts clean.
    writeFileSync(join(persistDir, 'model-a_20', 'exact.f32'), new Uint8Array(12));
    const third = createExactIndex({ dimensions, persistDir, key: 'model-a@20', kernel });
    expect(third.load()).toBe(false);
    expect(third.size).toBe(0);
  });
});

describe('createExactIndex', () => {
  it('says what it is', () => {
    expect(createExactIndex({ dimensions: 8 })).toMatchObject({
      specificationVersion: 'v1',
      kind: 'exact',
      description:
        'every vector scored: an int8 scan by a WebAssembly SIMD kernel, the best re-scored exactly',
    });
    expect(createExactIndex({ dimensions: 8, kernel: 'javascript' }).description).toContain(
      'plain JavaScript',
    );
  });

  it('rejects a bad dimension or a vector of another length with INVALID_ARGUMENT', () => {
    const error = (() => {
      try {
        createExactIndex({ dimensions: 0 });
      } catch (caught) {
        return caught;
      }
    })();
    expect(SwitchboardError.hasCode(error, ToolSelectionErrorCode.InvalidArgument)).toBe(true);
    const index = createExactIndex({ dimensions: 4 });
    expect(() => index.add('a', new Float32Array(3))).toThrow(/3 dimensions; this index holds 4/);
    expect(() => index.search(new Float32Array(5))).toThrow(/5 dimensions; this index holds 4/);
  });
});
