/**
 * The default vector index: exact cosine search over every stored vector, scored by a WebAssembly SIMD
 * kernel (`dot-product-kernel.ts`). No dependency, nothing compiled at install, the true nearest
 * neighbours (an approximate index may miss one), and a `select()` at 10,000 tools within the 1 ms
 * target (README, "Vector index"); past ~50,000 tools the HNSW index (`createHnswIndex`, on the
 * optional `hnswlib-node`) answers faster. Persisted like the HNSW index: the vectors and a content
 * hash per entry, so that a restart re-embeds only the tools that changed.
 */
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { SwitchboardError } from '@switchboard/core';
import { createDotProductKernel } from './dot-product-kernel.js';
import { ToolSelectionErrorCode } from './tool-selection-error-code.js';
import type { VectorHit, VectorIndex } from './vector-index.js';
import { indexFolderName } from './vector-index.js';

/** Options of {@link createExactIndex}. */
export interface ExactIndexOptions {
  /** Vector length. */
  dimensions: number;
  /** Capacity reserved up front; the index doubles it when full. @default 1024 */
  initialCapacity?: number;
  /** Folder to persist into; no persistence when absent. */
  persistDir?: string;
  /**
   * What the stored vectors depend on (embedder model id and dimensions): a persisted index with a
   * different key is ignored, so vectors of different models are never mixed. @default 'default'
   */
  key?: string;
  /** Who scores: the WebAssembly SIMD kernel, or plain JavaScript. @default 'wasm-simd' (JavaScript where WebAssembly is off) */
  kernel?: 'wasm-simd' | 'javascript';
}

/** `exact.json`, written beside the vectors. */
interface PersistedMeta {
  format: 1;
  kind: 'exact';
  key: string;
  dimensions: number;
  /** In row order: the id and content hash of each row of `exact.f32`. */
  entries: Array<[id: string, hash: string]>;
}

const META_FILE = 'exact.json';
const VECTORS_FILE = 'exact.f32';

/**
 * The `limit` best of `scores`, best first; ties keep the lower row first. One pass with a sorted
 * list of the best so far: a row that does not beat the worst of them costs one comparison.
 */
function topRows(scores: Float32Array, limit: number): { rows: Int32Array; scores: Float32Array } {
  const rows = new Int32Array(limit).fill(-1);
  const best = new Float32Array(limit).fill(Number.NEGATIVE_INFINITY);
  let worst = Number.NEGATIVE_INFINITY;
  let filled = 0;
  for (let row = 0; row < scores.length; row++) {
    const score = scores[row] as number;
    if (filled === limit && score <= worst) continue;
    let position = filled < limit ? filled++ : limit - 1;
    while (position > 0 && (best[position - 1] as number) < score) {
      best[position] = best[position - 1] as number;
      rows[position] = rows[position - 1] as number;
      position--;
    }
    best[position] = score;
    rows[position] = row;
    worst = best[limit - 1] as number;
  }
  return { rows: rows.subarray(0, filled), scores: best.subarray(0, filled) };
}

/** Creates an empty exact index (call `load()` to pick up a persisted one). */
export function createExactIndex(options: ExactIndexOptions): VectorIndex {
  const { dimensions } = options;
  if (!Number.isInteger(dimensions) || dimensions <= 0) {
    throw new SwitchboardError({
      code: ToolSelectionErrorCode.InvalidArgument,
      message: `createExactIndex: dimensions must be a positive integer, got ${String(dimensions)}. Pass the embedder's dimensions after it has loaded.`,
      context: { dimensions },
    });
  }
  const initialCapacity = Math.max(16, options.initialCapacity ?? 1024);
  const key = options.key ?? 'default';
  const directory = options.persistDir === undefined ? undefined : join(options.persistDir, indexFolderName(key));
  const kernel = createDotProductKernel(dimensions, initialCapacity, options.kernel);
  const { stride } = kernel;

  // Row r holds the vector of idOfRow[r]; removal moves the last row into the hole.
  let idOfRow: string[] = [];
  let rowOf = new Map<string, number>();
  let hashById = new Map<string, string>();

  function checkLength(vector: Float32Array): void {
    if (vector.length !== dimensions) {
      throw new SwitchboardError({
        code: ToolSelectionErrorCode.InvalidArgument,
        message: `Vector has ${vector.length} dimensions; this index holds ${dimensions}. Use the embedder the index was created for.`,
        context: { expected: dimensions, received: vector.length },
      });
    }
  }

  /** Writes `vector`, scaled to unit length (cosine), into `target` at `offset`; a zero vector stays zero. */
  function writeUnit(target: Float32Array, offset: number, vector: Float32Array): void {
    let norm = 0;
    for (let j = 0; j < dimensions; j++) norm += (vector[j] as number) * (vector[j] as number);
    const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let j = 0; j < dimensions; j++) target[offset + j] = (vector[j] as number) * scale;
    target.fill(0, offset + dimensions, offset + stride);
  }

  function add(id: string, vector: Float32Array, hash?: string): void {
    checkLength(vector);
    let row = rowOf.get(id);
    if (row === undefined) {
      row = idOfRow.length;
      if (row >= kernel.capacity) kernel.reserve(kernel.capacity * 2);
      idOfRow.push(id);
      rowOf.set(id, row);
    }
    writeUnit(kernel.rows(), row * stride, vector);
    if (hash === undefined) hashById.delete(id);
    else hashById.set(id, hash);
  }

  function remove(id: string): boolean {
    const row = rowOf.get(id);
    if (row === undefined) return false;
    const last = idOfRow.length - 1;
    if (row !== last) {
      const rows = kernel.rows();
      rows.copyWithin(row * stride, last * stride, (last + 1) * stride);
      const moved = idOfRow[last] as string;
      idOfRow[row] = moved;
      rowOf.set(moved, row);
    }
    idOfRow.pop();
    rowOf.delete(id);
    hashById.delete(id);
    return true;
  }

  function search(vector: Float32Array, searchOptions: { limit?: number } = {}): VectorHit[] {
    checkLength(vector);
    const limit = Math.min(searchOptions.limit ?? 10, idOfRow.length);
    if (limit <= 0) return [];
    writeUnit(kernel.query(), 0, vector);
    const best = topRows(kernel.score(idOfRow.length), limit);
    const hits: VectorHit[] = [];
    for (let index = 0; index < best.rows.length; index++) {
      hits.push({ id: idOfRow[best.rows[index] as number] as string, score: best.scores[index] as number });
    }
    return hits;
  }

  function clear(): void {
    idOfRow = [];
    rowOf = new Map();
    hashById = new Map();
  }

  function save(): void {
    if (!directory) return;
    mkdirSync(directory, { recursive: true });
    const count = idOfRow.length;
    const packed = new Float32Array(count * dimensions);
    const rows = kernel.rows();
    for (let row = 0; row < count; row++) {
      packed.set(rows.subarray(row * stride, row * stride + dimensions), row * dimensions);
    }
    const meta: PersistedMeta = {
      format: 1,
      kind: 'exact',
      key,
      dimensions,
      entries: idOfRow.map((id) => [id, hashById.get(id) ?? '']),
    };
    // Write-then-rename: a crash mid-save leaves the previous index intact. Float32 in the platform's
    // byte order, little-endian on every platform Node runs on.
    writeFileSync(join(directory, `${VECTORS_FILE}.tmp`), new Uint8Array(packed.buffer));
    writeFileSync(join(directory, `${META_FILE}.tmp`), JSON.stringify(meta));
    renameSync(join(directory, `${VECTORS_FILE}.tmp`), join(directory, VECTORS_FILE));
    renameSync(join(directory, `${META_FILE}.tmp`), join(directory, META_FILE));
  }

  function readMeta(): PersistedMeta | undefined {
    if (!directory) return undefined;
    const metaFile = join(directory, META_FILE);
    if (!existsSync(metaFile) || !existsSync(join(directory, VECTORS_FILE))) return undefined;
    try {
      const meta = JSON.parse(readFileSync(metaFile, 'utf8')) as PersistedMeta;
      if (meta.format !== 1 || meta.kind !== 'exact' || meta.key !== key || meta.dimensions !== dimensions)
        return undefined;
      if (!Array.isArray(meta.entries)) throw new Error(`${metaFile} has no entries`);
      return meta;
    } catch {
      // A corrupt or half-written folder is not fatal: the caller re-embeds from scratch.
      rmSync(directory, { recursive: true, force: true });
      return undefined;
    }
  }

  /** Reads `exact.f32` into the kernel's rows: straight into them when rows are not padded. */
  function readVectors(count: number): boolean {
    const file = join(directory as string, VECTORS_FILE);
    const bytes = count * dimensions * 4;
    if (statSync(file).size !== bytes) return false;
    kernel.reserve(Math.max(kernel.capacity, count));
    const rows = kernel.rows();
    const target =
      stride === dimensions
        ? new Uint8Array(rows.buffer, rows.byteOffset, bytes)
        : new Uint8Array(bytes);
    const descriptor = openSync(file, 'r');
    try {
      for (let offset = 0; offset < bytes; ) {
        const read = readSync(descriptor, target, offset, bytes - offset, offset);
        if (read === 0) return false;
        offset += read;
      }
    } finally {
      closeSync(descriptor);
    }
    if (stride !== dimensions) {
      const packed = new Float32Array(target.buffer);
      for (let row = 0; row < count; row++) {
        rows.set(packed.subarray(row * dimensions, (row + 1) * dimensions), row * stride);
        rows.fill(0, row * stride + dimensions, (row + 1) * stride);
      }
    }
    return true;
  }

  function load(): boolean {
    const meta = readMeta();
    if (!meta) return false;
    clear();
    if (!readVectors(meta.entries.length)) {
      // A vectors file cut short: not this index; the caller re-embeds, the next save starts clean.
      rmSync(directory as string, { recursive: true, force: true });
      return false;
    }
    meta.entries.forEach(([id, hash], row) => {
      idOfRow.push(id);
      rowOf.set(id, row);
      if (hash) hashById.set(id, hash);
    });
    return true;
  }

  return {
    specificationVersion: 'v1',
    kind: 'exact',
    description:
      kernel.kind === 'wasm-simd'
        ? 'exact search over every vector (WebAssembly SIMD kernel)'
        : options.kernel === 'javascript'
          ? "exact search over every vector (plain JavaScript, kernel: 'javascript')"
          : 'exact search over every vector (plain JavaScript: WebAssembly SIMD is not available in this process)',
    dimensions,
    get size() {
      return idOfRow.length;
    },
    add,
    remove,
    has: (id) => rowOf.has(id),
    hashOf: (id) => hashById.get(id),
    ids: () => [...idOfRow],
    search,
    save,
    load,
    clear,
  };
}
