/**
 * What `switchboard call` shows while a tool runs: its progress (a bar when the server says the
 * total, a count otherwise, with the server's message) and the server's log messages, on stderr so
 * stdout keeps only the result. On a terminal the bar redraws in place; in a pipe or CI log each
 * update is one line, so the log stays readable. Under `--quiet` only the server's error-level
 * messages are shown, and no progress.
 */
import type { Progress } from '@modelcontextprotocol/client';
import type { CliIo } from './cli-io.js';
import { showsLogLevel } from './cli-log-level.js';

/** Reports one call's progress and log messages. */
export interface CallProgress {
  progress(update: Progress): void;
  log(server: string, message: { level: string; logger?: string | undefined; data?: unknown }): void;
  /** Ends the bar's line (before the result is printed). */
  done(): void;
}

const barWidth = 24;

// The MCP levels (RFC 5424's) that `--quiet` still shows.
const errorLevels = new Set(['error', 'critical', 'alert', 'emergency']);

/** The bar (or count) of one progress update, without colour. */
export function formatProgress(update: Progress): string {
  const { progress, total, message } = update;
  const suffix = message ? ` ${message}` : '';
  if (total === undefined || !(total > 0)) return `progress ${progress}${suffix}`;
  const share = Math.min(1, Math.max(0, progress / total));
  const filled = Math.round(share * barWidth);
  return `[${'#'.repeat(filled)}${'-'.repeat(barWidth - filled)}] ${progress}/${total} ${Math.round(share * 100)}%${suffix}`;
}

function logText(data: unknown): string {
  if (typeof data === 'string') return data;
  try {
    return JSON.stringify(data);
  } catch {
    return String(data);
  }
}

/** The reporter of one call on `io.stderr`. */
export function createCallProgress(io: CliIo): CallProgress {
  const inPlace = Boolean(io.stderr.isTTY) && !io.env.CI;
  const quiet = !showsLogLevel(io.env, 'warn');
  let barShown = false;
  const clearBar = () => {
    if (barShown) io.stderr.write('\r\u001b[2K');
    barShown = false;
  };
  let last = '';
  return {
    progress(update) {
      if (quiet) return;
      const line = formatProgress(update);
      if (inPlace) {
        io.stderr.write(`\r\u001b[2K${line}`);
        barShown = true;
      } else if (line !== last) {
        io.stderr.write(`${line}\n`);
      }
      last = line;
    },
    log(server, message) {
      if (quiet && !errorLevels.has(message.level)) return;
      clearBar();
      io.stderr.write(
        `[${server}] ${message.level}${message.logger ? ` ${message.logger}` : ''}: ${logText(message.data)}\n`,
      );
      if (inPlace && last) {
        io.stderr.write(last);
        barShown = true;
      }
    },
    done() {
      if (barShown && last) io.stderr.write('\n');
      barShown = false;
    },
  };
}
