/**
 * Vector index bench: the candidates for the dense signal's index, on the real vectors of 10,000 tool
 * documents (MetaTool padded with synthetic tools, embedded by the offline model) and MetaTool queries.
 * For each: whether it loads here at all, how it installs, the time to add every vector, search
 * latency for the selector's 64 candidates (p50, p95), Recall@8 against the exact answer, and save +
 * load (the index part of a warm restart). Searches run in rounds over every candidate in turn.
 *
 * - `exact (WebAssembly SIMD)` — this package's default (`createExactIndex`), no dependency.
 * - `exact (JavaScript)` — the same with the plain-JavaScript kernel (four accumulators).
 * - `hnswlib-node` 3.0.0 — the index before (native, node-gyp compile at install); an opt-in now.
 * - `usearch` 2.26.2 — native, prebuilt binaries in its npm package (`engines: node >= 22`).
 * - `hnswlib-wasm` 0.8.2 — WebAssembly HNSW.
 *
 *   pnpm --filter @switchboard/tool-selection bench:index [--tools 10000] [--queries 1000] [--json]
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { percentiles } from '@switchboard/test-helpers';
import { errorReason } from '../src/error-reason.js';
import type { VectorIndex } from '../src/index.js';
import {
  createExactIndex,
  createHnswIndex,
  createOfflineEmbedder,
  toEmbeddingText,
  toToolDocument,
} from '../src/index.js';
import { loadDataset } from './dataset.js';
import { toolsAtScale } from './dataset-at-scale.js';

const { values: args } = parseArgs({
  options: {
    data: { type: 'string', default: resolve(import.meta.dirname, '../../../../shared/bench/metatool') },
    tools: { type: 'string', default: '10000' },
    queries: { type: 'string', default: '1000' },
    json: { type: 'boolean', default: false },
  },
});

const log = (line: string) => (args.json ? process.stderr : process.stdout).write(`${line}\n`);
const require = createRequire(import.meta.url);
const CANDIDATES = 64;

/** What the bench needs of an index: add, search, and a save + load round trip. */
interface Candidate {
  name: string;
  install: string;
  add(id: number, vector: Float32Array): void;
  search(vector: Float32Array, limit: number): number[];
  /** Saves into `folder`, then loads a fresh copy from it; undefined where the candidate cannot persist. */
  roundTrip(folder: string): { saveMs: number; loadMs: number } | undefined;
}

const timed = (run: () => void) => {
  const start = performance.now();
  run();
  return Math.round(performance.now() - start);
};

function fromVectorIndex(name: string, install: string, create: (dir?: string) => VectorIndex): Candidate {
  let index = create();
  return {
    name,
    install,
    add: (id, vector) => index.add(String(id), vector),
    search: (vector, limit) => index.search(vector, { limit }).map((hit) => Number(hit.id)),
    roundTrip(folder) {
      // The same entries in an index that persists into `folder` (adding is not what is timed).
      const persisted = create(folder);
      for (const id of index.ids()) persisted.add(id, stored[Number(id)] as Float32Array);
      index = persisted;
      const saveMs = timed(() => persisted.save());
      const fresh = create(folder);
      let loaded = false;
      const loadMs = timed(() => {
        loaded = fresh.load();
      });
      if (!loaded) throw new Error(`${name}: the saved index did not load`);
      return { saveMs, loadMs };
    },
  };
}

let stored: Float32Array[] = [];

/** Cosine of a query with stored vector `id` (the offline model's vectors are unit length). */
function dot(query: Float32Array, id: number): number {
  const vector = stored[id] as Float32Array;
  let sum = 0;
  for (let j = 0; j < vector.length; j++) sum += (vector[j] as number) * (query[j] as number);
  return sum;
}

function folderBytes(folder: string): number {
  let total = 0;
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name)).size;
  }
  return total;
}

/** usearch's Index as a candidate (cosine, connectivity 16, expansion 200 / 64, like the HNSW index). */
function usearchCandidate(dimensions: number): Candidate {
  const usearch = require('usearch') as {
    Index: new (
      config: Record<string, unknown>,
    ) => {
      add(key: bigint, vector: Float32Array): void;
      search(vector: Float32Array, k: number, threads: number): { keys: BigUint64Array };
      save(path: string): void;
      load(path: string): void;
    };
    MetricKind: { Cos: unknown };
    ScalarKind: { F32: unknown };
  };
  const config = {
    dimensions,
    metric: usearch.MetricKind.Cos,
    quantization: usearch.ScalarKind.F32,
    connectivity: 16,
    expansion_add: 200,
    expansion_search: CANDIDATES,
  };
  const index = new usearch.Index(config);
  return {
    name: 'usearch 2.26.2',
    install: 'native, prebuilt in the package (26 MB installed); engines node >= 22',
    add: (id, vector) => index.add(BigInt(id), vector),
    search: (vector, limit) => Array.from(index.search(vector, limit, 1).keys, Number),
    roundTrip(folder) {
      const file = join(folder, 'index.usearch');
      const saveMs = timed(() => index.save(file));
      const loadMs = timed(() => new usearch.Index(config).load(file));
      return { saveMs, loadMs };
    },
  };
}

async function hnswlibWasmCandidate(dimensions: number): Promise<Candidate> {
  // Its package.json has only a `module` field: Node resolves the file, not the name.
  const { loadHnswlib } = (await import('hnswlib-wasm/dist/hnswlib.js' as string)) as {
    loadHnswlib(): Promise<{
      HierarchicalNSW: new (
        space: string,
        dimensions: number,
        file: string,
      ) => {
        initIndex(max: number, m: number, efConstruction: number, seed: number): void;
        setEfSearch(ef: number): void;
        addPoint(vector: Float32Array, label: number, replace: boolean): void;
        searchKnn(vector: Float32Array, k: number, filter: undefined): { neighbors: number[] };
      };
    }>;
  };
  const library = await loadHnswlib();
  const index = new library.HierarchicalNSW('cosine', dimensions, '');
  index.initIndex(Number(args.tools), 16, 200, 100);
  index.setEfSearch(CANDIDATES);
  return {
    name: 'hnswlib-wasm 0.8.2',
    install: 'WebAssembly (3 MB)',
    add: (id, vector) => index.addPoint(vector, id, false),
    search: (vector, limit) => index.searchKnn(vector, limit, undefined).neighbors,
    // Its files live in Emscripten's in-memory (or IndexedDB) file system, not on disk.
    roundTrip: () => undefined,
  };
}

interface Row {
  name: string;
  install: string;
  loads: boolean;
  error?: string;
  addMs?: number;
  search?: { p50Ms: number; p95Ms: number };
  recall8?: number;
  saveMs?: number;
  loadMs?: number;
  bytes?: number;
}

async function main(): Promise<void> {
  const dataset = loadDataset(args.data as string);
  const count = Number(args.tools);
  const tools = toolsAtScale(dataset.tools, count);
  const embedder = createOfflineEmbedder();
  const info = await embedder.load();
  stored = await embedder.embed(tools.map((tool) => toEmbeddingText(toToolDocument(tool))));
  const step = Math.max(1, Math.floor(dataset.queries.length / Number(args.queries)));
  const queryVectors = (
    await embedder.embed(
      dataset.queries.filter((_, position) => position % step === 0).map((item) => item.query),
    )
  ).slice(0, Number(args.queries));
  log(`machine: ${availableParallelism()} cores, load average ${loadavg()[0]?.toFixed(1)} at start`);
  log(
    `${tools.length} tool vectors (${info.dimensions} dims, offline model), ${queryVectors.length} queries, top ${CANDIDATES}`,
  );

  const dimensions = info.dimensions;
  const makers: Array<[string, string, () => Promise<Candidate>]> = [
    [
      'exact (WebAssembly SIMD)',
      'built in, no dependency',
      async () =>
        fromVectorIndex('exact (WebAssembly SIMD)', 'built in, no dependency', (dir) =>
          createExactIndex({ dimensions, ...(dir ? { persistDir: dir } : {}) }),
        ),
    ],
    [
      'exact (JavaScript)',
      'built in, no dependency',
      async () =>
        fromVectorIndex('exact (JavaScript)', 'built in, no dependency', (dir) =>
          createExactIndex({ dimensions, kernel: 'javascript', ...(dir ? { persistDir: dir } : {}) }),
        ),
    ],
    [
      'hnswlib-node 3.0.0',
      'native, compiled by node-gyp at install (Python, C++ compiler, Node headers)',
      async () =>
        fromVectorIndex(
          'hnswlib-node 3.0.0',
          'native, compiled by node-gyp at install (Python, C++ compiler, Node headers)',
          (dir) => createHnswIndex({ dimensions, ...(dir ? { persistDir: dir } : {}) }),
        ),
    ],
    [
      'usearch 2.26.2',
      'native, prebuilt in the package; engines node >= 22',
      async () => usearchCandidate(dimensions),
    ],
    ['hnswlib-wasm 0.8.2', 'WebAssembly', () => hnswlibWasmCandidate(dimensions)],
  ];

  const rows: Row[] = [];
  const live: Array<{ candidate: Candidate; row: Row; durations: number[]; found: number[][] }> = [];
  for (const [name, install, make] of makers) {
    try {
      const candidate = await make();
      const start = performance.now();
      stored.forEach((vector, id) => {
        candidate.add(id, vector);
      });
      const row: Row = {
        name,
        install: candidate.install,
        loads: true,
        addMs: Math.round(performance.now() - start),
      };
      rows.push(row);
      live.push({ candidate, row, durations: [], found: [] });
    } catch (error) {
      rows.push({ name, install, loads: false, error: errorReason(error) });
    }
  }
  // Warm-up, then rounds of 50 queries over every candidate.
  for (const entry of live)
    for (const vector of queryVectors.slice(0, 50)) entry.candidate.search(vector, CANDIDATES);
  for (let start = 0; start < queryVectors.length; start += 50) {
    for (const entry of live) {
      for (const vector of queryVectors.slice(start, start + 50)) {
        const began = performance.now();
        entry.found.push(entry.candidate.search(vector, CANDIDATES));
        entry.durations.push(performance.now() - began);
      }
    }
  }
  const truth = live[0]?.found ?? [];
  for (const entry of live) {
    entry.row.search = percentiles(entry.durations);
    // A hit counts when it is as close as the exact 8th nearest: ties (the synthetic tools hold
    // near-duplicates) are not misses.
    let hits = 0;
    entry.found.forEach((ids, position) => {
      const query = queryVectors[position] as Float32Array;
      const eighth = Math.min(...(truth[position] ?? []).slice(0, 8).map((id) => dot(query, id)));
      for (const id of ids.slice(0, 8)) if (dot(query, id) >= eighth - 1e-6) hits++;
    });
    entry.row.recall8 = Math.round((1000 * hits) / (8 * Math.max(1, entry.found.length))) / 10;
    const folder = mkdtempSync(join(tmpdir(), 'tool-selection-index-'));
    try {
      const trip = entry.candidate.roundTrip(folder);
      if (trip) Object.assign(entry.row, trip, { bytes: folderBytes(folder) });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }

  const reference = rows.find((row) => row.name.startsWith('hnswlib-node'))?.search?.p50Ms ?? 1;
  log(
    '\nindex                      | add all   | search p50  p95                          | Recall@8 | save / load (file)        | install',
  );
  for (const row of rows) {
    if (!row.loads) {
      log(`${row.name.padEnd(26)} | does not load here: ${row.error} | ${row.install}`);
      continue;
    }
    const search = row.search as { p50Ms: number; p95Ms: number };
    log(
      `${row.name.padEnd(26)} | ${String(row.addMs).padStart(6)} ms | ${search.p50Ms.toFixed(3)} ${search.p95Ms.toFixed(3)} ms (${(search.p50Ms / reference).toFixed(2)}× hnswlib-node) | ${String(row.recall8).padStart(6)} % | ${row.loadMs === undefined ? 'in memory only'.padEnd(25) : `${row.saveMs} / ${row.loadMs} ms (${((row.bytes ?? 0) / 1048576).toFixed(1)} MB)`.padEnd(25)} | ${row.install}`,
    );
  }
  log(
    `(Recall@8: the share of a candidate's 8 nearest that are as close as the exact 8th nearest; load average ${loadavg()[0]?.toFixed(1)} at the end)`,
  );
  if (args.json)
    process.stdout.write(`${JSON.stringify({ tools: tools.length, queries: queryVectors.length, rows })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
