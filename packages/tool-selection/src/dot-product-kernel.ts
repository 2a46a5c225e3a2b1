/**
 * The inner loop of the exact vector index: one query's dot product with every stored row. Run by a
 * 358-byte WebAssembly SIMD kernel (`dot-product-kernel.wat`, four f32x4 accumulators), which scores
 * 10,000 rows of 256 floats in about a tenth of the time of the best plain JavaScript loop (README,
 * "Vector index"); plain JavaScript where WebAssembly is off (`--jitless`) or lacks SIMD. The rows live
 * in the kernel's memory, so nothing is copied per query.
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

/** Floats a step of the kernel consumes: rows are padded with zeros to a multiple of this. */
const STEP = 16;

/** Scores a query against stored rows. */
export interface DotProductKernel {
  /** What runs the loop. */
  readonly kind: 'wasm-simd' | 'javascript';
  /** Floats per row: the dimensions, padded with zeros to a multiple of 16. */
  readonly stride: number;
  /** Rows it has room for. */
  readonly capacity: number;
  /** The rows (`capacity × stride`), row after row. A view: take it again after {@link reserve}. */
  rows(): Float32Array;
  /** Where the query goes (`stride` floats). A view: take it again after {@link reserve}. */
  query(): Float32Array;
  /** Makes room for at least `capacity` rows; the rows stored are kept. */
  reserve(capacity: number): void;
  /** The dot product of each of the first `count` rows with the query. A view, valid until the next call. */
  score(count: number): Float32Array;
}

interface Layout {
  /** Byte offsets into the memory. */
  rowsOffset: number;
  scoresOffset: number;
  /** Bytes needed. */
  end: number;
}

function layoutOf(stride: number, capacity: number): Layout {
  const rowsOffset = stride * 4;
  const scoresOffset = rowsOffset + capacity * stride * 4;
  return { rowsOffset, scoresOffset, end: scoresOffset + capacity * 4 };
}

type Dots = (query: number, rows: number, count: number, stride: number, out: number) => void;

let compiled: WasmModule | null | undefined;

/** The compiled kernel, or null where WebAssembly (or its SIMD) is not available. */
function kernelModule(): WasmModule | null {
  if (compiled !== undefined) return compiled;
  try {
    const bytes = Buffer.from(DOT_PRODUCT_KERNEL_WASM, 'base64');
    compiled = typeof WebAssembly === 'object' && WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null;
  } catch {
    compiled = null;
  }
  return compiled;
}

const PAGE = 65_536;

function createWasmKernel(module: WasmModule, stride: number, initialCapacity: number): DotProductKernel {
  let capacity = initialCapacity;
  let layout = layoutOf(stride, capacity);
  const memory = new WebAssembly.Memory({ initial: Math.ceil(layout.end / PAGE) });
  const instance = new WebAssembly.Instance(module, { env: { memory } });
  const dots = instance.exports.dots as Dots;
  return {
    kind: 'wasm-simd',
    stride,
    get capacity() {
      return capacity;
    },
    rows: () => new Float32Array(memory.buffer, layout.rowsOffset, capacity * stride),
    query: () => new Float32Array(memory.buffer, 0, stride),
    reserve(wanted) {
      if (wanted <= capacity) return;
      // The rows stay where they are (they start right after the query); only the scores move.
      const next = layoutOf(stride, wanted);
      const missing = next.end - memory.buffer.byteLength;
      if (missing > 0) memory.grow(Math.ceil(missing / PAGE));
      capacity = wanted;
      layout = next;
    },
    score(count) {
      dots(0, layout.rowsOffset, count, stride, layout.scoresOffset);
      return new Float32Array(memory.buffer, layout.scoresOffset, count);
    },
  };
}

function createJavaScriptKernel(stride: number, initialCapacity: number): DotProductKernel {
  let capacity = initialCapacity;
  let rows = new Float32Array(capacity * stride);
  let scores = new Float32Array(capacity);
  const query = new Float32Array(stride);
  return {
    kind: 'javascript',
    stride,
    get capacity() {
      return capacity;
    },
    rows: () => rows,
    query: () => query,
    reserve(wanted) {
      if (wanted <= capacity) return;
      const grown = new Float32Array(wanted * stride);
      grown.set(rows);
      rows = grown;
      scores = new Float32Array(wanted);
      capacity = wanted;
    },
    score(count) {
      // Four accumulators: independent additions the CPU can overlap (the stride is a multiple of 16).
      for (let row = 0, offset = 0; row < count; row++, offset += stride) {
        let a = 0;
        let b = 0;
        let c = 0;
        let d = 0;
        for (let j = 0; j < stride; j += 4) {
          a += (rows[offset + j] as number) * (query[j] as number);
          b += (rows[offset + j + 1] as number) * (query[j + 1] as number);
          c += (rows[offset + j + 2] as number) * (query[j + 2] as number);
          d += (rows[offset + j + 3] as number) * (query[j + 3] as number);
        }
        scores[row] = a + b + c + d;
      }
      return scores.subarray(0, count);
    },
  };
}

/**
 * A kernel for vectors of `dimensions` floats with room for `initialCapacity` rows: WebAssembly SIMD
 * where it runs, else plain JavaScript (`prefer: 'javascript'` forces that, for tests and the bench).
 */
export function createDotProductKernel(
  dimensions: number,
  initialCapacity: number,
  prefer: 'wasm-simd' | 'javascript' = 'wasm-simd',
): DotProductKernel {
  const stride = Math.ceil(dimensions / STEP) * STEP;
  const capacity = Math.max(1, initialCapacity);
  const module = prefer === 'wasm-simd' ? kernelModule() : null;
  return module ? createWasmKernel(module, stride, capacity) : createJavaScriptKernel(stride, capacity);
}
