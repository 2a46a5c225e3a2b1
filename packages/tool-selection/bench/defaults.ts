/**
 * Defaults bench: `select()` latency and warm restart at one scale (10,000 tools by default), for the
 * selector with this package's defaults — the offline model in the exact index (WebAssembly SIMD) —
 * beside its opt-ins (the HNSW index on hnswlib-node, the exact index's plain-JavaScript kernel) and,
 * with `--before DIR`, the defaults of another build of this package (a checkout of an earlier
 * commit, built): "before and after" in one process, one run, as ratios. The earlier build's own
 * offline embedder is used, which is what its default embedder fell back to without a network.
 * Queries are measured in rounds that visit every configuration in turn, so that a burst of load on a
 * shared machine lands on all of them alike.
 *
 *   pnpm --filter @switchboard/tool-selection bench:defaults [--scale 10000] [--queries 1000]
 *     [--restarts 5] [--before ../../../base/packages/tool-selection] [--data DIR] [--json]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { ToolRegistry } from '@switchboard/core';
import { percentiles } from '@switchboard/test-helpers';
import type { Embedder, ToolSelector, ToolSelectorOptions } from '../src/index.js';
import { createOfflineEmbedder, createToolSelector } from '../src/index.js';
import { loadDataset } from './dataset.js';
import { everyNth, registryOf, toolsAtScale } from './dataset-at-scale.js';

const { values: args } = parseArgs({
  options: {
    data: { type: 'string', default: resolve(import.meta.dirname, '../../../../shared/bench/metatool') },
    scale: { type: 'string', default: '10000' },
    queries: { type: 'string', default: '1000' },
    restarts: { type: 'string', default: '5' },
    before: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});

const log = (line: string) => (args.json ? process.stderr : process.stdout).write(`${line}\n`);

/** The parts of a tool-selection entry (this one, or an earlier build's) the bench calls. */
interface SelectionModule {
  createToolSelector(options: Record<string, unknown>): ToolSelector;
  createOfflineEmbedder(): Embedder & { load(): Promise<unknown> };
}

/** One way of building a selector. */
interface Configuration {
  label: string;
  embedder: Embedder & { load(): Promise<unknown> };
  create(registry: ToolRegistry, persistDir: string, queryCacheSize?: number): ToolSelector;
}

const cpuMs = (usage: NodeJS.CpuUsage) => Math.round((usage.user + usage.system) / 1000);

function configurations(before: SelectionModule | undefined): Configuration[] {
  const embedder = createOfflineEmbedder();
  const ours = (label: string, index: ToolSelectorOptions['index']): Configuration => ({
    label,
    embedder,
    create: (registry, persistDir, queryCacheSize) =>
      createToolSelector({
        registry,
        embedder,
        index: typeof index === 'object' ? { ...index, persistDir } : { persistDir },
        ...(queryCacheSize === undefined ? {} : { queryCacheSize }),
      }),
  });
  const list: Configuration[] = [
    ours('after: defaults (exact index, WebAssembly SIMD)', { kind: 'exact' }),
    ours('after: exact index, JavaScript kernel', { kind: 'exact', kernel: 'javascript' }),
    ours('after: HNSW index (hnswlib-node, opt-in)', { kind: 'hnsw' }),
  ];
  if (before) {
    const beforeEmbedder = before.createOfflineEmbedder();
    list.unshift({
      label: 'before: defaults (HNSW index, offline model)',
      embedder: beforeEmbedder,
      create: (registry, persistDir, queryCacheSize) =>
        before.createToolSelector({
          registry,
          embedder: beforeEmbedder,
          index: { persistDir },
          ...(queryCacheSize === undefined ? {} : { queryCacheSize }),
        }),
    });
  }
  return list;
}

interface Figures {
  label: string;
  index: string;
  coldMs: number;
  warm: { ms: number; cpuMs: number };
  select: { p50Ms: number; p95Ms: number };
}

async function main(): Promise<void> {
  const scale = Number(args.scale);
  const dataset = loadDataset(args.data as string);
  const tools = toolsAtScale(dataset.tools, scale);
  const queries = everyNth(
    dataset.queries.map((item) => item.query),
    Number(args.queries),
  );
  const before = args.before
    ? ((await import(pathToFileURL(resolve(args.before, 'dist/index.js')).href)) as SelectionModule)
    : undefined;
  const configs = configurations(before);
  log(`machine: ${availableParallelism()} cores, load average ${loadavg()[0]?.toFixed(1)} at start`);
  log(
    `${tools.length} tools (${dataset.name} + synthetic), ${queries.length} queries, k = 8, no query cache`,
  );

  const figures: Figures[] = [];
  const live: ToolSelector[] = [];
  const persistDirs: string[] = [];
  try {
    for (const config of configs) {
      await config.embedder.load();
      const persistDir = mkdtempSync(join(tmpdir(), 'tool-selection-defaults-'));
      persistDirs.push(persistDir);
      const registry = registryOf(tools);
      const coldStart = performance.now();
      const cold = config.create(registry, persistDir);
      await cold.ready();
      const coldMs = performance.now() - coldStart;
      const index = cold.info().index?.kind ?? 'hnswlib-node';
      await cold.close();
      figures.push({
        label: config.label,
        index,
        coldMs: Math.round(coldMs),
        warm: { ms: 0, cpuMs: 0 },
        select: { p50Ms: 0, p95Ms: 0 },
      });
    }

    // Warm restarts, in turns: a new selector over the persisted index of the cold build.
    const restarts: Array<Array<{ ms: number; cpuMs: number }>> = configs.map(() => []);
    for (let turn = 0; turn < Number(args.restarts); turn++) {
      for (const [position, config] of configs.entries()) {
        const registry = registryOf(tools);
        const cpu = process.cpuUsage();
        const start = performance.now();
        const warm = config.create(registry, persistDirs[position] as string, 0);
        await warm.ready();
        restarts[position]?.push({ ms: performance.now() - start, cpuMs: cpuMs(process.cpuUsage(cpu)) });
        if (warm.info().embeddings.computed !== 0)
          throw new Error(
            `${config.label}: the warm restart re-embedded ${warm.info().embeddings.computed} tools`,
          );
        if (turn === Number(args.restarts) - 1) live.push(warm);
        else await warm.close();
      }
    }
    restarts.forEach((turns, position) => {
      const sorted = [...turns].sort((a, b) => a.ms - b.ms);
      const median = sorted[Math.floor(sorted.length / 2)] as { ms: number; cpuMs: number };
      (figures[position] as Figures).warm = { ms: Math.round(median.ms), cpuMs: median.cpuMs };
    });

    // select() in rounds of 50 queries over every configuration.
    for (const selector of live) for (const query of queries.slice(0, 50)) await selector.select(query);
    const durations: number[][] = configs.map(() => []);
    for (let start = 0; start < queries.length; start += 50) {
      for (const [position, selector] of live.entries()) {
        for (const query of queries.slice(start, start + 50)) {
          const began = performance.now();
          await selector.select(query);
          durations[position]?.push(performance.now() - began);
        }
      }
    }
    durations.forEach((values, position) => {
      (figures[position] as Figures).select = percentiles(values);
    });
  } finally {
    for (const selector of live) await selector.close();
    for (const dir of persistDirs) rmSync(dir, { recursive: true, force: true });
  }

  const modelLoads = await measureModelLoads(before);

  const reference = figures[0] as Figures;
  const ratio = (value: number, base: number) => `${(value / Math.max(base, 1e-9)).toFixed(2)}×`;
  log(`\nratios against "${reference.label}"`);
  log(
    'configuration                                     | select p50   p95        | warm restart (CPU)      | cold build',
  );
  for (const row of figures) {
    log(
      `${row.label.padEnd(49)} | ${row.select.p50Ms.toFixed(3)} ms ${row.select.p95Ms.toFixed(3)} ms (${ratio(row.select.p50Ms, reference.select.p50Ms)}) | ${String(row.warm.ms).padStart(5)} ms (${row.warm.cpuMs} ms) ${ratio(row.warm.ms, reference.warm.ms).padStart(6)} | ${String(row.coldMs).padStart(6)} ms`,
    );
  }
  log(
    '\noffline model load (a new embedder each time, turns alternating; the first includes importing its modules)',
  );
  for (const load of modelLoads) {
    log(`${load.label.padEnd(8)} first ${load.firstMs} ms, then median ${load.medianMs} ms`);
  }
  log(`load average ${loadavg()[0]?.toFixed(1)} at the end`);
  if (args.json) {
    process.stdout.write(
      `${JSON.stringify({ tools: tools.length, queries: queries.length, reference: reference.label, figures, modelLoads })}\n`,
    );
  }
}

/** Loads of a new offline embedder, this build's and the earlier one's in turn. */
async function measureModelLoads(
  before: SelectionModule | undefined,
): Promise<Array<{ label: string; firstMs: number; medianMs: number }>> {
  const builds: Array<[string, () => Embedder & { load(): Promise<unknown> }]> = [
    ['after', () => createOfflineEmbedder()],
    ...(before
      ? [
          ['before', () => before.createOfflineEmbedder()] as [
            string,
            () => Embedder & { load(): Promise<unknown> },
          ],
        ]
      : []),
  ];
  const times = builds.map(() => [] as number[]);
  for (let turn = 0; turn < 6; turn++) {
    for (const [position, [, create]] of builds.entries()) {
      const embedder = create();
      const start = performance.now();
      await embedder.load();
      times[position]?.push(performance.now() - start);
      await embedder.close?.();
    }
  }
  return builds.map(([label], position) => {
    const [first = 0, ...rest] = times[position] as number[];
    return { label, firstMs: Math.round(first), medianMs: Math.round(percentiles(rest).p50Ms) };
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
