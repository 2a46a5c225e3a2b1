/**
 * When a lost event stream is tried again: the delays grow by the factor up to the ceiling, and an
 * attempt waiting when the transport closes is never made (fake timers: no real waiting).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StreamReconnection } from '../src/stream-reconnection.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('StreamReconnection', () => {
  it('grows the delay from 1 s by 1.5 per attempt up to 30 s, after two attempts by default', () => {
    const reconnection = new StreamReconnection(undefined, () => false);
    expect([0, 1, 2, 20].map((attempt) => reconnection.backoff(attempt))).toEqual([1000, 1500, 2250, 30_000]);
    expect(reconnection.maxRetries).toBe(2);
  });

  it('takes the options given', () => {
    const reconnection = new StreamReconnection(
      { initialDelayMs: 10, growFactor: 2, maxDelayMs: 50, maxRetries: 5 },
      () => false,
    );
    expect([0, 1, 2, 3].map((attempt) => reconnection.backoff(attempt))).toEqual([10, 20, 40, 50]);
    expect(reconnection.maxRetries).toBe(5);
  });

  it('runs a scheduled attempt when it is due, unless closed by then or cleared', () => {
    vi.useFakeTimers();
    let closed = false;
    const reconnection = new StreamReconnection(undefined, () => closed);
    const runs: string[] = [];
    reconnection.schedule(100, () => runs.push('due'));
    vi.advanceTimersByTime(100);
    reconnection.schedule(100, () => runs.push('after close'));
    closed = true;
    vi.advanceTimersByTime(100);
    closed = false;
    reconnection.schedule(100, () => runs.push('cleared'));
    reconnection.clear();
    vi.advanceTimersByTime(100);
    expect(runs).toEqual(['due']);
  });
});
