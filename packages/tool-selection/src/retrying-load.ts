/**
 * A load shared by every caller while it runs or once it succeeded, but tried again after a failure:
 * a model that failed to load (files not built yet, network down) may load later, so the failure is
 * not cached. `reset()` forgets a success too (the embedder was closed).
 */
export interface RetryingLoad<T> {
  (): Promise<T>;
  reset(): void;
}

/** Wraps `load` (see {@link RetryingLoad}). */
export function createRetryingLoad<T>(load: () => Promise<T>): RetryingLoad<T> {
  let loading: Promise<T> | undefined;
  const run = () => {
    if (!loading) {
      const attempt = load();
      loading = attempt;
      attempt.catch(() => {
        if (loading === attempt) loading = undefined;
      });
    }
    return loading;
  };
  return Object.assign(run, {
    reset() {
      loading = undefined;
    },
  });
}
