/**
 * The optional GET stream on which a 2025-era server sends requests and notifications of its own,
 * opened once the session is initialized. A server may offer none (405, which the spec allows); a
 * stream that fails or ends with nothing to resume from is opened again, a bounded number of times.
 */
import type { Logger } from '@switchboard/core';
import type { HttpConnection } from './http-connection.js';
import type { ResponseStreams } from './response-stream.js';
import type { StreamReconnection } from './stream-reconnection.js';

/** The standalone stream of one connection. */
export class StandaloneStream {
  private opened = false;

  constructor(
    private readonly connection: HttpConnection,
    private readonly streams: ResponseStreams,
    private readonly reconnection: StreamReconnection,
    private readonly logger: Logger,
  ) {}

  /** Opens the stream (once per transport; `attempt` > 0 when it is opened again). */
  open(attempt = 0): void {
    const connection = this.connection;
    if (connection.closed || (this.opened && attempt === 0)) return;
    this.opened = true;
    connection.request('GET', connection.streamHeaders()).then(
      (response) => {
        const status = response.statusCode ?? 0;
        if (status === 200 && (response.headers['content-type'] ?? '').includes('text/event-stream')) {
          this.streams.consume(
            response,
            {
              request: undefined,
              answered: false,
              resumable: true,
              onResumptionToken: undefined,
              abort: undefined,
              onRequestStreamEnd: undefined,
              reopen: (ended, retryMs) => this.reopen(ended, retryMs),
            },
            attempt,
          );
          return;
        }
        response.resume();
        // 405: the server offers no such stream, which the spec allows.
        if (status !== 405)
          this.logger.debug({ server: connection.name, status }, 'no standalone event stream');
      },
      (error) => {
        if (!connection.closed) this.reopen(attempt, undefined, error);
      },
    );
  }

  private reopen(attempt: number, retryMs: number | undefined, cause?: unknown): void {
    if (attempt >= this.reconnection.maxRetries) {
      this.logger.debug(
        { server: this.connection.name, cause: String(cause) },
        'giving up on the standalone event stream',
      );
      return;
    }
    this.reconnection.schedule(retryMs ?? this.reconnection.backoff(attempt), () => this.open(attempt + 1));
  }
}
