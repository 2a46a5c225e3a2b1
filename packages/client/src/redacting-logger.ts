/**
 * Wraps a logger so nothing it writes carries a known secret: messages and string context values
 * (one level deep, where stderr lines and error messages sit) are redacted.
 */
import type { Logger, LogMethod } from '@switchboard/core';
import type { Redactor } from './redactor.js';

/** A logger that redacts before delegating to `logger`. */
export function createRedactingLogger(logger: Logger, redactor: Redactor): Logger {
  const clean = (value: unknown): unknown => {
    if (typeof value === 'string') return redactor.redact(value);
    if (value instanceof Error) return redactor.redact(value.message);
    return value;
  };
  const wrap =
    (method: LogMethod): LogMethod =>
    (first: string | Record<string, unknown>, message?: string) => {
      if (typeof first === 'string') {
        method(redactor.redact(first));
        return;
      }
      const context: Record<string, unknown> = {};
      for (const key of Object.keys(first)) context[key] = clean(first[key]);
      if (message === undefined) method(context);
      else method(context, redactor.redact(message));
    };
  return {
    debug: wrap(logger.debug.bind(logger)),
    info: wrap(logger.info.bind(logger)),
    warn: wrap(logger.warn.bind(logger)),
    error: wrap(logger.error.bind(logger)),
  };
}
