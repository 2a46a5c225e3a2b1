import { describe, expect, it } from 'vitest';
import { createTokenRows, dequantizeRow, quantizeRows } from '../src/index.js';

describe('quantizeRows', () => {
  const rows = createTokenRows(3, 4);
  rows.data.set([0.5, -1.27, 0.01, 0], 4); // row 1
  rows.data.set([3, 2, -1, 0], 8); // row 2
  const quantized = quantizeRows(rows, 1e-4);

  it('maps the largest magnitude of each row to ±127, with one scale per row', () => {
    expect(Array.from(quantized.values.subarray(4, 8))).toEqual([50, -127, 1, 0]);
    expect(quantized.scales[1]).toBeCloseTo(0.01, 7);
    expect(Array.from(quantized.values.subarray(8, 12))).toEqual([127, 85, -42, 0]);
    expect(quantized.scales[2]).toBeCloseTo(3 / 127, 7);
  });

  it('round-trips each value within half a step of its row', () => {
    for (const id of [1, 2]) {
      const back = dequantizeRow(quantized, id);
      const step = quantized.scales[id] as number;
      for (let j = 0; j < 3; j++) {
        expect(Math.abs((back[j] as number) - (rows.data[id * 4 + j] as number))).toBeLessThanOrEqual(
          step / 2 + 1e-9,
        );
      }
    }
  });

  it('gives an all-zero row a zero scale, and the guard dimension the bias', () => {
    expect(quantized.scales[0]).toBe(0);
    expect(Array.from(quantized.values.subarray(0, 4))).toEqual([0, 0, 0, 0]);
    expect(Array.from(quantized.bias)).toEqual([0, 0, 0, Math.fround(1e-4)]);
    expect(Array.from(dequantizeRow(quantized, 0))).toEqual([0, 0, 0, Math.fround(1e-4)]);
    // The guard column of the table itself stays zero: only the bias puts something there.
    expect(quantized.values[7]).toBe(0);
    expect(quantized.values[11]).toBe(0);
  });
});
