/**
 * Everything a command touches of the outside world, passed in rather than read from globals so
 * that tests run the real commands in-process and CI logs stay clean: streams, environment, cwd,
 * and the terminal niceties (colour only on a TTY without NO_COLOR, a spinner only on a TTY).
 */
import { showsLogLevel } from './cli-log-level.js';

/** A writable text stream (process.stdout or a test buffer). */
export interface TextSink {
  write(text: string): unknown;
  isTTY?: boolean;
}

/** The command's view of its environment. */
export interface CliIo {
  stdout: TextSink;
  stderr: TextSink;
  env: Record<string, string | undefined>;
  cwd: string;
  /** Asks the person at the terminal a yes/no question (approval prompts). */
  confirm?: (question: string) => Promise<boolean>;
}

/** Colour helpers that degrade to plain text. */
export interface Palette {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

/**
 * Picks colours for a stream: none when NO_COLOR is set (any value; `--no-color` sets it for the
 * run), TERM is `dumb`, or the stream is not a TTY.
 */
export function createPalette(stream: TextSink, env: CliIo['env']): Palette {
  const enabled = Boolean(stream.isTTY) && env.NO_COLOR === undefined && env.TERM !== 'dumb';
  const wrap = (open: number, close: number) => (text: string) =>
    enabled ? `\u001b[${open}m${text}\u001b[${close}m` : text;
  return {
    bold: wrap(1, 22),
    dim: wrap(2, 22),
    red: wrap(31, 39),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    cyan: wrap(36, 39),
  };
}

/** Renders rows as an aligned text table. */
export function formatTable(headers: string[], rows: string[][]): string {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(headers), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}

/** A spinner on stderr for long work; silent when stderr is not a TTY (CI logs, pipes) and under `--quiet`. */
export interface Progress {
  update(text: string): void;
  done(text?: string): void;
}

export function createProgress(io: CliIo, label: string): Progress {
  if (!io.stderr.isTTY || io.env.CI || !showsLogLevel(io.env, 'warn')) {
    return { update: () => {}, done: () => {} };
  }
  const frames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
  let frame = 0;
  let text = label;
  const render = () => io.stderr.write(`\r\u001b[2K${frames[frame++ % frames.length]} ${text}`);
  const timer = setInterval(render, 80);
  timer.unref?.();
  render();
  return {
    update(next) {
      text = `${label} ${next}`;
    },
    done(final) {
      clearInterval(timer);
      io.stderr.write(`\r\u001b[2K${final ? `${final}\n` : ''}`);
    },
  };
}

/** Writes warnings on stderr as `warning: …` lines, unless the run is at `--quiet` or below. */
export function writeWarnings(io: CliIo, warnings: readonly string[]): void {
  if (!showsLogLevel(io.env, 'warn')) return;
  for (const warning of warnings) io.stderr.write(`warning: ${warning}\n`);
}
