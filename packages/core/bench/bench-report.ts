/**
 * The contract between `bench/index.ts` and each bench module: a module exports
 * `run(options): Promise<BenchReport>`; the runner prints the reports as a table, or with `--json`
 * as one JSON object keyed by bench name.
 */

/** Options every bench receives. */
export interface BenchOptions {
  /** Fewer rounds, for a smoke run (`--quick`). @default false */
  quick?: boolean;
}

/** Timing of one operation. Times are microseconds per operation. */
export interface BenchCase {
  name: string;
  /** Operations timed in total. */
  operations: number;
  medianMicroseconds: number;
  p95Microseconds: number;
  /** Wall time of all operations of one round, milliseconds (median over rounds). */
  totalMilliseconds: number;
}

/** A subject compared with a named baseline measured in the same run. */
export interface BenchComparison {
  name: string;
  subject: string;
  baseline: string;
  /** Baseline median / subject median: how many times faster the subject is. */
  ratio: number;
}

/** What a bench module returns. */
export interface BenchReport {
  name: string;
  cases: BenchCase[];
  comparisons: BenchComparison[];
}

/** A bench module's shape. */
export type BenchModule = { run(options: BenchOptions): Promise<BenchReport> | BenchReport };

/** The value at quantile `q` (0..1) of `values`. */
export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

/**
 * Times `operation(index)` for `count` indices, `rounds` times. Operations are timed in batches
 * (a single Map read is far below the timer's resolution), each batch giving one per-operation
 * sample; median and p95 are over those samples. `setup` runs before every round, untimed.
 */
export function measure(
  name: string,
  options: {
    count: number;
    rounds: number;
    batch?: number;
    setup?: () => void;
    operation: (index: number) => unknown;
  },
): BenchCase {
  const batch = options.batch ?? 100;
  const samples: number[] = [];
  const totals: number[] = [];
  let sink = 0;
  for (let round = 0; round < options.rounds; round++) {
    options.setup?.();
    const roundStart = performance.now();
    for (let start = 0; start < options.count; start += batch) {
      const end = Math.min(options.count, start + batch);
      const batchStart = performance.now();
      for (let index = start; index < end; index++) {
        // Keeps the engine from discarding the work as dead code.
        if (options.operation(index) === undefined) sink++;
      }
      samples.push(((performance.now() - batchStart) * 1000) / (end - start));
    }
    totals.push(performance.now() - roundStart);
  }
  if (sink < 0) console.log(sink);
  return {
    name,
    operations: options.count * options.rounds,
    medianMicroseconds: quantile(samples, 0.5),
    p95Microseconds: quantile(samples, 0.95),
    totalMilliseconds: quantile(totals, 0.5),
  };
}

/** A comparison of two measured cases. */
export function compare(name: string, subject: BenchCase, baseline: BenchCase): BenchComparison {
  return {
    name,
    subject: subject.name,
    baseline: baseline.name,
    ratio: baseline.medianMicroseconds / subject.medianMicroseconds,
  };
}
