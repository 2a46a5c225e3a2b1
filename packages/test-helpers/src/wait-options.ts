/**
 * What every wait of this package takes, and the one failure they all raise. A wait's timeout is a
 * failure bound, never a pause: the wait resolves the moment its event happens, and the timeout
 * only turns a lost event into an error that names what was awaited (rather than the test
 * runner's bare "test timed out").
 */

/** How long a wait may take, and what it waits for (named in its failure). */
export interface WaitOptions {
  /** Fails the wait after this long. @default 20000 (under the packages' 60 s test timeout) */
  timeoutMs?: number;
  /** What is awaited, as the failure says it ("the server to see the cancellation"). */
  what?: string;
}

/** The default failure bound: generous for a loaded machine, yet under the 60 s test timeout. */
export const defaultWaitTimeoutMs = 20_000;

/** The error of a wait that timed out: `timed out after N ms waiting for <what>[: <detail>]`. */
export function waitTimedOut(what: string, timeoutMs: number, detail?: string): Error {
  return new Error(
    `timed out after ${timeoutMs} ms waiting for ${what}${detail === undefined ? '' : `: ${detail}`}`,
  );
}
