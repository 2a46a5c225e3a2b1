import { describe, expect, it } from 'vitest';
import { computeBackoffDelay, createCircuitBreaker } from '../src/circuit-breaker.js';

describe('circuit breaker', () => {
  it('opens after the threshold, half-opens after the cool-down, closes on success, re-opens on a failed trial', () => {
    let now = 1000;
    const breaker = createCircuitBreaker({ failureThreshold: 3, cooldownMs: 500, now: () => now });
    breaker.recordFailure();
    breaker.recordFailure();
    expect(breaker.state).toBe('closed');
    expect(breaker.allow()).toBe(true);
    breaker.recordFailure();
    expect(breaker.state).toBe('open');
    expect(breaker.allow()).toBe(false);
    expect(breaker.retryAt).toBe(1500);
    now = 1500;
    expect(breaker.state).toBe('half-open');
    expect(breaker.allow()).toBe(true);
    breaker.recordFailure();
    expect(breaker.state).toBe('open');
    now = 2100;
    expect(breaker.allow()).toBe(true);
    breaker.recordSuccess();
    expect(breaker.state).toBe('closed');
    expect(breaker.consecutiveFailures).toBe(0);
  });

  it('backs off exponentially with up to 50 % jitter', () => {
    for (let attempt = 1; attempt <= 5; attempt++) {
      const base = 100 * 2 ** (attempt - 1);
      for (let sample = 0; sample < 50; sample++) {
        const delay = computeBackoffDelay(attempt, 100);
        expect(delay).toBeGreaterThanOrEqual(base);
        expect(delay).toBeLessThanOrEqual(base * 1.5);
      }
    }
    expect(computeBackoffDelay(30, 3000, 60_000)).toBeLessThanOrEqual(90_000);
  });
});
