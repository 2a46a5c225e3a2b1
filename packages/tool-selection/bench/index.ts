/**
 * Tool-selection bench: quality (Recall@1/5/8, MRR, nDCG@10) of bm25, dense and hybrid rankings over
 * every query of a dataset; select() latency at several scales, query embedding included, against a
 * brute-force baseline measured in the same run; cold build and warm restart of the persisted index;
 * RSS after each scale and the peak so far (the memory figures of the README).
 *
 *   pnpm --filter @switchboard/tool-selection bench --data DIR [--json] [--scale 200,1000,10000,100000]
 *     [--model ID --model-path DIR] [--method score|rrf] [--dense-weight W] [--threshold T]
 *     [--candidates N] [--latency-queries N] [--tune] [--documents model|teacher]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { ToolRegistry } from '@switchboard/core';
import type { Quality } from '@switchboard/test-helpers';
import { createQualityAccumulator, percentiles, selectionQuality } from '@switchboard/test-helpers';
import type { FusionOptions, SelectionSignals, TransformersEmbedder } from '../src/index.js';
import {
  createOfflineEmbedder,
  createToolSelector,
  createTransformersEmbedder,
  fuseRankings,
  toEmbeddingText,
  toToolDocument,
} from '../src/index.js';
import type { DatasetTool } from './dataset.js';
import { loadDataset } from './dataset.js';
import { everyNth, registryOf, toolsAtScale } from './dataset-at-scale.js';

const { values: args } = parseArgs({
  options: {
    data: { type: 'string', default: resolve(import.meta.dirname, '../../../../shared/bench/metatool') },
    json: { type: 'boolean', default: false },
    scale: { type: 'string', default: '200,1000,10000' },
    model: { type: 'string' },
    'model-path': { type: 'string' },
    quantized: { type: 'boolean', default: false },
    method: { type: 'string' },
    'dense-weight': { type: 'string' },
    threshold: { type: 'string' },
    candidates: { type: 'string' },
    'latency-queries': { type: 'string', default: '1000' },
    tune: { type: 'boolean', default: false },
    documents: { type: 'string', default: 'model' },
  },
});

const log = (line: string) => {
  if (!args.json) process.stdout.write(`${line}\n`);
  else process.stderr.write(`${line}\n`);
};

function createBenchEmbedder(): TransformersEmbedder {
  if (args.model && args['model-path']) {
    return createTransformersEmbedder({
      model: args.model,
      localModelPath: args['model-path'],
      allowRemote: false,
      quantized: args.quantized,
      fallback: false,
    });
  }
  if (args.model) return createTransformersEmbedder({ model: args.model });
  // The offline default is what the targets are measured with (and the selector's default).
  if (args.documents !== 'model' && args.documents !== 'teacher')
    throw new Error(`--documents must be model or teacher, not ${args.documents}`);
  return createOfflineEmbedder({ documents: args.documents });
}

function fusionFromArgs(): FusionOptions {
  return {
    ...(args.method ? { method: args.method as 'score' | 'rrf' } : {}),
    ...(args['dense-weight'] ? { denseWeight: Number(args['dense-weight']) } : {}),
    ...(args.threshold ? { denseThreshold: Number(args.threshold) } : {}),
    ...(args.candidates ? { candidates: Number(args.candidates) } : {}),
  };
}

// CPU time next to wall time: on a shared machine the wall clock also counts other processes' turns.
function cpuMs(usage: NodeJS.CpuUsage): number {
  return Math.round((usage.user + usage.system) / 1000);
}

async function main(): Promise<void> {
  const dataset = loadDataset(args.data as string);
  const scales = (args.scale as string)
    .split(',')
    .map((value) => Number.parseInt(value, 10))
    .filter((value) => value > 0);
  const fusion = fusionFromArgs();
  const embedder = createBenchEmbedder();
  const modelStart = performance.now();
  const embedderInfo = await embedder.load();
  const modelLoadMs = performance.now() - modelStart;
  log(`machine: ${availableParallelism()} cores, load average ${loadavg()[0]?.toFixed(1)} at start`);
  log(`dataset ${dataset.name}: ${dataset.tools.length} tools, ${dataset.queries.length} queries`);
  log(
    `embedder ${embedderInfo.modelId} (${embedderInfo.dimensions} dims${embedderInfo.fallbackReason ? `, fallback: ${embedderInfo.fallbackReason}` : ''}), loaded in ${modelLoadMs.toFixed(0)} ms`,
  );

  // --- quality over every query ---
  const registry = registryOf(dataset.tools);
  // The cache holds every query: dense and hybrid rankings share one batched embedding pass.
  const queries = dataset.queries.map((item) => item.query);
  const selector = createToolSelector({ registry, embedder, fusion, queryCacheSize: queries.length + 1 });
  await selector.ready();
  const embedStart = performance.now();
  await selector.selectMany(queries, { k: 1, alwaysInclude: [], signals: 'dense' });
  const embedMs = performance.now() - embedStart;
  log(
    `embedded ${queries.length} queries in ${(embedMs / 1000).toFixed(1)} s (${((embedMs / queries.length) * 1000).toFixed(0)} µs each, batched)`,
  );

  const quality = {} as Record<'bm25' | 'dense' | 'hybrid', Quality>;
  // For --tune: each query's dense and lexical rankings as [name, score] pairs.
  const rankings: Record<'dense' | 'lexical', Array<Array<[string, number]>>> = { dense: [], lexical: [] };
  const qualityStart = performance.now();
  for (const [label, signals] of [
    ['bm25', 'lexical'],
    ['dense', 'dense'],
    ['hybrid', 'hybrid'],
  ] as const) {
    quality[label] = await selectionQuality(
      (chunk) =>
        selector.selectMany(chunk, { k: 64, alwaysInclude: [], signals: signals as SelectionSignals }),
      dataset.queries,
      {
        onRanked: (selected) => {
          if (!args.tune || signals === 'hybrid') return;
          rankings[signals].push(
            selected.map((item) => [
              item.tool.originalName,
              (signals === 'dense' ? item.signals.dense?.score : item.signals.lexical?.score) ?? 0,
            ]),
          );
        },
      },
    );
  }
  log(
    `quality over all ${queries.length} queries in ${((performance.now() - qualityStart) / 1000).toFixed(1)} s (3 rankings)`,
  );
  log('signal   R@1    R@5    R@8    MRR    nDCG@10');
  for (const [label, figures] of Object.entries(quality)) {
    log(
      `${label.padEnd(8)} ${[figures.recall1, figures.recall5, figures.recall8, figures.mrr, figures.ndcg10].map((value) => value.toFixed(1).padStart(5)).join('  ')}`,
    );
  }
  if (args.tune) tune(dataset.queries, rankings);
  await selector.close();

  // --- latency, build and memory at each scale ---
  const latencyQueries = everyNth(queries, Number(args['latency-queries']));
  log(
    `\nselect() latency, k = 8, query embedding included (no query cache), ${latencyQueries.length} distinct queries`,
  );
  log(
    'tools    select p50   p95     | baseline p50  p95   (brute-force: embed + exact cosine over all + sort) | cold build  warm restart | RSS after  peak',
  );
  const rows: ScaleRow[] = [];
  for (const scale of scales) {
    const row = await benchScale(toolsAtScale(dataset.tools, scale), embedder, fusion, latencyQueries);
    rows.push(row);
    log(
      `${String(scale).padEnd(8)} ${ms(row.select.p50Ms)} ${ms(row.select.p95Ms)} | ${ms(row.baseline.p50Ms)} ${ms(row.baseline.p95Ms)} (select is ${(row.baseline.p50Ms / Math.max(row.select.p50Ms, 1e-6)).toFixed(1)}x the baseline's speed${row.baseline.queries < latencyQueries.length ? `; baseline over ${row.baseline.queries} queries` : ''}) | ${row.coldMs.toFixed(0).padStart(7)} ms ${row.warmMs.toFixed(0).padStart(7)} ms (CPU ${row.coldCpuMs} / ${row.warmCpuMs} ms) | ${String(row.rssMb).padStart(5)} MB ${String(row.peakRssMb).padStart(5)} MB`,
    );
  }
  const last = rows[rows.length - 1];
  const latency = Object.fromEntries(rows.map((row) => [String(row.tools), row.select]));
  const build = last
    ? { coldMs: last.coldMs, warmMs: last.warmMs, coldCpuMs: last.coldCpuMs, warmCpuMs: last.warmCpuMs }
    : { coldMs: 0, warmMs: 0, coldCpuMs: 0, warmCpuMs: 0 };
  const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  log(
    `\nwarm restart: index read + hash check + BM25 build, model already loaded (model load ${modelLoadMs.toFixed(0)} ms); RSS after: the process once that scale's selector is built and queried; peak RSS ${peakRssMb} MB`,
  );

  if (args.json) {
    process.stdout.write(
      `${JSON.stringify({
        dataset: dataset.name,
        tools: dataset.tools.length,
        queries: dataset.queries.length,
        embedder: embedderInfo.modelId,
        quality,
        latency,
        build,
        scales: rows,
        memory: { peakRssMb },
        machine: { cores: availableParallelism(), loadAverage: Math.round((loadavg()[0] ?? 0) * 10) / 10 },
        modelLoadMs: Math.round(modelLoadMs),
      })}\n`,
    );
  }
}

const ms = (value: number) => `${value.toFixed(3).padStart(7)} ms`;

/** One row of the scale table. */
interface ScaleRow {
  tools: number;
  select: { p50Ms: number; p95Ms: number };
  baseline: { p50Ms: number; p95Ms: number; queries: number };
  coldMs: number;
  coldCpuMs: number;
  warmMs: number;
  warmCpuMs: number;
  /** RSS once this scale's selector is built and queried, and the peak so far. */
  rssMb: number;
  peakRssMb: number;
}

/**
 * Cold build into `persistDir`, in its own function: the selector is unreachable once it returns,
 * as it would be in the process that a warm restart replaces.
 */
async function buildCold(
  registry: ToolRegistry,
  embedder: TransformersEmbedder,
  fusion: FusionOptions,
  persistDir: string,
): Promise<{ coldMs: number; coldCpuMs: number }> {
  const coldCpu = process.cpuUsage();
  const coldStart = performance.now();
  const cold = createToolSelector({ registry, embedder, fusion, index: { persistDir } });
  await cold.ready();
  const coldMs = performance.now() - coldStart;
  const coldCpuMs = cpuMs(process.cpuUsage(coldCpu));
  await cold.close();
  return { coldMs: Math.round(coldMs), coldCpuMs };
}

/**
 * The brute-force baseline: what a selector without an index does — embed the query, score every
 * tool exactly, sort. Its cost per query grows with the tools, so past 20,000 tools it runs over
 * fewer queries (at least 200; its spread is small) to keep the bench short. The tool vectors sit in
 * one matrix and the scores in reused typed arrays: at 100,000 tools an object per score made the
 * baseline, not the selector, the peak of the process' memory (2.3 GB).
 */
async function measureBaseline(
  tools: readonly DatasetTool[],
  embedder: TransformersEmbedder,
  latencyQueries: readonly string[],
): Promise<{ p50Ms: number; p95Ms: number; queries: number }> {
  const dimensions = embedder.dimensions;
  const matrix = new Float32Array(tools.length * dimensions);
  for (let start = 0; start < tools.length; start += 1000) {
    const documents = tools.slice(start, start + 1000).map((tool) => toEmbeddingText(toToolDocument(tool)));
    const vectors = await (embedder.embedDocuments
      ? embedder.embedDocuments(documents)
      : embedder.embed(documents));
    vectors.forEach((vector, offset) => {
      matrix.set(vector, (start + offset) * dimensions);
    });
  }
  const scores = new Float32Array(tools.length);
  const order = new Uint32Array(tools.length);
  const queries = everyNth(latencyQueries, Math.max(200, Math.round(2e7 / tools.length)));
  const durations: number[] = [];
  for (const query of queries) {
    const start = performance.now();
    const [vector] = (await embedder.embed([query])) as [Float32Array];
    for (let tool = 0; tool < tools.length; tool++) {
      let sum = 0;
      const offset = tool * dimensions;
      for (let dimension = 0; dimension < dimensions; dimension++)
        sum += (matrix[offset + dimension] as number) * (vector[dimension] as number);
      scores[tool] = sum;
      order[tool] = tool;
    }
    order.sort((a, b) => (scores[b] as number) - (scores[a] as number)).slice(0, 8);
    durations.push(performance.now() - start);
  }
  return { ...percentiles(durations), queries: queries.length };
}

/** Cold build, warm restart from the persisted index, select() latency, baseline and memory at one scale. */
async function benchScale(
  tools: readonly DatasetTool[],
  embedder: TransformersEmbedder,
  fusion: FusionOptions,
  latencyQueries: readonly string[],
): Promise<ScaleRow> {
  const persistDir = mkdtempSync(join(tmpdir(), 'tool-selection-bench-'));
  try {
    const registry = registryOf(tools);
    const { coldMs, coldCpuMs } = await buildCold(registry, embedder, fusion, persistDir);

    const warmCpu = process.cpuUsage();
    const warmStart = performance.now();
    const warm = createToolSelector({ registry, embedder, fusion, index: { persistDir }, queryCacheSize: 0 });
    await warm.ready();
    const warmMs = performance.now() - warmStart;
    const warmCpuMs = cpuMs(process.cpuUsage(warmCpu));
    if (warm.info().embeddings.computed !== 0)
      throw new Error(`warm restart re-embedded ${warm.info().embeddings.computed} tools`);

    for (const query of latencyQueries.slice(0, 50)) await warm.select(query);
    const durations: number[] = [];
    for (const query of latencyQueries) {
      const start = performance.now();
      await warm.select(query);
      durations.push(performance.now() - start);
    }
    const rssMb = Math.round(process.memoryUsage().rss / 1048576);
    await warm.close();
    const baseline = await measureBaseline(tools, embedder, latencyQueries);
    return {
      tools: tools.length,
      select: percentiles(durations),
      baseline,
      coldMs,
      coldCpuMs,
      warmMs: Math.round(warmMs),
      warmCpuMs,
      rssMb,
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    };
  } finally {
    rmSync(persistDir, { recursive: true, force: true });
  }
}

/** Grid-searches the fusion settings on the dense and lexical rankings already computed. */
function tune(
  queries: ReadonlyArray<{ expected: string[] }>,
  rankings: Record<'dense' | 'lexical', Array<Array<[string, number]>>>,
): void {
  const rows: Array<{ setting: string; quality: Quality }> = [];
  const settings: FusionOptions[] = [];
  for (const threshold of [Number.NEGATIVE_INFINITY, 0.5, 0.6, 0.7, 0.8]) {
    for (const denseWeight of [0.3, 0.4, 0.5, 0.6, 0.7]) {
      settings.push({ method: 'score', denseWeight, denseThreshold: threshold });
      settings.push({ method: 'rrf', denseWeight, denseThreshold: threshold, rrfK: 60 });
    }
  }
  for (const setting of settings) {
    const accumulator = createQualityAccumulator();
    queries.forEach((query, position) => {
      const fused = fuseRankings(
        (rankings.dense[position] ?? []).map(([id, score]) => ({ id, score })),
        (rankings.lexical[position] ?? []).map(([id, score]) => ({ id, score })),
        setting,
      );
      accumulator.add(
        fused.map((hit) => hit.id),
        query.expected,
      );
    });
    rows.push({
      setting: `${setting.method} w=${setting.denseWeight} t=${setting.denseThreshold}`,
      quality: accumulator.result(),
    });
  }
  rows.sort((a, b) => b.quality.recall5 - a.quality.recall5);
  log('\ntuning (best Recall@5 first):');
  for (const row of rows.slice(0, 30)) {
    const { recall1, recall5, recall8, mrr, ndcg10 } = row.quality;
    log(
      `${row.setting.padEnd(28)} R@1 ${recall1}  R@5 ${recall5}  R@8 ${recall8}  MRR ${mrr}  nDCG ${ndcg10}`,
    );
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
