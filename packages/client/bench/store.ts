/**
 * `node --import tsx bench/store.ts [--json]`: what the registry store costs. Two measurements in one
 * run: (1) `echo` on server-everything over stdio through `connectMcp` with a SQLite store (a file in
 * WAL mode) vs the same without a store, 1,000 sequential calls each, interleaved in rounds after a
 * warm-up — ratio = with-store p50 / no-store p50; (2) `recordCall` alone on that file, 5,000 calls.
 */
import { join } from 'node:path';
import { createTemporaryDirectory, serverScript } from '@switchboard/test-helpers';
import { connectMcp } from '../src/index.js';
import { createSqliteStore, openSqliteStore } from '../src/sqlite-store/index.js';

const json = process.argv.includes('--json');
const rounds = 5;
const perRound = 200;
const warmup = 200;
const recordCalls = 5000;

const everything = serverScript('server-everything');
const entry = { command: process.execPath, args: [everything, 'stdio'] };

function percentile(sorted: number[], quantile: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(quantile * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

function stats(samples: number[]): { p50Us: number; p95Us: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50Us: Math.round(percentile(sorted, 0.5)), p95Us: Math.round(percentile(sorted, 0.95)) };
}

async function timed(call: () => Promise<unknown>, count: number, into: number[]): Promise<void> {
  for (let index = 0; index < count; index++) {
    const started = performance.now();
    await call();
    into.push((performance.now() - started) * 1000);
  }
}

const directory = createTemporaryDirectory('sb-bench-store-');
const dir = directory.path;
try {
  const store = createSqliteStore({ path: join(dir, 'registry.db') });
  const withStore = await connectMcp({ everything: entry }, { store });
  const without = await connectMcp({ everything: entry });
  const callWith = () => withStore.callTool('mcp__everything__echo', { message: 'bench' });
  const callWithout = () => without.callTool('mcp__everything__echo', { message: 'bench' });
  await timed(callWith, warmup, []);
  await timed(callWithout, warmup, []);
  const samplesWith: number[] = [];
  const samplesWithout: number[] = [];
  for (let round = 0; round < rounds; round++) {
    await timed(callWithout, perRound, samplesWithout);
    await timed(callWith, perRound, samplesWith);
  }
  await withStore.close();
  await without.close();
  await store.close();

  const recorder = await openSqliteStore({ path: join(dir, 'record.db') });
  const recordSamples: number[] = [];
  await timed(
    () =>
      Promise.resolve(
        recorder.recordCall({ server: 's', tool: 't', publicName: 's__t', ok: true, durationMs: 1 }),
      ),
    recordCalls,
    recordSamples,
  );
  await recorder.close();

  const result = {
    callNoStore: stats(samplesWithout),
    callWithStore: stats(samplesWith),
    ratio: Number((stats(samplesWith).p50Us / stats(samplesWithout).p50Us).toFixed(3)),
    recordCall: stats(recordSamples),
  };
  if (json) console.log(JSON.stringify(result, null, 2));
  else {
    console.log(`echo over stdio, ${rounds * perRound} sequential calls per side (baseline: no store)`);
    console.log(`  no store    p50 ${result.callNoStore.p50Us} µs  p95 ${result.callNoStore.p95Us} µs`);
    console.log(`  with store  p50 ${result.callWithStore.p50Us} µs  p95 ${result.callWithStore.p95Us} µs`);
    console.log(`  ratio (with / without, p50) ${result.ratio}`);
    console.log(
      `recordCall alone on a WAL file, ${recordCalls} calls: p50 ${result.recordCall.p50Us} µs  p95 ${result.recordCall.p95Us} µs`,
    );
  }
} finally {
  directory.remove();
}
