/**
 * The first pass of the exact vector index: one query's approximate dot product with every stored row,
 * the rows held as int8 (one scale per row) and the query as int16, summed by a 357-byte WebAssembly
 * SIMD kernel (`dot-product-kernel.wat`). A quarter of float32's bytes to stream per query, half its
 * instructions: inside `select()`, where BM25 and the embedding push the rows out of the cache, that is
 * what decides the time (README, "Vector index"). The index re-scores its best candidates exactly in
 * float32, so the scores it returns are exact. Where WebAssembly is off (`--jitless`) or lacks SIMD,
 * there is no kernel and the index scores in plain JavaScript.
 */
import { DOT_PRODUCT_KERNEL_WASM } from './dot-product-kernel-wasm.js';

// The WebAssembly global, typed for what is used here (the package's `lib` has no DOM types).
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmModule {
  readonly __brand?: 'WebAssembly.Module';
}
declare const WebAssembly: {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => WasmModule;
  Memory: new (descriptor: { initial: number }) => WasmMemory;
  Instance: new (
    module: WasmModule,
    imports: { env: { memory: WasmMemory } },
  ) => { exports: Record<string, unknown> };
};

/** Values a step of the kernel consumes: rows are padded with zeros to a multiple of this. */
const STEP = 32;
const PAGE = 65_536;

/** Approximate dot products of a query with int8 rows. */
export interface DotProductKernel {
  /** Values per row: the dimensions, padded with zeros to a multiple of 32. */
  readonly stride: number;
  /** Rows it has room for. */
  readonly capacity: number;
  /** Makes room for at least `capacity` rows; the rows stored are kept. */
  reserve(capacity: number): void;
  /** Stores `vector` at `row`, quantised to int8 with its own scale. */
  setRow(row: number, vector: ArrayLike<number>): void;
  /** Copies row `from` onto row `to` (filling the hole a removal leaves). */
  moveRow(from: number, to: number): void;
  /**
   * The quantised form of the first `count` rows — their scales (float32), then their int8 values
   * (`stride` a row) — as views to write out, so that a restart need not quantise again.
   */
  quantised(count: number): [scales: Uint8Array, rows: Uint8Array];
  /** Room for `count` rows and the views {@link quantised} gives, to read a saved form into. */
  quantisedTarget(count: number): [scales: Uint8Array, rows: Uint8Array];
  /**
   * The approximate dot product of each of the first `count` rows with `query`, within about 1e-3 of
   * the float32 one for unit vectors. A view, valid until the next call.
   */
  score(query: ArrayLike<number>, count: number): Float32Array;
}

type Dots = (query: number, rows: number, count: number, stride: number, out: number) => void;

let compiled: WasmModule | null | undefined;

/** The compiled kernel, or null where WebAssembly (or its SIMD) is not available. */
function kernelModule(): WasmModule | null {
  if (compiled !== undefined) return compiled;
  try {
    const bytes = Buffer.from(DOT_PRODUCT_KERNEL_WASM, 'base64');
    compiled =
      typeof WebAssembly === 'object' && WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null;
  } catch {
    compiled = null;
  }
  return compiled;
}

/** Largest magnitude of the first `length` values. */
function largest(values: ArrayLike<number>, length: number): number {
  let max = 0;
  for (let index = 0; index < length; index++) max = Math.max(max, Math.abs(values[index] as number));
  return max;
}

/**
 * A kernel for vectors of `dimensions` values with room for `initialCapacity` rows, or undefined where
 * WebAssembly SIMD does not run (the caller then scores in JavaScript).
 */
export function createDotProductKernel(
  dimensions: number,
  initialCapacity: number,
): DotProductKernel | undefined {
  const module = kernelModule();
  if (!module) return undefined;
  const stride = Math.ceil(dimensions / STEP) * STEP;
  // The int16 query's scale: large for precision, yet no i32 sum of `dimensions` products can overflow.
  const queryRange = Math.min(32_767, Math.floor(2_147_483_647 / (127 * stride)));
  let capacity = Math.max(1, initialCapacity);
  // Memory: the query (int16), then the rows (int8), then the sums (int32); the rows never move.
  const queryBytes = stride * 2;
  const outOffset = () => queryBytes + capacity * stride;
  const memory = new WebAssembly.Memory({ initial: Math.ceil((outOffset() + capacity * 4) / PAGE) });
  const dots = new WebAssembly.Instance(module, { env: { memory } }).exports.dots as Dots;
  let scales = new Float32Array(capacity);
  let scores = new Float32Array(capacity);
  // A view of the whole memory, taken again after it grew (growing detaches the old buffer).
  let bytes = new Int8Array(memory.buffer);

  return {
    stride,
    get capacity() {
      return capacity;
    },
    reserve(wanted) {
      if (wanted <= capacity) return;
      const previous = capacity;
      capacity = wanted;
      const missing = outOffset() + capacity * 4 - memory.buffer.byteLength;
      if (missing > 0) memory.grow(Math.ceil(missing / PAGE));
      const grownScales = new Float32Array(capacity);
      grownScales.set(scales.subarray(0, previous));
      scales = grownScales;
      scores = new Float32Array(capacity);
    },
    setRow(row, vector) {
      let max = 0;
      for (let index = 0; index < dimensions; index++) {
        const value = vector[index] as number;
        if (value > max) max = value;
        else if (-value > max) max = -value;
      }
      const scale = max / 127;
      const inverse = scale > 0 ? 1 / scale : 0;
      if (bytes.buffer !== memory.buffer) bytes = new Int8Array(memory.buffer);
      const offset = queryBytes + row * stride;
      for (let index = 0; index < dimensions; index++)
        bytes[offset + index] = Math.round((vector[index] as number) * inverse);
      bytes.fill(0, offset + dimensions, offset + stride);
      scales[row] = scale;
    },
    moveRow(from, to) {
      if (bytes.buffer !== memory.buffer) bytes = new Int8Array(memory.buffer);
      bytes.copyWithin(
        queryBytes + to * stride,
        queryBytes + from * stride,
        queryBytes + (from + 1) * stride,
      );
      scales[to] = scales[from] as number;
    },
    quantised(count) {
      return [
        new Uint8Array(scales.buffer, scales.byteOffset, count * 4),
        new Uint8Array(memory.buffer, queryBytes, count * stride),
      ];
    },
    quantisedTarget(count) {
      this.reserve(count);
      return this.quantised(count);
    },
    score(query, count) {
      const queryScale = largest(query, dimensions) / queryRange;
      const quantised = new Int16Array(memory.buffer, 0, stride);
      const inverse = queryScale > 0 ? 1 / queryScale : 0;
      for (let index = 0; index < dimensions; index++)
        quantised[index] = Math.round((query[index] as number) * inverse);
      quantised.fill(0, dimensions);
      dots(0, queryBytes, count, stride, outOffset());
      const sums = new Int32Array(memory.buffer, outOffset(), count);
      for (let row = 0; row < count; row++)
        scores[row] = (sums[row] as number) * (scales[row] as number) * queryScale;
      return scores.subarray(0, count);
    },
  };
}
