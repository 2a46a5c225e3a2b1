/**
 * The client's own test helpers: its fixture servers, finding the processes a test started, waiting,
 * a recording logger. What other packages' tests need too is in `@switchboard/test-helpers`.
 */
import { closeSync, openSync, readdirSync, readFileSync, readSync, watch } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEventLog, type EventLog } from '@switchboard/test-helpers';

/** A fixture script under test/fixtures. */
export function fixture(name: string): string {
  return join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', name);
}

/** The SDK v2 fixture server over stdio, pinned to `protocolVersion` (negotiated when undefined). */
export function sdkV2Stdio(protocolVersion?: string) {
  return {
    command: process.execPath,
    args: [fixture('sdk-v2-server.mjs')],
    ...(protocolVersion === undefined ? {} : { protocolVersion }),
  };
}

/** Pids of live processes whose command line contains `marker`. */
export function processesMatching(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const commandLine = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (!commandLine.includes(marker)) continue;
      const status = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Zombies have exited already; their parent just has not reaped them yet.
      if (/\) Z /.test(status)) continue;
      found.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

/**
 * Waits until `check` holds, polling; throws after `timeoutMs`. Only for state that tells no one
 * when it changes (a connection's `status()`, the process table): where an event exists, wait on it.
 */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 20_000,
  what = 'condition',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Pids of live processes whose environment contains `marker` (a unique value given in the entry's env). */
export function processesWithEnvironment(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!readFileSync(`/proc/${entry}/environ`, 'utf8').includes(marker)) continue;
      if (/\) Z /.test(readFileSync(`/proc/${entry}/stat`, 'utf8'))) continue;
      found.push(Number(entry));
    } catch {
      // Ended meanwhile, or not ours to read.
    }
  }
  return found;
}

/** A unique marker to put in a server's env. */
export function uniqueMarker(): string {
  return `sbtest-${process.pid}-${Math.random().toString(36).slice(2)}`;
}

/** A logger that keeps every line (message and context) for assertions. */
export function createRecordingLogger() {
  const lines: string[] = [];
  const method = (level: string) => (first: unknown, message?: string) => {
    lines.push(`${level} ${typeof first === 'string' ? first : `${JSON.stringify(first)} ${message ?? ''}`}`);
  };
  return {
    lines,
    logger: { debug: method('debug'), info: method('info'), warn: method('warn'), error: method('error') },
  };
}

/** The lines of a file as a fixture server appends them, and the watch to stop. */
export interface FileLines extends Disposable {
  lines: EventLog<string>;
  close(): void;
}

/**
 * Follows the lines appended to `file` (which may not exist yet), read at each change the OS
 * reports on its folder: the counter server's record of the calls it received, as events.
 */
export function followFileLines(file: string): FileLines {
  const lines = createEventLog<string>(`the lines of ${basename(file)}`);
  let offset = 0;
  let partial = '';
  const readNew = () => {
    let descriptor: number;
    try {
      descriptor = openSync(file, 'r');
    } catch {
      return; // Not written yet.
    }
    try {
      const buffer = Buffer.alloc(64 * 1024);
      for (let read = readSync(descriptor, buffer, 0, buffer.length, offset); read > 0; ) {
        offset += read;
        partial += buffer.toString('utf8', 0, read);
        read = readSync(descriptor, buffer, 0, buffer.length, offset);
      }
    } finally {
      closeSync(descriptor);
    }
    const complete = partial.split('\n');
    partial = complete.pop() ?? '';
    for (const line of complete) lines.push(line);
  };
  const watcher = watch(dirname(file), (_event, name) => {
    if (name === null || name === basename(file)) readNew();
  });
  readNew();
  const close = () => {
    watcher.close();
    lines.end('no longer followed');
  };
  return { lines, close, [Symbol.dispose]: close };
}
