/**
 * The live events of `switchboard ui`: one hub the session publishes to, and the Server-Sent
 * Events stream (`GET /api/events`) each open page reads. SSE rather than a WebSocket: the
 * events only flow to the page, the browser reconnects by itself, and it is plain HTTP, so the
 * same token, Host and Origin checks guard it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { UiEvent } from './ui-api.js';

/** Options of {@link createUiEventStream}. */
export interface UiEventStreamOptions {
  /** Comment lines sent this often keep proxies and idle timers from closing the stream. @default 15000 */
  heartbeatMs?: number;
}

/** The hub. */
export interface UiEventStream {
  /** Sends an event to every open stream (and every subscriber). */
  publish(event: UiEvent): void;
  /** Hears every event published (tests, the session's own bookkeeping). Returns the unsubscribe function. */
  subscribe(listener: (event: UiEvent) => void): () => void;
  /** Serves one page's stream; `initial` events are sent first (the state the page starts from). */
  serve(request: IncomingMessage, response: ServerResponse, initial: UiEvent[]): void;
  /** Open streams. */
  readonly clients: number;
  /** Ends every stream. */
  close(): void;
}

/** One event in the SSE wire format. */
function encode(event: UiEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/** Creates the hub. */
export function createUiEventStream(options: UiEventStreamOptions = {}): UiEventStream {
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const streams = new Set<ServerResponse>();
  const listeners = new Set<(event: UiEvent) => void>();
  let heartbeat: NodeJS.Timeout | undefined;

  const startHeartbeat = () => {
    if (heartbeat) return;
    heartbeat = setInterval(() => {
      for (const stream of streams) stream.write(': keep-alive\n\n');
    }, heartbeatMs);
    heartbeat.unref?.();
  };
  const stopHeartbeatWhenIdle = () => {
    if (streams.size > 0 || !heartbeat) return;
    clearInterval(heartbeat);
    heartbeat = undefined;
  };

  return {
    publish(event) {
      for (const listener of listeners) listener(event);
      if (streams.size === 0) return;
      const text = encode(event);
      for (const stream of streams) stream.write(text);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    serve(request, response, initial) {
      response.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        'x-content-type-options': 'nosniff',
      });
      // How long the browser waits before reconnecting after the process restarts.
      response.write('retry: 2000\n\n');
      for (const event of initial) response.write(encode(event));
      streams.add(response);
      startHeartbeat();
      const drop = () => {
        streams.delete(response);
        stopHeartbeatWhenIdle();
      };
      request.on('close', drop);
      response.on('error', drop);
    },
    get clients() {
      return streams.size;
    },
    close() {
      for (const stream of streams) stream.end();
      streams.clear();
      stopHeartbeatWhenIdle();
      listeners.clear();
    },
  };
}
