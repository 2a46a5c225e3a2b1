import { describe, expect, it } from 'vitest';
import { type ServerSentEvent, ServerSentEventParser } from '../src/server-sent-event-parser.js';

function parse(chunks: string[]): { events: ServerSentEvent[]; parser: ServerSentEventParser } {
  const events: ServerSentEvent[] = [];
  const parser = new ServerSentEventParser((event) => events.push(event));
  for (const chunk of chunks) parser.push(chunk);
  return { events, parser };
}

describe('ServerSentEventParser', () => {
  it('joins multi-line data and defaults the event type to message', () => {
    const { events } = parse(['data: first\ndata: second\n\n']);
    expect(events).toEqual([{ event: 'message', data: 'first\nsecond', id: undefined }]);
  });

  it('handles CRLF, CR and LF line endings, also split across chunks', () => {
    const { events } = parse(['event: a\r', '\ndata: 1\r\r', 'data: 2\n', '\n', 'data: 3\r\n\r\n']);
    expect(events.map((event) => [event.event, event.data])).toEqual([
      ['a', '1'],
      ['message', '2'],
      ['message', '3'],
    ]);
  });

  it('keeps the last event id across events, ignores ids with NUL, and reads retry', () => {
    const { events, parser } = parse([
      'id: 7\nretry: 1500\ndata: x\n\n',
      'data: y\n\n',
      'id: bad\0id\nretry: 12a\ndata: z\n\n',
    ]);
    expect(events.map((event) => event.id)).toEqual(['7', '7', '7']);
    expect(parser.lastEventId).toBe('7');
    expect(parser.retryMs).toBe(1500);
  });

  it('does not dispatch events without data but still records their id (priming events)', () => {
    const { events, parser } = parse(['id: e-1\nretry: 500\n\n', 'id: e-2\ndata: \n\n']);
    expect(events).toEqual([{ event: 'message', data: '', id: 'e-2' }]);
    expect(parser.lastEventId).toBe('e-2');
    expect(parser.retryMs).toBe(500);
  });

  it('skips comments, strips one leading space only, accepts fields without colon, strips a BOM', () => {
    const { events } = parse(['\uFEFF: keep-alive\n', 'data:  two spaces\ndata\nunknown: field\n\n']);
    expect(events).toEqual([{ event: 'message', data: ' two spaces\n', id: undefined }]);
  });

  it('does not dispatch an unterminated event', () => {
    expect(parse(['data: partial\n']).events).toEqual([]);
  });
});
