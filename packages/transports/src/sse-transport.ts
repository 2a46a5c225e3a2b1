/**
 * The client transport of the legacy HTTP+SSE protocol (2024-11-05), for servers that never moved to
 * Streamable HTTP and for the Streamable HTTP transport's fallback. The SDK's `SSEClientTransport`
 * does the work; this file loads it at start (it brings an EventSource client) and turns a stream
 * that cannot be opened into a `TransportError` naming the server and its redacted URL.
 */
import type { Transport } from '@modelcontextprotocol/client';
import { type Logger, silentLogger } from '@switchboard/core';
import { DeferredTransport } from './deferred-transport.js';
import { createStaticHeaders } from './http-headers.js';
import { redactUrl } from './redact-url.js';
import { TransportError, TransportErrorCode } from './transport-error.js';

/** Options of {@link createSseTransport}. */
export interface SseTransportOptions {
  /** The server's SSE endpoint (the GET that opens the event stream, often `/sse`). */
  url: string | URL;
  /** Headers sent with every request (the event stream and each POST). Never logged. */
  headers?: Record<string, string>;
  /** Sent as `Authorization: Bearer <token>`. Never logged. */
  bearerToken?: string;
  /** Server name used in logs and errors. @default the URL's host */
  name?: string;
  /** Receives lifecycle events. @default silentLogger */
  logger?: Logger;
}

/**
 * Creates a client transport for the legacy HTTP+SSE protocol (MCP 2024-11-05): a GET opens an
 * event stream whose `endpoint` event names where to POST messages. Built on the SDK's
 * `SSEClientTransport`, loaded on first start. A 2025-era transport: no modern headers, no `_meta`.
 */
export function createSseTransport(options: SseTransportOptions): Transport {
  const url = new URL(options.url);
  const name = options.name ?? url.host;
  const logger = options.logger ?? silentLogger;
  const headers = createStaticHeaders(options.headers, options.bearerToken);
  return new SseTransport(
    async () => {
      const { SSEClientTransport } = await import('@modelcontextprotocol/client');
      logger.debug({ server: name, url: redactUrl(url) }, 'opening legacy SSE stream');
      return new SSEClientTransport(url, { requestInit: { headers } });
    },
    name,
    url,
  );
}

class SseTransport extends DeferredTransport {
  constructor(
    load: () => Promise<Transport>,
    private readonly name: string,
    private readonly url: URL,
  ) {
    super(load);
  }

  override async start(): Promise<void> {
    try {
      await super.start();
    } catch (error) {
      throw new TransportError({
        code: TransportErrorCode.ConnectionFailed,
        message: `Could not open the SSE stream of MCP server "${this.name}" at ${redactUrl(this.url)}: ${(error as Error).message}. Check that the server is running and that the URL is its SSE endpoint.`,
        context: { server: this.name, url: redactUrl(this.url) },
        cause: error,
      });
    }
  }
}
