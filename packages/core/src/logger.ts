/**
 * The logger interface every Switchboard package logs through. Pino-compatible: a pino (or
 * console-like) logger can be passed as is. Silent by default, because a library that prints
 * uninvited breaks stdio servers, whose stdout carries the protocol.
 */

/** A log method: `(message)`, or pino's `(context, message)`. */
export type LogMethod = {
  (message: string): void;
  (context: Record<string, unknown>, message?: string): void;
};

/** The minimal logger Switchboard needs. */
export interface Logger {
  debug: LogMethod;
  info: LogMethod;
  warn: LogMethod;
  error: LogMethod;
}

const noop = (): void => {};

/** A logger that drops everything (the default). */
export const silentLogger: Logger = Object.freeze({ debug: noop, info: noop, warn: noop, error: noop });

/** Options of {@link createConsoleLogger}. */
export interface ConsoleLoggerOptions {
  /** Lowest level written. @default 'info' */
  level?: 'debug' | 'info' | 'warn' | 'error';
  /** Written before each line. @default '[switchboard]' */
  prefix?: string;
  /** Where lines go. Stderr by default, so stdio protocol streams stay clean. @default process.stderr */
  write?: (line: string) => void;
}

const levels = ['debug', 'info', 'warn', 'error'] as const;

/** A small human-readable logger writing to stderr. */
export function createConsoleLogger(options: ConsoleLoggerOptions = {}): Logger {
  const min = levels.indexOf(options.level ?? 'info');
  const prefix = options.prefix ?? '[switchboard]';
  const write = options.write ?? ((line: string) => process.stderr.write(`${line}\n`));
  const method =
    (level: (typeof levels)[number]): LogMethod =>
    (first: string | Record<string, unknown>, message?: string) => {
      if (levels.indexOf(level) < min) return;
      const text =
        typeof first === 'string'
          ? first
          : `${message ?? ''}${Object.keys(first).length ? ` ${JSON.stringify(first)}` : ''}`;
      write(`${prefix} ${level}: ${text}`);
    };
  return { debug: method('debug'), info: method('info'), warn: method('warn'), error: method('error') };
}
