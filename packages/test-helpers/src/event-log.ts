/**
 * Events a test records as they happen (notifications, callbacks, log lines, what a fixture
 * server saw), kept in order, with waits that resolve the moment the entry a test stands on is
 * there — recorded already or still to come — instead of a sleep or a poll. `push` is bound, so
 * the log itself is the callback: `client.onToolsChanged(changes.push)`.
 */
import { defaultWaitTimeoutMs, type WaitOptions, waitTimedOut } from './wait-options.js';

/** A log of events and the waits on it. */
export interface EventLog<T> {
  /** What the log holds ("tools/list_changed notifications"), named when a wait on it fails. */
  readonly name: string;
  /** The entries so far, oldest first (the live array: read it, never write it). */
  readonly entries: readonly T[];
  /** Records one entry and wakes the waits it satisfies (bound: pass it as a callback). */
  readonly push: (entry: T) => void;
  /**
   * Ends the log (the stream closed, the process exited): waits not satisfied yet fail at once
   * with `reason`, and so do later ones that the entries so far do not satisfy.
   */
  end(reason: string): void;
  /** Resolves with the first entry, recorded already or to come, that `predicate` accepts. */
  find<U extends T>(predicate: (entry: T) => entry is U, options?: WaitOptions): Promise<U>;
  find(predicate: (entry: T) => boolean, options?: WaitOptions): Promise<T>;
  /** Resolves once at least `count` entries are recorded. */
  atLeast(count: number, options?: WaitOptions): Promise<readonly T[]>;
  /** Resolves once `condition(entries)` holds: checked now and at each new entry. */
  until(condition: (entries: readonly T[]) => boolean, options?: WaitOptions): Promise<readonly T[]>;
}

/** The last entries, short, for a failure message. */
function describeEntries(entries: readonly unknown[]): string {
  const shown = entries.slice(-5).map((entry) => {
    const text = typeof entry === 'string' ? entry : (JSON.stringify(entry) ?? String(entry));
    return text.length > 120 ? `${text.slice(0, 117)}...` : text;
  });
  return `${entries.length} recorded${shown.length > 0 ? `, the last: ${shown.join(' | ')}` : ''}`;
}

/** Makes an empty log of `name` ("tool list changes"). */
export function createEventLog<T>(name: string): EventLog<T> {
  const entries: T[] = [];
  const waiters = new Set<() => void>();
  let ended: string | undefined;

  const wait = <R>(
    check: () => { done: true; value: R } | { done: false },
    options: WaitOptions,
    describe: string,
  ): Promise<R> =>
    new Promise<R>((resolve, reject) => {
      const timeoutMs = options.timeoutMs ?? defaultWaitTimeoutMs;
      const what = options.what ?? `${describe} in ${name}`;
      const settle = () => {
        const outcome = check();
        if (outcome.done) {
          waiters.delete(settle);
          clearTimeout(timer);
          resolve(outcome.value);
        } else if (ended !== undefined) {
          waiters.delete(settle);
          clearTimeout(timer);
          reject(new Error(`${name} ended (${ended}) before ${what}; ${describeEntries(entries)}`));
        }
      };
      const timer = setTimeout(() => {
        waiters.delete(settle);
        reject(waitTimedOut(what, timeoutMs, describeEntries(entries)));
      }, timeoutMs);
      waiters.add(settle);
      settle();
    });

  const wake = () => {
    for (const waiter of [...waiters]) waiter();
  };

  return {
    name,
    entries,
    push: (entry: T) => {
      entries.push(entry);
      wake();
    },
    end(reason) {
      ended ??= reason;
      wake();
    },
    find(predicate: (entry: T) => boolean, options: WaitOptions = {}) {
      return wait(
        () => {
          const index = entries.findIndex(predicate);
          return index === -1 ? { done: false } : { done: true, value: entries[index] as T };
        },
        options,
        'a matching entry',
      );
    },
    atLeast(count, options = {}) {
      return wait(
        () => (entries.length >= count ? { done: true, value: entries } : { done: false }),
        options,
        `${count} entries`,
      );
    },
    until(condition, options = {}) {
      return wait(
        () => (condition(entries) ? { done: true, value: entries } : { done: false }),
        options,
        'the awaited entries',
      );
    },
  };
}
