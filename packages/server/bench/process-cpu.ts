/**
 * A child process's CPU time, read from Linux's scheduler statistics: every thread's time on a
 * CPU in nanoseconds (`/proc/<pid>/task/<tid>/schedstat`), so V8's and libuv's helper threads count
 * too. The bench reads it between rounds, never inside a timed call. Elsewhere it answers
 * `undefined` and the bench prints no CPU column.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** CPU nanoseconds `pid` has used so far, or `undefined` where the system does not say. */
export function processCpuNs(pid: number | undefined): number | undefined {
  if (pid === undefined || process.platform !== 'linux') return undefined;
  try {
    let total = 0;
    for (const thread of readdirSync(`/proc/${pid}/task`)) {
      const text = readFileSync(`/proc/${pid}/task/${thread}/schedstat`, 'utf8');
      total += Number(text.slice(0, text.indexOf(' ')));
    }
    return total;
  } catch {
    // A thread that ended between the listing and its read, or a kernel without schedstat.
    return undefined;
  }
}
