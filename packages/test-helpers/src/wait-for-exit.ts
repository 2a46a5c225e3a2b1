/**
 * A child process's exit as a promise: at once when it has exited already (an `exit` listener
 * added afterwards would wait forever), else on its `exit` event, with a failure bound.
 */
import type { ChildProcess } from 'node:child_process';
import { waitForEvent } from './wait-for-event.js';
import { defaultWaitTimeoutMs, type WaitOptions } from './wait-options.js';

/** How a process ended. */
export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Resolves once `child` has exited, with its code and signal. */
export async function waitForExit(child: ChildProcess, options: WaitOptions = {}): Promise<ProcessExit> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return { code: child.exitCode, signal: child.signalCode };
  }
  const [code, signal] = await waitForEvent<[number | null, NodeJS.Signals | null]>(child, 'exit', {
    timeoutMs: options.timeoutMs ?? defaultWaitTimeoutMs,
    what: options.what ?? `process ${child.pid} to exit`,
  });
  return { code, signal };
}
