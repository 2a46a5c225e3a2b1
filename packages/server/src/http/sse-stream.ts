/** One server-sent event stream on a `node:http` response: JSON-RPC messages as `message` events. */
import type { ServerResponse } from 'node:http';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';

const sseHeaders = [
  'content-type',
  'text/event-stream',
  'cache-control',
  'no-cache, no-transform',
  'x-accel-buffering',
  'no',
];

/** A message as one SSE event (with its id when resumable). */
export function sseEvent(message: unknown, eventId?: string): string {
  return eventId === undefined
    ? `event: message\ndata: ${JSON.stringify(message)}\n\n`
    : `event: message\nid: ${eventId}\ndata: ${JSON.stringify(message)}\n\n`;
}

/** An SSE response. Writes after the client went away are dropped. */
export class SseStream {
  readonly #response: ServerResponse;
  #ended = false;

  /** `flush`: send the headers now, for a stream that may stay silent (a GET stream, a resumed one). */
  constructor(response: ServerResponse, extraHeaders?: Record<string, string>, flush = false) {
    this.#response = response;
    const headers = [...sseHeaders];
    if (extraHeaders !== undefined)
      for (const name in extraHeaders) headers.push(name, extraHeaders[name] as string);
    response.writeHead(200, headers);
    // A silent stream must still be seen open by the client; others go out with their first event.
    if (flush) response.flushHeaders();
    response.on('close', () => {
      this.#ended = true;
    });
  }

  /** False once ended or the client left. */
  get open(): boolean {
    return !this.#ended && !this.#response.destroyed;
  }

  /** Sends a message event. */
  write(message: JSONRPCMessage | unknown, eventId?: string): void {
    if (this.open) this.#response.write(sseEvent(message, eventId));
  }

  /** Sends a priming event (an id with empty data, and the reconnection delay) so the client can resume. */
  prime(eventId: string, retryMs: number | undefined): void {
    if (!this.open) return;
    this.#response.write(
      retryMs === undefined ? `id: ${eventId}\ndata: \n\n` : `id: ${eventId}\nretry: ${retryMs}\ndata: \n\n`,
    );
  }

  /** Ends the stream (optionally with a last message). */
  end(last?: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    if (this.#response.destroyed) return;
    if (last === undefined) this.#response.end();
    else this.#response.end(sseEvent(last));
  }

  /** Runs `listener` when the client closes the stream before it ended. */
  onClientClose(listener: () => void): void {
    this.#response.on('close', () => {
      if (!this.#response.writableFinished) listener();
    });
  }
}
