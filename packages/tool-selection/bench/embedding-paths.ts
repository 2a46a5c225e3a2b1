/**
 * Embedding-path bench: the offline static model run two ways, each in its own process so that its
 * memory is its own — `js` (createOfflineEmbedder: transformers.js' tokenizer, then mean pooling of
 * the int8 rows in JavaScript) and `onnx` (createTransformersEmbedder on the same folder: the
 * tokenizer pads each batch, onnxruntime runs the graph over every padded position). Per query and
 * batched, short and long queries, a batch of short queries with one long one, the documents of a
 * 10,000-tool index, and RSS.
 *
 *   pnpm --filter @switchboard/tool-selection bench:embedding [--data DIR] [--queries N] [--json]
 */
import { execFileSync } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { percentiles } from '@switchboard/test-helpers';
import type { TransformersEmbedder } from '../src/index.js';
import {
  createOfflineEmbedder,
  createTransformersEmbedder,
  OFFLINE_MODEL_ID,
  OFFLINE_MODELS_DIR,
  offlineDefaultModel,
  toEmbeddingText,
  toToolDocument,
} from '../src/index.js';
import { loadDataset } from './dataset.js';
import { syntheticTools } from './synthetic-tools.js';

const { values: args } = parseArgs({
  options: {
    data: { type: 'string', default: resolve(import.meta.dirname, '../../../../shared/bench/train/bfcl') },
    queries: { type: 'string', default: '256' },
    json: { type: 'boolean', default: false },
    path: { type: 'string' },
  },
});

const paths = ['js', 'onnx'] as const;
type EmbeddingPath = (typeof paths)[number];

/** What one path measured, in µs per text unless named otherwise. */
interface PathFigures {
  path: EmbeddingPath;
  loadMs: number;
  rssLoadedMb: number;
  singleShort: { p50: number; p95: number };
  singleLong: { p50: number; p95: number };
  batchedShort: number;
  batchedLong: number;
  /** 63 short queries and one long one in a batch. */
  batchedMixed: number;
  documents: { tools: number; ms: number };
  rssEndMb: number;
  peakRssMb: number;
}

const rssMb = () => Math.round(process.memoryUsage().rss / 1048576);

function createPathEmbedder(path: EmbeddingPath): TransformersEmbedder {
  if (path === 'js') return createOfflineEmbedder();
  return createTransformersEmbedder({
    model: OFFLINE_MODEL_ID,
    localModelPath: OFFLINE_MODELS_DIR,
    allowRemote: false,
    quantized: offlineDefaultModel()?.quantized ?? true,
    fallback: false,
  });
}

async function perQuery(embedder: TransformersEmbedder, texts: readonly string[]) {
  const durations: number[] = [];
  for (const text of texts) {
    const start = performance.now();
    await embedder.embed([text]);
    durations.push(performance.now() - start);
  }
  const { p50Ms, p95Ms } = percentiles(durations);
  return { p50: Math.round(p50Ms * 1000), p95: Math.round(p95Ms * 1000) };
}

/** µs per text, embedding `texts` in one call, best of three (the spread is the machine's). */
async function batched(embedder: TransformersEmbedder, texts: readonly string[]): Promise<number> {
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 3; round++) {
    const start = performance.now();
    await embedder.embed(texts);
    best = Math.min(best, performance.now() - start);
  }
  return Math.round((best * 1000) / texts.length);
}

async function measurePath(path: EmbeddingPath): Promise<PathFigures> {
  const dataset = loadDataset(args.data as string);
  const count = Number(args.queries);
  const sorted = dataset.queries.map((item) => item.query).sort((a, b) => a.length - b.length);
  const short = sorted.slice(0, count);
  const long = sorted.slice(-count);
  const mixed = [...short.slice(0, 63), long[long.length - 1] as string];
  const embedder = createPathEmbedder(path);
  const loadStart = performance.now();
  await embedder.load();
  const loadMs = Math.round(performance.now() - loadStart);
  const rssLoadedMb = rssMb();
  await embedder.embed(short.slice(0, 50)); // warm-up
  const figures = {
    singleShort: await perQuery(embedder, short),
    singleLong: await perQuery(embedder, long),
    batchedShort: await batched(embedder, short),
    batchedLong: await batched(embedder, long),
    batchedMixed: await batched(embedder, mixed),
  };
  const tools = [...dataset.tools, ...syntheticTools(Math.max(0, 10_000 - dataset.tools.length))].slice(
    0,
    10_000,
  );
  const documents = tools.map((tool) =>
    toEmbeddingText(
      toToolDocument({
        ...tool,
        ...(tool.server_description ? { meta: { serverDescription: tool.server_description } } : {}),
      }),
    ),
  );
  const documentsStart = performance.now();
  await embedder.embed(documents);
  const documentsMs = Math.round(performance.now() - documentsStart);
  return {
    path,
    loadMs,
    rssLoadedMb,
    ...figures,
    documents: { tools: documents.length, ms: documentsMs },
    rssEndMb: rssMb(),
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  };
}

async function main(): Promise<void> {
  if (args.path) {
    if (!paths.includes(args.path as EmbeddingPath))
      throw new Error(`--path must be js or onnx, not ${args.path}`);
    process.stdout.write(`${JSON.stringify(await measurePath(args.path as EmbeddingPath))}\n`);
    return;
  }
  if (!offlineDefaultModel())
    throw new Error(
      'the offline model folder is missing: restore packages/tool-selection/models with git checkout',
    );
  const dataset = loadDataset(args.data as string);
  const lengths = dataset.queries.map((item) => item.query.length).sort((a, b) => a - b);
  const count = Math.min(Number(args.queries), lengths.length);
  const log = (line: string) => (args.json ? process.stderr : process.stdout).write(`${line}\n`);
  log(`machine: ${availableParallelism()} cores, load average ${loadavg()[0]?.toFixed(1)} at start`);
  log(
    `dataset ${dataset.name}: ${count} shortest queries (${lengths[0]}–${lengths[count - 1]} characters), ${count} longest (${lengths[lengths.length - count]}–${lengths[lengths.length - 1]})`,
  );
  const results: PathFigures[] = [];
  for (const path of paths) {
    // A process per path: onnxruntime's arena and the model's weights stay out of the other's RSS.
    const output = execFileSync(
      process.execPath,
      [
        ...process.execArgv,
        import.meta.filename,
        '--path',
        path,
        '--data',
        args.data as string,
        '--queries',
        String(count),
      ],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 20 },
    );
    results.push(JSON.parse(output.trim().split('\n').pop() as string) as PathFigures);
  }
  log(
    'path  load    RSS   | one query: short p50  p95   long p50   p95 | batched: short  long  63 short + 1 long | 10,000 documents | RSS end  peak',
  );
  for (const row of results) {
    const us = (value: number) => `${String(value).padStart(6)} µs`;
    log(
      `${row.path.padEnd(5)} ${String(row.loadMs).padStart(4)} ms ${String(row.rssLoadedMb).padStart(4)} MB | ${us(row.singleShort.p50)} ${us(row.singleShort.p95)} ${us(row.singleLong.p50)} ${us(row.singleLong.p95)} | ${us(row.batchedShort)} ${us(row.batchedLong)} ${us(row.batchedMixed)} | ${String(row.documents.ms).padStart(6)} ms | ${String(row.rssEndMb).padStart(4)} MB ${String(row.peakRssMb).padStart(4)} MB`,
    );
  }
  log('batched figures are µs per query (best of three calls); one query: a call per query');
  if (args.json)
    process.stdout.write(`${JSON.stringify({ dataset: dataset.name, queries: count, results })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
