/** The build's progress lines: `[build-model 12.3s] …`, the seconds since the process started. */

/** Writes one progress line. */
export type BuildLog = (message: string) => void;

/** A log to standard output, or `silent` for tests. */
export function createBuildLog(options: { silent?: boolean } = {}): BuildLog {
  if (options.silent) return () => {};
  return (message) => console.log(`[build-model ${(performance.now() / 1000).toFixed(1)}s] ${message}`);
}
