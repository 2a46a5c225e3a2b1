/**
 * An HNSW vector index on `hnswlib-node`: add, update and remove by string id, growth by resizing
 * (never rebuilding), and persistence to disk with the content hash of each entry, so that a restart
 * with the same embedder re-embeds only the documents that changed.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { SwitchboardError } from '@switchboard/core';

/** Options of {@link createHnswIndex}. */
export interface HnswIndexOptions {
  /** Vector length. */
  dimensions: number;
  /** Distance. Vectors are unit length, so `cosine` and `ip` rank alike. @default 'cosine' */
  space?: 'cosine' | 'ip' | 'l2';
  /** Links per node. @default 16 */
  M?: number;
  /** Candidate list size while inserting. @default 200 */
  efConstruction?: number;
  /** Candidate list size while searching (raised to the requested `limit` when smaller). @default 64 */
  ef?: number;
  /** Capacity reserved up front; the index doubles it when full. @default 1024 */
  initialCapacity?: number;
  /** Folder to persist into; no persistence when absent. */
  persistDir?: string;
  /**
   * What the stored vectors depend on (embedder model id and dimensions): a persisted index with a
   * different key is ignored, so vectors of different models are never mixed. @default 'default'
   */
  key?: string;
  /** Seed of the level generator, for reproducible graphs. @default 100 */
  randomSeed?: number;
}

/** One nearest neighbour. */
export interface VectorHit {
  id: string;
  /** Cosine similarity (1 - distance for `cosine`). */
  score: number;
}

/** A vector index keyed by string ids. */
export interface VectorIndex {
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

interface HnswNative {
  initIndex(options: {
    maxElements: number;
    m?: number;
    efConstruction?: number;
    randomSeed?: number;
    allowReplaceDeleted?: boolean;
  }): void;
  readIndexSync(filename: string, allowReplaceDeleted?: boolean): void;
  writeIndexSync(filename: string): void;
  resizeIndex(newMaxElements: number): void;
  addPoint(point: number[], label: number, replaceDeleted?: boolean): void;
  markDelete(label: number): void;
  searchKnn(point: number[], k: number): { distances: number[]; neighbors: number[] };
  getMaxElements(): number;
  getCurrentCount(): number;
  setEf(ef: number): void;
}

interface PersistedMeta {
  format: 1;
  key: string;
  dimensions: number;
  space: string;
  nextLabel: number;
  deleted: number;
  entries: Array<[id: string, label: number, hash: string]>;
}

// hnswlib-node is a CommonJS native addon: load it lazily so importing this package stays cheap.
const require = createRequire(import.meta.url);
let hnswlib: { HierarchicalNSW: new (space: string, dimensions: number) => HnswNative } | undefined;
function loadHnswlib() {
  hnswlib ??= require('hnswlib-node') as typeof hnswlib;
  return hnswlib as NonNullable<typeof hnswlib>;
}

/** Turns a key into a folder name that is safe on every file system. */
function folderName(key: string): string {
  return key.replace(/[^a-zA-Z0-9._-]+/g, '_').slice(0, 120) || 'default';
}

/** Creates an empty HNSW index (call `load()` to pick up a persisted one). */
export function createHnswIndex(options: HnswIndexOptions): VectorIndex {
  const dimensions = options.dimensions;
  if (!Number.isInteger(dimensions) || dimensions <= 0) {
    throw new SwitchboardError({
      code: 'INVALID_ARGUMENT',
      message: `createHnswIndex: dimensions must be a positive integer, got ${String(dimensions)}. Pass the embedder's dimensions after it has loaded.`,
      context: { dimensions },
    });
  }
  const space = options.space ?? 'cosine';
  const M = options.M ?? 16;
  const efConstruction = options.efConstruction ?? 200;
  const ef = options.ef ?? 64;
  const initialCapacity = Math.max(16, options.initialCapacity ?? 1024);
  const key = options.key ?? 'default';
  const directory = options.persistDir === undefined ? undefined : join(options.persistDir, folderName(key));

  let native: HnswNative;
  let labelById = new Map<string, number>();
  let idByLabel = new Map<number, string>();
  let hashById = new Map<string, string>();
  let nextLabel = 0;
  // Marked-deleted slots: hnswlib reuses them on the next insert (allowReplaceDeleted).
  let deleted = 0;
  let currentEf = ef;

  function fresh(): void {
    native = new (loadHnswlib().HierarchicalNSW)(space, dimensions);
    native.initIndex({
      maxElements: initialCapacity,
      m: M,
      efConstruction,
      randomSeed: options.randomSeed ?? 100,
      allowReplaceDeleted: true,
    });
    native.setEf(ef);
    currentEf = ef;
    labelById = new Map();
    idByLabel = new Map();
    hashById = new Map();
    nextLabel = 0;
    deleted = 0;
  }
  fresh();

  function toArray(vector: Float32Array): number[] {
    if (vector.length !== dimensions) {
      throw new SwitchboardError({
        code: 'INVALID_ARGUMENT',
        message: `Vector has ${vector.length} dimensions; this index holds ${dimensions}. Use the embedder the index was created for.`,
        context: { expected: dimensions, received: vector.length },
      });
    }
    return Array.from(vector);
  }

  function add(id: string, vector: Float32Array, hash?: string): void {
    const point = toArray(vector);
    const existing = labelById.get(id);
    if (existing !== undefined) {
      // Same label: hnswlib updates the point in place and repairs its links.
      native.addPoint(point, existing);
    } else {
      if (deleted === 0 && native.getCurrentCount() >= native.getMaxElements()) {
        native.resizeIndex(native.getMaxElements() * 2);
      }
      const label = nextLabel++;
      native.addPoint(point, label, deleted > 0);
      if (deleted > 0) deleted--;
      labelById.set(id, label);
      idByLabel.set(label, id);
    }
    if (hash === undefined) hashById.delete(id);
    else hashById.set(id, hash);
  }

  function remove(id: string): boolean {
    const label = labelById.get(id);
    if (label === undefined) return false;
    native.markDelete(label);
    deleted++;
    labelById.delete(id);
    idByLabel.delete(label);
    hashById.delete(id);
    return true;
  }

  function search(vector: Float32Array, searchOptions: { limit?: number } = {}): VectorHit[] {
    const limit = Math.min(searchOptions.limit ?? 10, labelById.size);
    if (limit <= 0) return [];
    const wantedEf = Math.max(ef, limit);
    if (wantedEf !== currentEf) {
      native.setEf(wantedEf);
      currentEf = wantedEf;
    }
    const result = native.searchKnn(toArray(vector), limit);
    const hits: VectorHit[] = [];
    for (let index = 0; index < result.neighbors.length; index++) {
      const id = idByLabel.get(result.neighbors[index] as number);
      if (id === undefined) continue;
      const distance = result.distances[index] as number;
      hits.push({ id, score: space === 'l2' ? 1 - distance / 2 : 1 - distance });
    }
    return hits;
  }

  function save(): void {
    if (!directory) return;
    mkdirSync(directory, { recursive: true });
    const meta: PersistedMeta = {
      format: 1,
      key,
      dimensions,
      space,
      nextLabel,
      deleted,
      entries: [...labelById].map(([id, label]) => [id, label, hashById.get(id) ?? '']),
    };
    // Write-then-rename: a crash mid-save leaves the previous index intact.
    native.writeIndexSync(join(directory, 'index.hnsw.tmp'));
    writeFileSync(join(directory, 'meta.json.tmp'), JSON.stringify(meta));
    renameSync(join(directory, 'index.hnsw.tmp'), join(directory, 'index.hnsw'));
    renameSync(join(directory, 'meta.json.tmp'), join(directory, 'meta.json'));
  }

  function load(): boolean {
    if (!directory) return false;
    const metaFile = join(directory, 'meta.json');
    const indexFile = join(directory, 'index.hnsw');
    if (!existsSync(metaFile) || !existsSync(indexFile)) return false;
    let meta: PersistedMeta;
    try {
      meta = JSON.parse(readFileSync(metaFile, 'utf8')) as PersistedMeta;
    } catch {
      return false;
    }
    if (meta.format !== 1 || meta.key !== key || meta.dimensions !== dimensions || meta.space !== space)
      return false;
    try {
      const loaded = new (loadHnswlib().HierarchicalNSW)(space, dimensions);
      loaded.readIndexSync(indexFile, true);
      native = loaded;
    } catch {
      // A corrupt or foreign file is not fatal: the caller re-embeds from scratch.
      rmSync(directory, { recursive: true, force: true });
      fresh();
      return false;
    }
    native.setEf(ef);
    currentEf = ef;
    labelById = new Map();
    idByLabel = new Map();
    hashById = new Map();
    for (const [id, label, hash] of meta.entries) {
      labelById.set(id, label);
      idByLabel.set(label, id);
      if (hash) hashById.set(id, hash);
    }
    nextLabel = meta.nextLabel;
    deleted = meta.deleted;
    return true;
  }

  return {
    dimensions,
    get size() {
      return labelById.size;
    },
    add,
    remove,
    has: (id) => labelById.has(id),
    hashOf: (id) => hashById.get(id),
    ids: () => [...labelById.keys()],
    search,
    save,
    load,
    clear: fresh,
  };
}
