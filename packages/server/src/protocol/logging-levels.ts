/** RFC 5424 severities as MCP names them, and the one filter every log channel applies. */
import type { LoggingLevel } from '@modelcontextprotocol/server';

/** The levels, least severe first. */
export const loggingLevels: readonly LoggingLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

/** True when a message at `level` passes a client's `threshold` (no threshold: everything passes). */
export function passesLogLevel(level: LoggingLevel, threshold: LoggingLevel | undefined): boolean {
  return threshold === undefined || loggingLevels.indexOf(level) >= loggingLevels.indexOf(threshold);
}

/** True for one of the eight level names. */
export function isLoggingLevel(value: unknown): value is LoggingLevel {
  return typeof value === 'string' && (loggingLevels as readonly string[]).includes(value);
}
