/**
 * A fixed-size ring of recent latencies. Recording is one array write (cheap on the hot path);
 * percentiles are computed only when metrics are read.
 */

/** Recent latency samples with on-demand percentiles. */
export interface LatencyReservoir {
  record(milliseconds: number): void;
  /** The `quantile` (0..1) of the recorded samples, or `undefined` when empty. */
  percentile(quantile: number): number | undefined;
  readonly count: number;
}

/** Creates a reservoir keeping the last `size` samples. @default size 512 */
export function createLatencyReservoir(size = 512): LatencyReservoir {
  const samples = new Float64Array(size);
  let next = 0;
  let filled = 0;
  return {
    record(milliseconds) {
      samples[next] = milliseconds;
      next = next + 1 === size ? 0 : next + 1;
      if (filled < size) filled++;
    },
    percentile(quantile) {
      if (filled === 0) return undefined;
      const sorted = samples.slice(0, filled).sort();
      const index = Math.min(filled - 1, Math.max(0, Math.ceil(quantile * filled) - 1));
      return sorted[index];
    },
    get count() {
      return filled;
    },
  };
}
