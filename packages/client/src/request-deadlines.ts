/**
 * The deadlines of one engine's pending requests, kept under one timer. Why not a timer per
 * request: Node's `setTimeout` + `clearTimeout` costs about 4 µs a request (a `Timeout` with its
 * async id, and, one request at a time, a timer list made and dropped for its duration every
 * call), about 1 % of a 2026-07-28 HTTP call (client bench, `httpModern`). Here a deadline is a
 * number on the request; the timer is set for the earliest one and moved only when a new deadline
 * comes before it, so a request answered in time costs no timer work at all. When the timer fires,
 * every request past its deadline expires, and the timer is set for the next deadline.
 *
 * The timer holds the process open only while some request has a deadline, as a request's own
 * timer did: a finished script does not wait for the timer of a call long answered.
 */

/** The longest a Node timer waits (a longer delay fires at once): a later deadline is looked at again then. */
const longestDelayMs = 2_147_483_647;

/** A request with a deadline: a `performance.now()` time, `Infinity` for none. */
export interface Deadlined {
  deadline: number;
}

/** The deadlines of a table of requests (see the file's comment). */
export interface RequestDeadlines<Entry extends Deadlined> {
  /** Sets (or moves) `entry`'s deadline to `at`. */
  set(entry: Entry, at: number): void;
  /** `entry` settled: it has no deadline any more. */
  clear(entry: Entry): void;
  /** Drops the timer (the engine closed). */
  stop(): void;
}

/**
 * Deadlines over `entries` (every pending request, read when the timer fires): `expire` is called
 * for each request past its deadline, and must settle it (clearing its deadline).
 */
export function createRequestDeadlines<Entry extends Deadlined>(
  entries: () => Iterable<Entry>,
  expire: (entry: Entry) => void,
): RequestDeadlines<Entry> {
  let timer: NodeJS.Timeout | undefined;
  /** The deadline the timer is set for; `Infinity` when it is not set. */
  let firesAt = Number.POSITIVE_INFINITY;
  /** Requests with a deadline: the timer holds the process open while there are any. */
  let counted = 0;

  const arm = (at: number): void => {
    if (timer !== undefined) clearTimeout(timer);
    firesAt = at;
    // At least 1 ms: the timer's clock and performance.now() may disagree by a fraction of one.
    timer = setTimeout(fire, Math.min(longestDelayMs, Math.max(1, Math.ceil(at - performance.now()))));
    if (counted === 0) timer.unref();
  };

  const fire = (): void => {
    timer = undefined;
    firesAt = Number.POSITIVE_INFINITY;
    const now = performance.now();
    const due: Entry[] = [];
    let next = Number.POSITIVE_INFINITY;
    for (const entry of entries()) {
      if (entry.deadline <= now) due.push(entry);
      else if (entry.deadline < next) next = entry.deadline;
    }
    for (const entry of due) expire(entry);
    // An expiry may have set a deadline of its own (and the timer with it).
    if (next < firesAt) arm(next);
  };

  const clear = (entry: Entry): void => {
    if (entry.deadline === Number.POSITIVE_INFINITY) return;
    entry.deadline = Number.POSITIVE_INFINITY;
    if (--counted === 0) timer?.unref();
  };

  return {
    set(entry, at) {
      // No deadline at all (`timeoutMs: Infinity`): nothing to wait for.
      if (at === Number.POSITIVE_INFINITY) return clear(entry);
      if (entry.deadline === Number.POSITIVE_INFINITY && counted++ === 0) timer?.ref();
      entry.deadline = at;
      if (at < firesAt) arm(at);
    },
    clear,
    stop() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      firesAt = Number.POSITIVE_INFINITY;
    },
  };
}
