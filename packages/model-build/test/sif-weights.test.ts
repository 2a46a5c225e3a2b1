import { describe, expect, it } from 'vitest';
import { SPECIAL_TOKEN_COUNT, sifWeights, weightedTokenRows } from '../src/index.js';

const vocabulary = { words: ['the', 'file', 'folder'], extraWords: ['zq'], continuations: ['ing'] };
const settings = { sifA: 1e-3, pieceWeight: 0.5, stopwords: ['the'] };
const harmonic = Math.log(1.78 * 3);
const sif = (rank: number) => 1e-3 / (1e-3 + 1 / (rank * harmonic));

describe('sifWeights', () => {
  const weights = sifWeights(vocabulary, settings);

  it('weights each word by a / (a + p(rank)), p a Zipf law over the rank', () => {
    expect(weights).toHaveLength(5);
    expect(weights[1]).toBeCloseTo(sif(2), 15);
    expect(weights[2]).toBeCloseTo(sif(3), 15);
    // Rarer words weigh more.
    expect(weights[2]).toBeGreaterThan(weights[1] as number);
  });

  it('gives stopwords zero, extra words the rarest rank, pieces pieceWeight of it', () => {
    expect(weights[0]).toBe(0);
    expect(weights[3]).toBeCloseTo(sif(3), 15);
    expect(weights[4]).toBeCloseTo(0.5 * sif(3), 15);
  });

  it('does not treat a continuation piece as a stopword', () => {
    const withStopPiece = sifWeights({ ...vocabulary, continuations: ['the'] }, settings);
    expect(withStopPiece[4]).toBeCloseTo(0.5 * sif(3), 15);
  });
});

describe('weightedTokenRows', () => {
  it('puts text i at row 3 + i, scaled by its weight, with zero special rows and guard column', () => {
    const dims = 3; // two projected dimensions + the guard
    const projected = Float32Array.from([1, 2, 3, 4, 5, 6]);
    const rows = weightedTokenRows(projected, Float64Array.from([0, 2, 0.5]), dims);
    expect(SPECIAL_TOKEN_COUNT).toBe(3);
    expect(rows.count).toBe(6);
    expect(rows.dims).toBe(3);
    expect(Array.from(rows.data)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 6, 8, 0, 2.5, 3, 0]);
  });

  it('rejects projected vectors of another width', () => {
    expect(() => weightedTokenRows(new Float32Array(5), new Float64Array(2), 4)).toThrow(
      /5 projected values/,
    );
  });
});
