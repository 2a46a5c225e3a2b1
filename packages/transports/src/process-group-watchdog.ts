/**
 * The watchdog that ends a stdio server's process group when this process dies, SIGKILL included, so
 * that no server, nor what `npx` started under it, is left running as an orphan. POSIX only.
 */
import { type ChildProcess, spawn } from 'node:child_process';

/**
 * Why a separate process: Node has no PR_SET_PDEATHSIG, so nothing in this process can run when it
 * is SIGKILLed. A pipe can: its read end sees end-of-file when the last writer dies, however it
 * died. So a tiny `sh` holds the read end, blocks on it, and terminates the server's process group
 * (SIGTERM, then SIGKILL after the grace period) when it ends. The server gets its own pipes
 * straight from this process, so messages never pass through the watchdog.
 *
 * Protocol on the watchdog's stdin: first line = the process group id to guard; end-of-file = go.
 * `$1` is the grace period in tenths of a second. No `--` before the negative group id: dash's
 * `kill` builtin rejects it, and `-SIG -pgid` works in every POSIX shell.
 */
const watchdogScript = `trap '' HUP INT TERM PIPE
read group || exit 0
read ignored
kill -TERM "-$group" 2>/dev/null || exit 0
ticks=0
while kill -0 "-$group" 2>/dev/null; do
  if [ "$ticks" -ge "$1" ]; then kill -KILL "-$group" 2>/dev/null; exit 0; fi
  sleep 0.1
  ticks=$((ticks + 1))
done`;

/** Guards one process group: it is terminated when `release()` is called or this process dies. */
export interface ProcessGroupWatchdog {
  /** Starts guarding `groupId` (the server's pid: it was spawned as a group leader). */
  guard(groupId: number): void;
  /** Terminates what is left of the group (SIGTERM, SIGKILL after the grace period) and lets the watchdog exit. */
  release(): void;
  /** The watchdog's pid (undefined when it could not start). */
  readonly pid: number | undefined;
}

/**
 * Starts a watchdog (POSIX only). Started before the server so that guarding the server is a
 * synchronous pipe write right after its spawn: there is no moment in which this process could die
 * leaving an unguarded server.
 */
export function startProcessGroupWatchdog(killTimeoutMs: number): ProcessGroupWatchdog {
  const ticks = String(Math.max(1, Math.ceil(killTimeoutMs / 100)));
  let watchdog: ChildProcess | undefined;
  try {
    watchdog = spawn('/bin/sh', ['-c', watchdogScript, 'switchboard-watchdog', ticks], {
      stdio: ['pipe', 'ignore', 'ignore'],
      // Its own session: a Ctrl-C or SIGTERM sent to our process group must not take it down first.
      detached: true,
    });
  } catch {
    watchdog = undefined;
  }
  // A watchdog failing must never break the server connection it guards; it just guards nothing.
  watchdog?.on('error', () => {});
  watchdog?.stdin?.on('error', () => {});
  watchdog?.unref();
  const stdin = watchdog?.stdin as (NodeJS.WritableStream & { unref?: () => void }) | undefined | null;
  stdin?.unref?.();
  return {
    pid: watchdog?.pid,
    guard(groupId) {
      stdin?.write(`${groupId}\n`);
    },
    release() {
      stdin?.end();
    },
  };
}
