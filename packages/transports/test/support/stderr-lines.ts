/**
 * A logger for a stdio transport that keeps the server's stderr lines (which the transport logs
 * at debug level) as an event log: a test waits for the line a server prints (a child's pid)
 * instead of polling `stderrTail()`.
 */
import { type Logger, silentLogger } from '@switchboard/core';
import { createEventLog, type EventLog } from '@switchboard/test-helpers';

/** The logger to give the transport, and the stderr lines it receives. */
export function stderrLines(name: string): { logger: Logger; lines: EventLog<string> } {
  const lines = createEventLog<string>(`the stderr of ${name}`);
  const logger: Logger = {
    ...silentLogger,
    debug: (context: unknown, message?: string) => {
      if ((context as { stream?: unknown } | undefined)?.stream === 'stderr' && message !== undefined)
        lines.push(message);
    },
  };
  return { logger, lines };
}
