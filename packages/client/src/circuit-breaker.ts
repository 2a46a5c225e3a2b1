/**
 * A circuit breaker per server: after `failureThreshold` consecutive connection failures it opens
 * (calls fail fast instead of hammering a dead server), and after `cooldownMs` it lets one trial
 * through (half-open); a success closes it again.
 */

/** State of a circuit breaker. */
export type CircuitState = 'closed' | 'open' | 'half-open';

/** Options of {@link createCircuitBreaker}. */
export interface CircuitBreakerOptions {
  /** Consecutive connection failures that open the circuit. @default 5 */
  failureThreshold?: number;
  /** How long the circuit stays open before a trial is allowed. @default 30000 */
  cooldownMs?: number;
  /** Clock, for tests. @default Date.now */
  now?: () => number;
}

/** A circuit breaker. */
export interface CircuitBreaker {
  readonly state: CircuitState;
  readonly consecutiveFailures: number;
  /** When the circuit may next be tried (epoch ms), while open. */
  readonly retryAt: number | undefined;
  /** True when a call may go through now (moves open → half-open after the cool-down). */
  allow(): boolean;
  recordSuccess(): void;
  recordFailure(): void;
  reset(): void;
}

/** Creates a closed circuit breaker. */
export function createCircuitBreaker(options: CircuitBreakerOptions = {}): CircuitBreaker {
  const threshold = options.failureThreshold ?? 5;
  const cooldown = options.cooldownMs ?? 30_000;
  const now = options.now ?? Date.now;
  let state: CircuitState = 'closed';
  let failures = 0;
  let openedAt = 0;
  return {
    get state() {
      if (state === 'open' && now() - openedAt >= cooldown) return 'half-open';
      return state;
    },
    get consecutiveFailures() {
      return failures;
    },
    get retryAt() {
      return state === 'open' ? openedAt + cooldown : undefined;
    },
    allow() {
      if (state === 'closed' || state === 'half-open') return true;
      if (now() - openedAt >= cooldown) {
        state = 'half-open';
        return true;
      }
      return false;
    },
    recordSuccess() {
      failures = 0;
      state = 'closed';
    },
    recordFailure() {
      failures++;
      if (state === 'half-open' || failures >= threshold) {
        state = 'open';
        openedAt = now();
      }
    },
    reset() {
      failures = 0;
      state = 'closed';
    },
  };
}

/** Delay before respawn attempt `attempt` (1-based): exponential backoff plus up to 50 % jitter. */
export function computeBackoffDelay(attempt: number, baseDelayMs: number, maxDelayMs = 60_000): number {
  const exponential = Math.min(maxDelayMs, baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exponential + Math.random() * exponential * 0.5);
}
