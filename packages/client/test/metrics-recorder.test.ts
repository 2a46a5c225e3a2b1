import { describe, expect, it } from 'vitest';
import { createLatencyReservoir } from '../src/latency-reservoir.js';
import { createMetricsRecorder } from '../src/metrics-recorder.js';

describe('metrics', () => {
  it('keeps the last N latencies and reads percentiles from them', () => {
    const reservoir = createLatencyReservoir(100);
    expect(reservoir.percentile(0.5)).toBeUndefined();
    for (let value = 1; value <= 100; value++) reservoir.record(value);
    expect(reservoir.percentile(0.5)).toBe(50);
    expect(reservoir.percentile(0.95)).toBe(95);
    // Older samples fall out once the ring is full.
    for (let value = 0; value < 100; value++) reservoir.record(1000);
    expect(reservoir.percentile(0.5)).toBe(1000);
    expect(reservoir.count).toBe(100);
  });

  it('counts calls and errors per tool and per server', () => {
    const metrics = createMetricsRecorder();
    const echo = metrics.counter('a', 'echo');
    const sum = metrics.counter('a', 'sum');
    echo.record(2, false);
    echo.record(4, true);
    sum.record(10, false);
    expect(metrics.counter('a', 'echo')).toBeDefined();
    const snapshot = metrics.snapshot();
    expect(snapshot.tools.a?.echo).toMatchObject({ calls: 2, errors: 1, p50Ms: 2, p95Ms: 4 });
    expect(snapshot.servers.a).toMatchObject({ calls: 3, errors: 1, p95Ms: 10 });
  });
});
