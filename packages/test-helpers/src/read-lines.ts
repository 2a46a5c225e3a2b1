/**
 * The lines of a stream (a child's stdout or stderr) as an event log, read as they come: a test
 * waits for the line it stands on (`await lines.find((line) => /listening/.test(line))`) rather
 * than sleeping, and a stream that ends first fails the wait at once, with the lines it wrote.
 */
import type { Readable } from 'node:stream';
import { createEventLog, type EventLog } from './event-log.js';

/** Starts reading `stream` line by line into a log named `name` ("replica r1's stderr"). */
export function readLines(stream: Readable, name: string): EventLog<string> {
  const lines = createEventLog<string>(name);
  let partial = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    partial += chunk;
    let newline = partial.indexOf('\n');
    while (newline !== -1) {
      lines.push(partial.slice(0, newline).replace(/\r$/, ''));
      partial = partial.slice(newline + 1);
      newline = partial.indexOf('\n');
    }
  });
  stream.once('close', () => {
    if (partial !== '') lines.push(partial);
    partial = '';
    lines.end('the stream closed');
  });
  return lines;
}
