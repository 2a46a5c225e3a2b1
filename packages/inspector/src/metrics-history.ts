/**
 * The latency and call counts of each server over time, for the page's charts: the connection's
 * `metrics()` sampled every few seconds into a bounded series (the last half hour by default).
 * The connection keeps only current figures; the history is what makes a chart.
 */
import type { McpMetrics } from '@switchboard/client';
import type { UiMetrics } from './ui-api.js';

/** Options of {@link createMetricsHistory}. */
export interface MetricsHistoryOptions {
  /** Reads the current figures. */
  read(): McpMetrics;
  /** Time between samples. @default 2000 */
  intervalMs?: number;
  /** Samples kept. @default 900 (30 minutes at the default interval) */
  capacity?: number;
  /** Told after each sample (the session checks the servers' state on the same beat). */
  onSample?(): void;
}

/** The sampler and its series. */
export interface MetricsHistory {
  /** The samples, oldest first. */
  series(): UiMetrics['series'];
  /** Takes a sample now (also taken on each interval). */
  sample(): void;
  stop(): void;
}

type Sample = UiMetrics['series'][number];

/** Starts sampling (a first sample at once). */
export function createMetricsHistory(options: MetricsHistoryOptions): MetricsHistory {
  const capacity = options.capacity ?? 900;
  const samples: Sample[] = [];
  const sample = () => {
    const servers: Sample['servers'] = {};
    for (const [name, stats] of Object.entries(options.read().servers)) {
      servers[name] = {
        calls: stats.calls,
        errors: stats.errors,
        ...(stats.p50Ms === undefined ? {} : { p50: stats.p50Ms }),
        ...(stats.p95Ms === undefined ? {} : { p95: stats.p95Ms }),
      };
    }
    samples.push({ at: Date.now(), servers });
    if (samples.length > capacity) samples.splice(0, samples.length - capacity);
    options.onSample?.();
  };
  sample();
  const timer = setInterval(sample, options.intervalMs ?? 2_000);
  timer.unref?.();
  return {
    series: () => samples.slice(),
    sample,
    stop: () => clearInterval(timer),
  };
}
