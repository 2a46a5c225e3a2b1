/**
 * Hints the CLI gives once per home rather than on every run (how to get a better embedding
 * model, …): the keys of the hints shown are kept in `~/.switchboard/notices.json`. A home that
 * cannot be written to gets the hint again next time, which is the safe side.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CommandContext } from './cli-command.js';
import { homeOf } from './cli-home.js';
import { showsLogLevel } from './cli-log-level.js';

/** The file that remembers which hints were shown. */
export function noticesFileOf(context: CommandContext): string {
  return join(homeOf(context), '.switchboard', 'notices.json');
}

function readShown(file: string): Record<string, string> {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { shown?: Record<string, string> };
    return typeof parsed.shown === 'object' && parsed.shown !== null ? parsed.shown : {};
  } catch {
    // No file yet, or not ours to make sense of: nothing was shown.
    return {};
  }
}

/**
 * Writes `text` to stderr unless the hint `key` was shown before from this home, or `--quiet` is
 * on (a quiet run does not use the hint up: it is shown on the next run that is not quiet).
 * Returns whether it was written.
 */
export function showHintOnce(context: CommandContext, key: string, text: string): boolean {
  if (!showsLogLevel(context.io.env, 'warn')) return false;
  const file = noticesFileOf(context);
  const shown = readShown(file);
  if (shown[key] !== undefined) return false;
  context.io.stderr.write(`hint: ${text}\n`);
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(
      file,
      `${JSON.stringify({ shown: { ...shown, [key]: new Date().toISOString() } }, null, 2)}\n`,
    );
  } catch {
    // Shown again next time: better than never.
  }
  return true;
}
