import { createTemporaryDirectory } from '@switchboard/test-helpers';
import { describe, expect, it } from 'vitest';
import { createHnswIndex } from '../src/index.js';

function unit(values: number[]): Float32Array {
  const norm = Math.hypot(...values);
  return Float32Array.from(values, (value) => value / norm);
}

// Deterministic points spread over a circle in the first two dimensions.
function point(position: number, dimensions = 8): Float32Array {
  const angle = (position / 1000) * Math.PI * 2;
  const values = new Array(dimensions).fill(0.01);
  values[0] = Math.cos(angle);
  values[1] = Math.sin(angle);
  return unit(values);
}

describe('createHnswIndex', () => {
  it('finds nearest neighbours with cosine scores', () => {
    const index = createHnswIndex({ dimensions: 3 });
    index.add('x', unit([1, 0, 0]));
    index.add('y', unit([0, 1, 0]));
    index.add('xy', unit([1, 1, 0]));
    const hits = index.search(unit([1, 0.1, 0]), { limit: 2 });
    expect(hits.map((hit) => hit.id)).toEqual(['x', 'xy']);
    expect(hits[0]?.score).toBeGreaterThan(0.99);
    expect(index.search(unit([0, 0, 1]), { limit: 10 })).toHaveLength(3);
  });

  it('updates and removes entries, reusing deleted slots', () => {
    const index = createHnswIndex({ dimensions: 3, initialCapacity: 16 });
    index.add('a', unit([1, 0, 0]), 'h1');
    index.add('b', unit([0, 1, 0]));
    index.add('a', unit([0, 0, 1]), 'h2');
    expect(index.hashOf('a')).toBe('h2');
    expect(index.search(unit([0, 0, 1]), { limit: 1 })[0]?.id).toBe('a');
    expect(index.remove('b')).toBe(true);
    expect(index.remove('b')).toBe(false);
    expect(index.search(unit([0, 1, 0]), { limit: 5 }).map((hit) => hit.id)).toEqual(['a']);
    for (let round = 0; round < 40; round++) {
      index.add('churn', point(round, 3));
      index.remove('churn');
    }
    expect(index.size).toBe(1);
  });

  it('grows past its initial capacity without a rebuild', () => {
    const index = createHnswIndex({ dimensions: 8, initialCapacity: 16 });
    for (let position = 0; position < 500; position++) index.add(`p${position}`, point(position * 2));
    expect(index.size).toBe(500);
    expect(index.search(point(250 * 2), { limit: 1 })[0]?.id).toBe('p250');
  });

  it('persists to disk and loads only under the same key', () => {
    using directory = createTemporaryDirectory('hnsw-index-');
    const persistDir = directory.path;
    const first = createHnswIndex({ dimensions: 8, persistDir, key: 'model-a@8' });
    for (let position = 0; position < 100; position++)
      first.add(`p${position}`, point(position * 10), `hash${position}`);
    first.remove('p3');
    first.save();

    const second = createHnswIndex({ dimensions: 8, persistDir, key: 'model-a@8' });
    expect(second.load()).toBe(true);
    expect(second.size).toBe(99);
    expect(second.has('p3')).toBe(false);
    expect(second.hashOf('p42')).toBe('hash42');
    expect(second.search(point(420), { limit: 1 })[0]?.id).toBe('p42');
    second.add('new', point(5));
    expect(second.search(point(5), { limit: 1 })[0]?.id).toBe('new');

    const otherModel = createHnswIndex({ dimensions: 8, persistDir, key: 'model-b@8' });
    expect(otherModel.load()).toBe(false);
    expect(otherModel.size).toBe(0);
  });

  it('rejects vectors of the wrong width with a clear error', () => {
    const index = createHnswIndex({ dimensions: 4 });
    expect(() => index.add('a', new Float32Array(3))).toThrow(/3 dimensions; this index holds 4/);
    expect(() => createHnswIndex({ dimensions: 0 })).toThrow(/positive integer/);
  });
});
