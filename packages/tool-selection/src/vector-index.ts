/**
 * The vector index interface of the dense signal: a plug-in point (`createToolSelector({ index })`) with
 * two built-in implementations — the exact index (`exact-index.ts`, the default: plain WebAssembly, no
 * dependency) and the HNSW index (`hnsw-index.ts`, on the optional `hnswlib-node`). Versioned, so that a
 * future change of shape can coexist with indexes written against this one.
 */
import { SwitchboardError } from '@switchboard/core';
import { ToolSelectionErrorCode } from './tool-selection-error-code.js';

/** One nearest neighbour. */
export interface VectorHit {
  id: string;
  /** Cosine similarity (1 - distance for `cosine`). */
  score: number;
}

/** A vector index keyed by string ids. */
export interface VectorIndex {
  /** Version of this interface; absent on indexes written before it had one, which are read as `'v1'`. */
  readonly specificationVersion?: 'v1';
  /** What the index is, for reports (`'exact'`, `'hnswlib-node'`, or a plug-in's own name). */
  readonly kind?: string;
  /** One line on how it searches, for reports (`switchboard doctor`). */
  readonly description?: string;
  readonly dimensions: number;
  /** Live entries. */
  readonly size: number;
  /** Adds or replaces the vector of `id`; `hash` is stored with it (see {@link VectorIndex.hashOf}). */
  add(id: string, vector: Float32Array, hash?: string): void;
  /** Removes `id`; false when absent. */
  remove(id: string): boolean;
  has(id: string): boolean;
  /** The content hash stored with `id`. */
  hashOf(id: string): string | undefined;
  /** Ids of all live entries. */
  ids(): string[];
  /** The `limit` nearest entries, best first. */
  search(vector: Float32Array, options?: { limit?: number }): VectorHit[];
  /** Writes the index to `persistDir` (no-op without one). */
  save(): void;
  /** Replaces the content with what `persistDir` holds for this key; false when nothing usable is there. */
  load(): boolean;
  /** Removes every entry. */
  clear(): void;
}

/** Throws `INVALID_ARGUMENT` unless `dimensions` is a positive integer; `factory` names the caller. */
export function checkIndexDimensions(factory: string, dimensions: unknown): asserts dimensions is number {
  if (!Number.isInteger(dimensions) || (dimensions as number) <= 0) {
    throw new SwitchboardError({
      code: ToolSelectionErrorCode.InvalidArgument,
      message: `${factory}: dimensions must be a positive integer, got ${String(dimensions)}. Pass the embedder's dimensions after it has loaded.`,
      context: { dimensions },
    });
  }
}

/** Turns a persistence key (model id and dimensions) into a folder name that is safe on every file system. */
export function indexFolderName(key: string): string {
  return key.replace(/[^a-zA-Z0-9._-]+/g, '_').slice(0, 120) || 'default';
}
