import { readdirSync, readFileSync } from 'node:fs';

/** True while `pid` is a live process (a zombie awaiting its reaper counts as dead). */
export function isProcessAlive(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return false;
  }
  // Fields after the parenthesised command name: state is the first.
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state !== 'Z' && state !== 'X';
}

/** Waits (generously: the machine is slow and shared) until none of `pids` is alive; returns those still alive. */
export async function waitForProcessesGone(pids: number[], timeoutMs = 30_000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  let alive = pids.filter(isProcessAlive);
  while (alive.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    alive = alive.filter(isProcessAlive);
  }
  return alive;
}

/** Pids of processes whose command line contains `marker` (to find what a test started). */
export function findProcessesByCommandLine(marker: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        return (
          readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(marker) && isProcessAlive(Number(entry))
        );
      } catch {
        return false;
      }
    })
    .map(Number);
}
