/**
 * The default vector index: every stored vector is scored against the query — no graph, no
 * dependency, nothing compiled at install. The scan runs on int8 copies of the vectors in a WebAssembly
 * SIMD kernel (`dot-product-kernel.ts`), then its best candidates, with a margin, are re-scored exactly
 * in float32: the scores are exact cosines and the hits the true nearest neighbours, but for a tie or a
 * near-tie at the margin's edge (at 10,000 tools, the same 64 candidates as the float32 search for
 * 1,052 of 1,053 queries, the other a tie). Where WebAssembly SIMD is off, or with `kernel:
 * 'javascript'`, everything is scored in float32 in JavaScript. Past ~50,000 tools the HNSW index
 * (`createHnswIndex`, on the optional `hnswlib-node`) answers faster. Persisted like the HNSW index:
 * the vectors and a content hash per entry, so that a restart re-embeds only the tools that changed.
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
import type { DotProductKernel } from './dot-product-kernel.js';
import { createDotProductKernel } from './dot-product-kernel.js';
import { ToolSelectionErrorCode } from './tool-selection-error-code.js';
import type { VectorHit, VectorIndex } from './vector-index.js';
import { checkIndexDimensions, indexFolderName } from './vector-index.js';

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
  /**
   * Who scans: the WebAssembly SIMD kernel (int8, then an exact re-score of the best), or plain
   * JavaScript (float32 throughout, ~10× slower). @default 'wasm-simd' (JavaScript where WebAssembly SIMD is off)
   */
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
/** The int8 form the scan runs on (scales, then rows), saved beside the vectors: a restart reads it as is. */
const QUANTISED_FILE = 'exact.i8';

/**
 * The positions of the `limit` best of `scores`, in no order: a min-heap of the best so far, so a
 * score that does not beat its root costs one comparison and one that does costs log(limit) — an
 * insertion into a sorted list cost up to `limit` moves, which scores that rise along the rows (tools of
 * one server, registered together) made the common case. Of equal scores at the edge, the earlier
 * position is kept.
 */
function bestPositions(scores: Float32Array, limit: number): Int32Array {
  const heap = new Int32Array(limit);
  const values = new Float32Array(limit);
  let size = 0;
  let floor = Number.NEGATIVE_INFINITY;
  const count = scores.length;
  for (let position = 0; position < count; position++) {
    const score = scores[position] as number;
    // A tie with the worst kept loses: the earlier position stays.
    if (score <= floor) continue;
    let node: number;
    if (size < limit) {
      // Sift up from the new leaf.
      node = size++;
      while (node > 0) {
        const parent = (node - 1) >> 1;
        if ((values[parent] as number) <= score) break;
        heap[node] = heap[parent] as number;
        values[node] = values[parent] as number;
        node = parent;
      }
    } else {
      // Replace the root and sift down.
      node = 0;
      for (;;) {
        let child = 2 * node + 1;
        if (child >= size) break;
        if (child + 1 < size && (values[child + 1] as number) < (values[child] as number)) child++;
        if ((values[child] as number) >= score) break;
        heap[node] = heap[child] as number;
        values[node] = values[child] as number;
        node = child;
      }
    }
    heap[node] = position;
    values[node] = score;
    if (size === limit) floor = values[0] as number;
  }
  return heap.subarray(0, size);
}

/**
 * Candidates the int8 scan hands to the exact re-score: `limit` and a margin of a quarter as many (at
 * least 16). At 10,000 tools a margin of 16 already gave the float32 search's 64 candidates for 1,052
 * of 1,053 MetaTool queries (the other a tie).
 */
function rescoreWindow(limit: number): number {
  return limit + Math.max(16, Math.ceil(limit / 4));
}

/** Creates an empty exact index (call `load()` to pick up a persisted one). */
export function createExactIndex(options: ExactIndexOptions): VectorIndex {
  const { dimensions } = options;
  checkIndexDimensions('createExactIndex', dimensions);
  const key = options.key ?? 'default';
  const directory =
    options.persistDir === undefined ? undefined : join(options.persistDir, indexFolderName(key));
  const kernel: DotProductKernel | undefined =
    options.kernel === 'javascript'
      ? undefined
      : createDotProductKernel(dimensions, options.initialCapacity ?? 1024);

  // The unit vectors, row after row (the truth the scan approximates, and what is persisted); row r
  // holds idOfRow[r]. A removal moves the last row into the hole.
  let vectors = new Float32Array(Math.max(16, options.initialCapacity ?? 1024) * dimensions);
  let idOfRow: string[] = [];
  let rowOf = new Map<string, number>();
  let hashById = new Map<string, string>();
  const scratch = new Float32Array(dimensions);

  function checkLength(vector: Float32Array): void {
    if (vector.length !== dimensions) {
      throw new SwitchboardError({
        code: ToolSelectionErrorCode.InvalidArgument,
        message: `Vector has ${vector.length} dimensions; this index holds ${dimensions}. Use the embedder the index was created for.`,
        context: { expected: dimensions, received: vector.length },
      });
    }
  }

  /** `vector` scaled to unit length (cosine) into `target` at `offset`; a zero vector stays zero. */
  function writeUnit(target: Float32Array, offset: number, vector: Float32Array): void {
    let norm = 0;
    for (let j = 0; j < dimensions; j++) norm += (vector[j] as number) * (vector[j] as number);
    const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let j = 0; j < dimensions; j++) target[offset + j] = (vector[j] as number) * scale;
  }

  function reserve(rows: number): void {
    if (rows * dimensions > vectors.length) {
      const grown = new Float32Array(Math.max(rows, (vectors.length / dimensions) * 2) * dimensions);
      grown.set(vectors);
      vectors = grown;
    }
    if (kernel && rows > kernel.capacity) kernel.reserve(Math.max(rows, kernel.capacity * 2));
  }

  function add(id: string, vector: Float32Array, hash?: string): void {
    checkLength(vector);
    let row = rowOf.get(id);
    if (row === undefined) {
      row = idOfRow.length;
      reserve(row + 1);
      idOfRow.push(id);
      rowOf.set(id, row);
    }
    writeUnit(vectors, row * dimensions, vector);
    kernel?.setRow(row, vectors.subarray(row * dimensions, (row + 1) * dimensions));
    if (hash === undefined) hashById.delete(id);
    else hashById.set(id, hash);
  }

  function remove(id: string): boolean {
    const row = rowOf.get(id);
    if (row === undefined) return false;
    const last = idOfRow.length - 1;
    if (row !== last) {
      vectors.copyWithin(row * dimensions, last * dimensions, (last + 1) * dimensions);
      kernel?.moveRow(last, row);
      const moved = idOfRow[last] as string;
      idOfRow[row] = moved;
      rowOf.set(moved, row);
    }
    idOfRow.pop();
    rowOf.delete(id);
    hashById.delete(id);
    return true;
  }

  function exactScore(row: number, query: Float32Array): number {
    const offset = row * dimensions;
    // Four accumulators: independent additions the CPU can overlap.
    let a = 0;
    let b = 0;
    let c = 0;
    let d = 0;
    let j = 0;
    for (; j + 3 < dimensions; j += 4) {
      a += (vectors[offset + j] as number) * (query[j] as number);
      b += (vectors[offset + j + 1] as number) * (query[j + 1] as number);
      c += (vectors[offset + j + 2] as number) * (query[j + 2] as number);
      d += (vectors[offset + j + 3] as number) * (query[j + 3] as number);
    }
    for (; j < dimensions; j++) a += (vectors[offset + j] as number) * (query[j] as number);
    return a + b + (c + d);
  }

  /** Every row's exact score, in one loop (the JavaScript kernel's scan). */
  function allScores(count: number): Float32Array {
    const scores = new Float32Array(count);
    const query = scratch;
    const whole = dimensions - (dimensions % 4);
    for (let row = 0, offset = 0; row < count; row++, offset += dimensions) {
      let a = 0;
      let b = 0;
      let c = 0;
      let d = 0;
      for (let j = 0; j < whole; j += 4) {
        a += (vectors[offset + j] as number) * (query[j] as number);
        b += (vectors[offset + j + 1] as number) * (query[j + 1] as number);
        c += (vectors[offset + j + 2] as number) * (query[j + 2] as number);
        d += (vectors[offset + j + 3] as number) * (query[j + 3] as number);
      }
      for (let j = whole; j < dimensions; j++) a += (vectors[offset + j] as number) * (query[j] as number);
      scores[row] = a + b + (c + d);
    }
    return scores;
  }

  function search(vector: Float32Array, searchOptions: { limit?: number } = {}): VectorHit[] {
    checkLength(vector);
    const count = idOfRow.length;
    const limit = Math.min(searchOptions.limit ?? 10, count);
    if (limit <= 0) return [];
    writeUnit(scratch, 0, vector);
    let rows: Int32Array;
    if (kernel) {
      rows = bestPositions(kernel.score(scratch, count), Math.min(count, rescoreWindow(limit)));
    } else {
      rows = bestPositions(allScores(count), limit);
    }
    const ranked = Array.from(rows, (row) => ({ row, score: exactScore(row, scratch) }));
    // By score, then by row: ties resolve alike whichever scorer ran.
    ranked.sort((a, b) => b.score - a.score || a.row - b.row);
    return ranked.slice(0, limit).map(({ row, score }) => ({ id: idOfRow[row] as string, score }));
  }

  function clear(): void {
    idOfRow = [];
    rowOf = new Map();
    hashById = new Map();
  }

  function save(): void {
    if (!directory) return;
    mkdirSync(directory, { recursive: true });
    const meta: PersistedMeta = {
      format: 1,
      kind: 'exact',
      key,
      dimensions,
      entries: idOfRow.map((id) => [id, hashById.get(id) ?? '']),
    };
    // Write-then-rename: a crash mid-save leaves the previous index intact. Float32 in the platform's
    // byte order, little-endian on every platform Node runs on.
    const bytes = new Uint8Array(vectors.buffer, vectors.byteOffset, idOfRow.length * dimensions * 4);
    writeFileSync(join(directory, `${VECTORS_FILE}.tmp`), bytes);
    if (kernel)
      writeFileSync(
        join(directory, `${QUANTISED_FILE}.tmp`),
        Buffer.concat(kernel.quantised(idOfRow.length)),
      );
    writeFileSync(join(directory, `${META_FILE}.tmp`), JSON.stringify(meta));
    renameSync(join(directory, `${VECTORS_FILE}.tmp`), join(directory, VECTORS_FILE));
    if (kernel) renameSync(join(directory, `${QUANTISED_FILE}.tmp`), join(directory, QUANTISED_FILE));
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

  /** Reads all of `file` into `targets`, one after the other; false when its size is not theirs. */
  function readInto(file: string, targets: readonly Uint8Array[]): boolean {
    const bytes = targets.reduce((sum, target) => sum + target.byteLength, 0);
    if (!existsSync(file) || statSync(file).size !== bytes) return false;
    const descriptor = openSync(file, 'r');
    try {
      let position = 0;
      for (const target of targets) {
        for (let offset = 0; offset < target.byteLength; ) {
          const read = readSync(descriptor, target, offset, target.byteLength - offset, position);
          if (read === 0) return false;
          offset += read;
          position += read;
        }
      }
    } finally {
      closeSync(descriptor);
    }
    return true;
  }

  /**
   * Reads `exact.f32` straight into the vectors, and the scan's int8 form from `exact.i8` (quantised
   * again when that file is missing or of another size); false when the vectors are not `count`.
   */
  function readVectors(count: number): boolean {
    reserve(count);
    const target = new Uint8Array(vectors.buffer, vectors.byteOffset, count * dimensions * 4);
    if (!readInto(join(directory as string, VECTORS_FILE), [target])) return false;
    if (kernel && !readInto(join(directory as string, QUANTISED_FILE), kernel.quantisedTarget(count))) {
      for (let row = 0; row < count; row++)
        kernel.setRow(row, vectors.subarray(row * dimensions, (row + 1) * dimensions));
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
    description: kernel
      ? 'every vector scored: an int8 scan by a WebAssembly SIMD kernel, the best re-scored exactly'
      : options.kernel === 'javascript'
        ? "every vector scored exactly in plain JavaScript (kernel: 'javascript')"
        : 'every vector scored exactly in plain JavaScript (WebAssembly SIMD is not available in this process)',
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
