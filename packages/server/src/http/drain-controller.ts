/**
 * Draining and closing an HTTP server: a drain stops accepting (the listener closes, so a balancer
 * fails over on connect), marks the server not ready, answers with `Connection: close`, lets calls
 * in flight finish (bounded) and then closes idle keep-alive connections — or, behind a balancer
 * that reuses connections, waits for the client to close them (a POST lost to a server-side close
 * is never re-sent). Closing drains, then ends every connection.
 */
import type { Server as NodeHttpServer, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import type { Logger } from '@switchboard/core';

/** Options of a {@link DrainController}. */
export interface DrainOptions {
  /** How long a drain waits for calls in flight (and for clients to close). */
  timeoutMs: number;
  /** Leave idle connections for the client to close instead of closing them. */
  waitsForIdleClose: boolean;
  logger: Logger;
}

/** The in-flight bookkeeping, drain and close of one `node:http` server. */
export class DrainController {
  readonly #http: NodeHttpServer;
  readonly #options: DrainOptions;
  #inFlight = 0;
  /** Responses of calls in flight: a drain tells those not yet started to close their connections. */
  readonly #open = new Set<ServerResponse>();
  /** Every open connection, for a drain that waits until clients closed theirs. */
  readonly #sockets = new Set<Socket>();
  #closing = false;
  #stopped = false;
  #drained: (() => void) | undefined;
  #draining: Promise<void> | undefined;
  #listenerClosed: Promise<void> | undefined;
  readonly #drainSignal = new AbortController();

  constructor(http: NodeHttpServer, options: DrainOptions) {
    this.#http = http;
    this.#options = options;
    if (options.waitsForIdleClose) {
      http.on('connection', (socket: Socket) => {
        this.#sockets.add(socket);
        socket.once('close', () => this.#sockets.delete(socket));
      });
    }
  }

  /** Draining or closed: not ready, `Connection: close` on every response. */
  get closing(): boolean {
    return this.#closing;
  }

  /** Closed: requests are refused. */
  get stopped(): boolean {
    return this.#stopped;
  }

  /** Calls in flight. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** Aborted when a drain starts (ends streams that never end on their own: `subscriptions/listen`). */
  get signal(): AbortSignal {
    return this.#drainSignal.signal;
  }

  /**
   * Counts a response as a call in flight until the returned function runs; `counts` false for a
   * request that is not a call to wait for (a 2025 session's GET stream lives as long as its session).
   */
  track(response: ServerResponse, counts: boolean): () => void {
    // While draining, each answer closes its connection: the balancer moves to another replica.
    if (this.#closing) response.shouldKeepAlive = false;
    if (!counts) return noop;
    this.#inFlight += 1;
    this.#open.add(response);
    return () => {
      this.#inFlight -= 1;
      this.#open.delete(response);
      if (this.#inFlight === 0) this.#drained?.();
    };
  }

  /** Stops accepting, waits for calls in flight (bounded), closes idle keep-alive connections. */
  drain(endStandaloneStreams: () => void): Promise<void> {
    this.#draining ??= (async () => {
      const startedAt = Date.now();
      this.#closing = true;
      this.#drainSignal.abort();
      for (const response of this.#open) if (!response.headersSent) response.shouldKeepAlive = false;
      const waitsForIdleClose = this.#options.waitsForIdleClose;
      // Closing the listener makes a balancer's next connect fail over at once.
      this.#listenerClosed = new Promise<void>((resolve) => {
        // http.Server#close also closes idle keep-alive connections (Node ≥ 19), which is the very
        // race a balancer-facing drain avoids; net.Server#close only stops accepting.
        if (waitsForIdleClose) NetServer.prototype.close.call(this.#http, () => resolve());
        else this.#http.close(() => resolve());
      });
      // Behind a balancer its idle connections are its to close (below); else close them now.
      if (!waitsForIdleClose) this.#http.closeIdleConnections();
      if (this.#inFlight > 0) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          new Promise<void>((resolve) => {
            this.#drained = resolve;
          }),
          new Promise<void>((resolve) => {
            timer = setTimeout(resolve, this.#options.timeoutMs);
            timer.unref();
          }),
        ]);
        clearTimeout(timer);
      }
      if (waitsForIdleClose) {
        endStandaloneStreams();
        await this.#clientsClosed(startedAt + this.#options.timeoutMs);
      }
      this.#http.closeIdleConnections();
    })();
    return this.#draining;
  }

  /** Drains, marks the server stopped, runs `release`, ends every connection; resolves once the listener closed. */
  async close(endStandaloneStreams: () => void, release: () => void): Promise<void> {
    await this.drain(endStandaloneStreams);
    this.#stopped = true;
    release();
    this.#http.closeAllConnections();
    await this.#listenerClosed;
  }

  /** Resolves once every connection was closed by its client, or at `deadline` (epoch ms). */
  async #clientsClosed(deadline: number): Promise<void> {
    // Polled: a close event per socket would need a listener per connection for this rare wait.
    while (this.#sockets.size > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25).unref());
    }
    if (this.#sockets.size > 0) {
      this.#options.logger.warn(
        `drain: ${this.#sockets.size} connection(s) still open at the drain timeout (${this.#inFlight} call(s) in flight); closing them`,
      );
    }
  }
}

function noop(): void {}
