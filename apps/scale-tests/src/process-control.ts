/**
 * Stopping a child process and waiting for an HTTP endpoint, both bounded in time: a scale test
 * that hangs tells nobody anything, and one that leaves processes behind breaks the next run.
 */
import type { ChildProcess } from 'node:child_process';

/** True while `child` has neither exited nor been killed by a signal. */
export function isRunning(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

/**
 * Sends `signal` and waits for the exit; SIGKILL after `graceMs` if it is still there.
 * Resolves with how it ended.
 */
export async function stopProcess(
  child: ChildProcess,
  signal: NodeJS.Signals = 'SIGTERM',
  graceMs = 10_000,
): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (!isRunning(child)) return { code: child.exitCode, signal: child.signalCode };
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, endSignal) => resolve({ code, signal: endSignal })),
  );
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  try {
    return await exited;
  } finally {
    clearTimeout(timer);
  }
}

/** What `waitForHttp` accepts as "up". */
export interface WaitForHttpOptions {
  /** Statuses that count as up. @default [200] */
  accept?: number[];
  /** @default 30_000 */
  timeoutMs?: number;
  /** Fails early when this process exits while we wait. */
  process?: ChildProcess;
}

/** Polls `url` every 100 ms until it answers one of `accept`; throws after `timeoutMs`. */
export async function waitForHttp(url: string, options: WaitForHttpOptions = {}): Promise<void> {
  const accept = options.accept ?? [200];
  const timeoutMs = options.timeoutMs ?? 30_000;
  const attempts = Math.ceil(timeoutMs / 100);
  let last = 'no answer';
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (options.process && !isRunning(options.process)) {
      throw new Error(
        `${url}: the process exited (${options.process.exitCode ?? options.process.signalCode})`,
      );
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (accept.includes(response.status)) return;
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} was not up within ${timeoutMs} ms (last: ${last})`);
}
