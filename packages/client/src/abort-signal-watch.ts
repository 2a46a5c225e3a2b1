/**
 * Which pending requests an `AbortSignal` cancels, watched cheaply. Why not simply an abort
 * listener per request: adding the first listener to a signal costs 5 µs even in a hot loop (Node
 * tracks signals with listeners), and 15–40 µs of a 220 µs stdio call in situ — and frameworks pass
 * a fresh signal per tool call (the Agents SDK combines its run's and a timeout's). So a signal
 * already watched gets the request added (one listener per signal, for the signal's life), and a new
 * one is watched only if its request is still pending at the next sweep, `sweepMs` later: most
 * requests finish before, and an abort in that window is acted on at the sweep (the request still
 * rejects and the server is still told), at most `sweepMs` late.
 */

/** How long a request's fresh signal goes unwatched: an abort in that window is acted on this late at most. */
const sweepMs = 10;

/** The requests each watched signal cancels. */
export interface AbortSignalWatch<Key> {
  /** Cancels `key` when `signal` aborts (unless `forget` came first). */
  watch(signal: AbortSignal, key: Key): void;
  /** Stops watching `key` (it settled). */
  forget(signal: AbortSignal, key: Key): void;
}

/** A watch that calls `cancel(key, signal)` for each pending key whose signal aborted. */
export function createAbortSignalWatch<Key>(
  cancel: (key: Key, signal: AbortSignal) => void,
): AbortSignalWatch<Key> {
  const bySignal = new WeakMap<AbortSignal, Set<Key>>();
  /** Keys whose signal is not watched yet, with that signal, until the next sweep. */
  const unwatched = new Map<Key, AbortSignal>();
  let sweep: NodeJS.Timeout | undefined;

  const listen = (signal: AbortSignal): Set<Key> => {
    const keys = new Set<Key>();
    bySignal.set(signal, keys);
    signal.addEventListener(
      'abort',
      () => {
        for (const key of [...keys]) cancel(key, signal);
        keys.clear();
      },
      { once: true },
    );
    return keys;
  };

  const sweepSignals = (): void => {
    sweep = undefined;
    const due = [...unwatched];
    unwatched.clear();
    for (const [key, signal] of due) {
      if (signal.aborted) {
        cancel(key, signal);
        continue;
      }
      (bySignal.get(signal) ?? listen(signal)).add(key);
    }
  };

  return {
    watch(signal, key) {
      const keys = bySignal.get(signal);
      if (keys !== undefined) {
        keys.add(key);
        return;
      }
      unwatched.set(key, signal);
      if (sweep === undefined) {
        sweep = setTimeout(sweepSignals, sweepMs);
        sweep.unref?.();
      }
    },
    forget(signal, key) {
      unwatched.delete(key);
      bySignal.get(signal)?.delete(key);
    },
  };
}
