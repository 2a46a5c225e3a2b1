/**
 * `startInspector`: the inspector as a program runs it — its session over the host's servers,
 * then its HTTP server on 127.0.0.1 — and one handle to print its URL and to stop both. What
 * `switchboard ui` calls once it has read its flags.
 */
import type { Logger } from '@switchboard/core';
import type { InspectorHost } from './inspector-host.js';
import type { UiServer } from './ui-api.js';
import { createUiServer, type UiServerHandle } from './ui-server.js';
import { createUiSession } from './ui-session.js';

/** Options of {@link startInspector}. */
export interface InspectorOptions {
  /** The program running the inspector: its servers and how to reach them. */
  host: InspectorHost;
  /** The port to listen on; 0 picks a free one. @default 0 */
  port?: number;
  /** Opens a URL for the person (an OAuth sign-in started from the page). @default none */
  openUrl?: (url: string) => void;
  /** Where the HTTP server reports its own failures. @default silentLogger */
  logger?: Logger;
  /** The token every request must carry. @default 32 random bytes, base64url */
  token?: string;
  /** Where the page's files are. @default `dist/page` of this package */
  staticDir?: string;
  /** Protocol log entries kept. @default 20000 */
  logCapacity?: number;
  /** Time between metrics samples (and server state checks). @default 2000 */
  metricsIntervalMs?: number;
}

/** A running inspector. */
export interface Inspector {
  /** The URL to open: `http://127.0.0.1:PORT/?token=…`. */
  readonly url: string;
  /** `http://127.0.0.1:PORT`. */
  readonly origin: string;
  readonly port: number;
  readonly token: string;
  /** Whether the page's files are there (`dist/page/index.html`). */
  readonly pageBuilt: boolean;
  /** The servers of the session, as the page lists them. */
  servers(): UiServer[];
  /** Stops serving, cancels the calls in flight and closes the servers. */
  close(): Promise<void>;
}

/**
 * Connects the host's servers and serves the page and its API. A port in use rejects with Node's
 * `EADDRINUSE` error, after the servers are closed again.
 */
export async function startInspector(options: InspectorOptions): Promise<Inspector> {
  const session = await createUiSession({
    host: options.host,
    ...(options.openUrl ? { openUrl: options.openUrl } : {}),
    ...(options.logCapacity === undefined ? {} : { logCapacity: options.logCapacity }),
    ...(options.metricsIntervalMs === undefined ? {} : { metricsIntervalMs: options.metricsIntervalMs }),
  });
  let server: UiServerHandle;
  try {
    server = await createUiServer({
      session,
      ...(options.port === undefined ? {} : { port: options.port }),
      ...(options.logger ? { logger: options.logger } : {}),
      ...(options.token === undefined ? {} : { token: options.token }),
      ...(options.staticDir === undefined ? {} : { staticDir: options.staticDir }),
    });
  } catch (error) {
    await session.close();
    throw error;
  }
  return {
    url: server.url,
    origin: server.origin,
    port: server.port,
    token: server.token,
    pageBuilt: server.pageBuilt,
    servers: () => session.servers(),
    async close() {
      await server.close();
      await session.close();
    },
  };
}
