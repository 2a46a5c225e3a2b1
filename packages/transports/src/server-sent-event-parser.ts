/**
 * The `text/event-stream` parser of the Streamable HTTP transport's POST and GET streams: incremental
 * over the chunks `node:http` delivers, and keeping the last event id and `retry` the stream carried,
 * which resuming a 2025-era stream needs.
 */

/** One event of a `text/event-stream`. */
export interface ServerSentEvent {
  /** The `event` field, or `'message'` when absent. */
  event: string;
  /** The `data` lines joined with newlines. */
  data: string;
  /** The last event id seen on the stream at this event (may come from an earlier event). */
  id: string | undefined;
}

/**
 * An incremental `text/event-stream` parser following the HTML standard's rules: lines end in CRLF,
 * LF or CR; multi-line `data`; `id` (ignored when it contains NUL) persists across events; `retry`
 * (digits only); comments; a leading BOM. Fed decoded text chunks of any size.
 */
export class ServerSentEventParser {
  /** The last event id seen (for `Last-Event-ID` on reconnection). */
  lastEventId: string | undefined;
  /** The last `retry` value in milliseconds, if the server sent one. */
  retryMs: number | undefined;

  private buffer = '';
  private data = '';
  private hasData = false;
  private eventType = '';
  private skipLineFeed = false;
  private started = false;

  constructor(private readonly onEvent: (event: ServerSentEvent) => void) {}

  /** Feeds a chunk of decoded text. */
  push(chunk: string): void {
    let text = chunk;
    if (!this.started) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (this.skipLineFeed && text.charCodeAt(0) === 10) text = text.slice(1);
    this.skipLineFeed = false;
    text = this.buffer + text;
    let start = 0;
    for (let index = 0; index < text.length; index++) {
      const code = text.charCodeAt(index);
      if (code !== 10 && code !== 13) continue;
      this.processLine(text.slice(start, index));
      if (code === 13) {
        if (index + 1 === text.length) this.skipLineFeed = true;
        else if (text.charCodeAt(index + 1) === 10) index++;
      }
      start = index + 1;
    }
    this.buffer = text.slice(start);
  }

  private processLine(line: string): void {
    if (line.length === 0) {
      this.dispatch();
      return;
    }
    if (line.charCodeAt(0) === 58) return; // ':' comment
    const colon = line.indexOf(':');
    let field: string;
    let value: string;
    if (colon === -1) {
      field = line;
      value = '';
    } else {
      field = line.slice(0, colon);
      value = line.charCodeAt(colon + 1) === 32 ? line.slice(colon + 2) : line.slice(colon + 1);
    }
    switch (field) {
      case 'data':
        this.data = this.hasData ? `${this.data}\n${value}` : value;
        this.hasData = true;
        break;
      case 'event':
        this.eventType = value;
        break;
      case 'id':
        if (!value.includes('\0')) this.lastEventId = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.retryMs = Number(value);
        break;
      default:
        break;
    }
  }

  private dispatch(): void {
    if (this.hasData) {
      this.onEvent({ event: this.eventType || 'message', data: this.data, id: this.lastEventId });
    }
    this.data = '';
    this.hasData = false;
    this.eventType = '';
  }
}
