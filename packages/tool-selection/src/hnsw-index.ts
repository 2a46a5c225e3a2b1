/**
 * An HNSW vector index on `hnswlib-node` (an optional peer dependency: a native addon compiled by
 * node-gyp at install): add, update and remove by string id, growth by resizing (never rebuilding),
 * and persistence to disk with the content hash of each entry, so that a restart with the same
 * embedder re-embeds only the documents that changed. Opt-in (`index: { kind: 'hnsw' }`): the default
 * is the exact index, which needs no compiler; HNSW answers faster past ~50,000 tools.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SwitchboardError } from '@switchboard/core';
import { requireOptional } from './optional-dependency.js';
import { ToolSelectionErrorCode } from './tool-selection-error-code.js';
import type { VectorHit, VectorIndex } from './vector-index.js';
import { checkIndexDimensions, indexFolderName } from './vector-index.js';

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

type Hnswlib = { HierarchicalNSW: new (space: string, dimensions: number) => HnswNative };

// hnswlib-node is a CommonJS native addon: loaded when an HNSW index is created, so that importing
// this package stays cheap and works where the addon was never built.
let hnswlib: Hnswlib | undefined;

/** `hnswlib-node`, or `OPTIONAL_DEPENDENCY_MISSING` saying how to install it. */
function loadHnswlib(): Hnswlib {
  hnswlib ??= requireOptional<Hnswlib>({
    name: 'hnswlib-node',
    range: '^3.0.0',
    neededBy: 'The HNSW vector index',
    installNote:
      'it compiles with node-gyp at install: Python, a C++ compiler and the Node headers, which node-gyp downloads from nodejs.org unless npm_config_nodedir points at them',
    alternative:
      "Or leave the index to the default exact index (index: { kind: 'exact' }), which needs neither.",
  });
  return hnswlib;
}

/** Creates an empty HNSW index (call `load()` to pick up a persisted one). */
export function createHnswIndex(options: HnswIndexOptions): VectorIndex {
  const dimensions = options.dimensions;
  checkIndexDimensions('createHnswIndex', dimensions);
  const space = options.space ?? 'cosine';
  const M = options.M ?? 16;
  const efConstruction = options.efConstruction ?? 200;
  const ef = options.ef ?? 64;
  const initialCapacity = Math.max(16, options.initialCapacity ?? 1024);
  const key = options.key ?? 'default';
  const directory =
    options.persistDir === undefined ? undefined : join(options.persistDir, indexFolderName(key));

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
        code: ToolSelectionErrorCode.InvalidArgument,
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
    specificationVersion: 'v1',
    kind: 'hnswlib-node',
    description: `approximate search in an HNSW graph (hnswlib-node; M ${M}, efConstruction ${efConstruction}, ef ${ef})`,
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
