import { describe, expect, it } from 'vitest';
import { assembleDotProductKernel } from '../scripts/assemble-dot-product-kernel.js';
import { createDotProductKernel } from '../src/dot-product-kernel.js';
import { DOT_PRODUCT_KERNEL_WASM } from '../src/dot-product-kernel-wasm.js';

/** Unit vectors with a little structure, deterministic. */
function unitVectors(count: number, dimensions: number, seed: number): Float32Array[] {
  return Array.from({ length: count }, (_, row) => {
    const vector = Float32Array.from({ length: dimensions }, (_, j) =>
      Math.sin((row + seed) * 7.3 + j * 1.7),
    );
    const norm = Math.hypot(...vector);
    return vector.map((value) => value / norm);
  });
}

const dot = (a: Float32Array, b: Float32Array) =>
  a.reduce((sum, value, j) => sum + value * (b[j] as number), 0);

describe('the dot-product kernel', () => {
  it('ships the bytes its WebAssembly text assembles to (run scripts/build-dot-product-kernel.ts after editing it)', async () => {
    expect(DOT_PRODUCT_KERNEL_WASM).toBe(await assembleDotProductKernel());
  });

  it('scores every row within int8 rounding of the float32 dot product, through growth and moves', () => {
    const dimensions = 50; // padded to 64
    const kernel = createDotProductKernel(dimensions, 3);
    if (!kernel) throw new Error('WebAssembly SIMD is not available in this Node');
    expect(kernel.stride).toBe(64);
    const rows = unitVectors(1000, dimensions, 1);
    const [query] = unitVectors(1, dimensions, 99) as [Float32Array];
    rows.slice(0, 3).forEach((row, index) => {
      kernel.setRow(index, row);
    });
    [...kernel.score(query, 3)].forEach((score, index) => {
      expect(Math.abs(score - dot(rows[index] as Float32Array, query))).toBeLessThan(2e-3);
    });
    // Growing keeps the rows stored; then every row is scored.
    kernel.reserve(1000);
    expect(kernel.capacity).toBe(1000);
    const before = [...kernel.score(query, 3)];
    rows.slice(3).forEach((row, index) => {
      kernel.setRow(index + 3, row);
    });
    expect([...kernel.score(query, 3)]).toEqual(before);
    const scores = kernel.score(query, 1000);
    expect(scores).toHaveLength(1000);
    [...scores].forEach((score, index) => {
      expect(Math.abs(score - dot(rows[index] as Float32Array, query))).toBeLessThan(2e-3);
    });
    // A moved row scores as its source did.
    kernel.moveRow(999, 5);
    expect(kernel.score(query, 6)[5]).toBe(scores[999]);
  });

  it('keeps large vectors from overflowing its int32 sums', () => {
    const dimensions = 4096;
    const kernel = createDotProductKernel(dimensions, 2);
    if (!kernel) throw new Error('WebAssembly SIMD is not available in this Node');
    // The worst case: every value at its largest, all of one sign.
    const ones = new Float32Array(dimensions).fill(1 / Math.sqrt(dimensions));
    kernel.setRow(0, ones);
    kernel.setRow(
      1,
      ones.map((value) => -value),
    );
    const [same, opposite] = kernel.score(ones, 2);
    expect(same).toBeCloseTo(1, 3);
    expect(opposite).toBeCloseTo(-1, 3);
  });
});
