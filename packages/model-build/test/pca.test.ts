import { describe, expect, it } from 'vitest';
import { applyProjection, fitPca, symmetricEigen } from '../src/index.js';

/** Q diag(values) Qᵀ for the rows of `q` (orthonormal). */
function compose(q: number[][], values: number[]): Float64Array {
  const n = values.length;
  const out = new Float64Array(n * n);
  for (let a = 0; a < n; a++) {
    for (let b = 0; b < n; b++) {
      let sum = 0;
      for (let k = 0; k < n; k++) sum += (q[k]![a] as number) * (values[k] as number) * (q[k]![b] as number);
      out[a * n + b] = sum;
    }
  }
  return out;
}

describe('symmetricEigen', () => {
  // An orthonormal basis (a rotation in the plane of the first two axes, the third axis flipped) and
  // eigenvalues given out of order: the decomposition must find both, largest first.
  const c = Math.cos(0.3);
  const s = Math.sin(0.3);
  const basis = [
    [c, s, 0],
    [-s, c, 0],
    [0, 0, -1],
  ];
  const matrix = compose(basis, [2, 5, 3]);

  it('finds a known decomposition, largest eigenvalue first', () => {
    const { values, vectors } = symmetricEigen(matrix, 3);
    expect(Array.from(values)).toEqual([expect.closeTo(5, 12), expect.closeTo(3, 12), expect.closeTo(2, 12)]);
    // Each vector is the basis vector of its eigenvalue, signed so that its largest entry is positive.
    const expected = [
      [-s, c, 0], // its largest entry, c, is positive already
      [0, 0, 1],
      [c, s, 0],
    ];
    for (let k = 0; k < 3; k++) {
      for (let r = 0; r < 3; r++) expect(vectors[k * 3 + r]).toBeCloseTo(expected[k]![r] as number, 12);
    }
  });

  it('gives vectors that rebuild the matrix', () => {
    const { values, vectors } = symmetricEigen(matrix, 3);
    const rows = [0, 1, 2].map((k) => Array.from(vectors.subarray(k * 3, k * 3 + 3)));
    const rebuilt = compose(rows, Array.from(values));
    for (let i = 0; i < 9; i++) expect(rebuilt[i]).toBeCloseTo(matrix[i] as number, 12);
  });

  it('rejects a matrix of the wrong size', () => {
    expect(() => symmetricEigen(new Float64Array(8), 3)).toThrow(/8 values for a 3 × 3 matrix/);
  });
});

describe('fitPca and applyProjection', () => {
  // Points on a line through (1, 2) along (3, 4)/5, plus ±0.1 across it (11 times +, 10 times −): the
  // first axis is that direction, the mean is (1, 2) moved 0.1/21 across, and it holds nearly all the variance.
  const points: number[] = [];
  for (let i = -10; i <= 10; i++) {
    const along = i;
    const across = i % 2 === 0 ? 0.1 : -0.1;
    points.push(1 + 0.6 * along - 0.8 * across, 2 + 0.8 * along + 0.6 * across);
  }
  const matrix = Float32Array.from(points);
  const rows = points.length / 2;

  it('finds the mean and the principal axis', () => {
    const projection = fitPca(matrix, rows, 2, 1, rows);
    expect(projection.data[0]).toBeCloseTo(1 - (0.8 * 0.1) / 21, 6);
    expect(projection.data[1]).toBeCloseTo(2 + (0.6 * 0.1) / 21, 6);
    expect(projection.data[2]).toBeCloseTo(0.6, 3);
    expect(projection.data[3]).toBeCloseTo(0.8, 3);
    expect(projection.keptVariance).toBeGreaterThan(0.999);
    expect(projection.keptVariance).toBeLessThan(1);
  });

  it('fits on the first `sample` rows only', () => {
    const projection = fitPca(matrix, rows, 2, 1, 3);
    // The first three points: along −10, −9, −8, so their mean is at along = −9.
    expect(projection.data[0]).toBeCloseTo(1 + 0.6 * -9 - 0.8 * (0.1 / 3), 5);
  });

  it('projects rows onto the axes, centred on the mean or on a given centre', () => {
    const projection = fitPca(matrix, rows, 2, 1, rows);
    const coordinates = applyProjection(matrix, rows, projection);
    expect(coordinates).toHaveLength(rows);
    expect(coordinates[0]).toBeCloseTo(-10, 3);
    expect(coordinates[20]).toBeCloseTo(10, 3);
    const shifted = applyProjection(matrix, rows, projection, [1 - 0.6 * 5, 2 - 0.8 * 5]);
    expect(shifted[10]).toBeCloseTo(5, 3);
  });
});
