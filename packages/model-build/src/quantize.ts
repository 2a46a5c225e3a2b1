/**
 * Stage 6, the quantisation: each token row to int8 with one float32 scale (its largest magnitude / 127),
 * the guard column left at zero; the constant bias of the guard dimension beside it. What the ONNX graph
 * computes back: `int8 × scale + bias`.
 */
import type { TokenRows } from './token-rows.js';

/** The quantised embedding table and its bias: the ONNX file's three initializers. */
export interface QuantizedRows {
  /** [count × dims] int8. */
  values: Int8Array;
  /** [count] float32: a row's values are `values × scale`; zero for an all-zero row. */
  scales: Float32Array;
  /** [dims] float32: zero but for the guard dimension, which carries `bias`. */
  bias: Float32Array;
  count: number;
  dims: number;
}

/** Quantises `rows` (guard column excluded: it is zero) and sets the guard dimension's bias. */
export function quantizeRows(rows: TokenRows, bias: number): QuantizedRows {
  const { count, dims, data } = rows;
  const width = dims - 1;
  const values = new Int8Array(count * dims);
  const scales = new Float32Array(count);
  for (let id = 0; id < count; id++) {
    const offset = id * dims;
    let max = 0;
    for (let j = 0; j < width; j++) max = Math.max(max, Math.abs(data[offset + j] as number));
    const scale = max / 127 || 1;
    scales[id] = max ? scale : 0;
    for (let j = 0; j < width; j++) values[offset + j] = Math.round((data[offset + j] as number) / scale);
  }
  const biasRow = new Float32Array(dims);
  biasRow[dims - 1] = bias;
  return { values, scales, bias: biasRow, count, dims };
}

/** What the graph computes for token `id`: `values × scale + bias` (for tests and checks). */
export function dequantizeRow(quantized: QuantizedRows, id: number): Float32Array {
  const { dims } = quantized;
  const row = new Float32Array(dims);
  const scale = quantized.scales[id] as number;
  for (let j = 0; j < dims; j++) {
    row[j] = (quantized.values[id * dims + j] as number) * scale + (quantized.bias[j] as number);
  }
  return row;
}
