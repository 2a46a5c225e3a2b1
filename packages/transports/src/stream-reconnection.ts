/**
 * When a lost 2025-era event stream is tried again: the server's `retry` if it gave one, otherwise
 * a delay growing by a factor per attempt up to a ceiling, for a bounded number of attempts. The
 * timers are the transport's, cleared on close, and a timer that fires after close runs nothing.
 */

/** How lost SSE streams are resumed (2025 era; modern streams are not resumable). */
export interface StreamReconnectionOptions {
  /** First delay when the server gave no `retry`. @default 1000 */
  initialDelayMs?: number;
  /** Largest delay. @default 30000 */
  maxDelayMs?: number;
  /** Factor applied to the delay after each failed attempt. @default 1.5 */
  growFactor?: number;
  /** Attempts before giving up on a stream. @default 2 */
  maxRetries?: number;
}

/** The reconnection options with their defaults, and the timers of the attempts waiting. */
export class StreamReconnection {
  /** Attempts before giving up on a stream. */
  readonly maxRetries: number;
  private readonly initialDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly growFactor: number;
  private readonly timers = new Set<NodeJS.Timeout>();

  /** `isClosed` is asked when a timer fires: after close, the attempt is not made. */
  constructor(
    options: StreamReconnectionOptions | undefined,
    private readonly isClosed: () => boolean,
  ) {
    this.initialDelayMs = options?.initialDelayMs ?? 1000;
    this.maxDelayMs = options?.maxDelayMs ?? 30_000;
    this.growFactor = options?.growFactor ?? 1.5;
    this.maxRetries = options?.maxRetries ?? 2;
  }

  /** The delay before attempt number `attempt` (from 0) when the server named none. */
  backoff(attempt: number): number {
    return Math.min(this.initialDelayMs * this.growFactor ** attempt, this.maxDelayMs);
  }

  /** Runs `run` after `delayMs`, unless the transport was closed by then. */
  schedule(delayMs: number, run: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.isClosed()) run();
    }, delayMs);
    this.timers.add(timer);
  }

  /** Cancels every attempt still waiting. */
  clear(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
