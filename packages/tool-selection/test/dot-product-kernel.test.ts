import { describe, expect, it } from 'vitest';
import { assembleDotProductKernel } from '../scripts/assemble-dot-product-kernel.js';
import { createDotProductKernel } from '../src/dot-product-kernel.js';
import { DOT_PRODUCT_KERNEL_WASM } from '../src/dot-product-kernel-wasm.js';

describe('the dot-product kernel', () => {
  it('ships the bytes its WebAssembly text assembles to (run scripts/build-dot-product-kernel.ts after editing it)', async () => {
    expect(DOT_PRODUCT_KERNEL_WASM).toBe(await assembleDotProductKernel());
  });

  it.each(['wasm-simd', 'javascript'] as const)('%s: scores every row against the query, before and after growing', (prefer) => {
    const dimensions = 50;
    const kernel = createDotProductKernel(dimensions, 3, prefer);
    expect(kernel.kind).toBe(prefer);
    expect(kernel.stride).toBe(64);
    const rowsOf = (count: number) =>
      Array.from({ length: count }, (_, row) => Float32Array.from({ length: dimensions }, (_, j) => Math.sin(row * 7 + j)));
    const fill = (rows: Float32Array[]) => {
      const target = kernel.rows();
      rows.forEach((row, index) => {
        target.set(row, index * kernel.stride);
      });
    };
    const query = Float32Array.from({ length: dimensions }, (_, j) => Math.cos(j));
    const expected = (rows: Float32Array[]) =>
      rows.map((row) => row.reduce((sum, value, j) => sum + value * (query[j] as number), 0));
    const three = rowsOf(3);
    fill(three);
    kernel.query().set(query);
    [...kernel.score(3)].forEach((score, row) => {
      expect(score).toBeCloseTo(expected(three)[row] as number, 4);
    });
    // Growing keeps the rows and the query's place; the new rows are scored too.
    kernel.reserve(1000);
    expect(kernel.capacity).toBe(1000);
    const many = rowsOf(1000);
    expect([...kernel.rows().subarray(0, 3 * kernel.stride)]).toEqual([...kernel.rows().subarray(0, 3 * kernel.stride)]);
    fill(many);
    kernel.query().set(query);
    const scores = kernel.score(1000);
    expect(scores).toHaveLength(1000);
    [...scores].forEach((score, row) => {
      expect(score).toBeCloseTo(expected(many)[row] as number, 4);
    });
  });
});
