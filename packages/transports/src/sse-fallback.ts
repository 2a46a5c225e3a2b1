/**
 * The backwards-compatible way to a legacy server: when it refuses a Streamable HTTP `initialize`
 * (a 4xx with no modern JSON-RPC error), the session goes on over the legacy HTTP+SSE protocol on
 * the same URL, as the spec's backwards-compatibility section describes. The SSE transport is
 * loaded only then, and its messages, errors and close reach the Streamable HTTP transport's handlers.
 */
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import type { Logger } from '@switchboard/core';
import type { HttpConnection } from './http-connection.js';
import { excerpt } from './json-rpc-message.js';
import { TransportErrorCode } from './transport-error.js';

/** What the fallback needs of the transport it stands in for. */
export interface SseFallbackParts {
  connection: HttpConnection;
  logger: Logger;
  /** The transport's own headers and token, for the legacy requests. Never logged. */
  headers: Record<string, string> | undefined;
  bearerToken: string | undefined;
  /** The transport whose handlers the fallback's messages, errors and close reach. */
  target: Pick<Transport, 'onmessage' | 'onerror' | 'onclose'>;
  /** Told the fallback transport once made (before it starts), and undefined again if it failed. */
  use: (fallback: Transport | undefined) => void;
}

/** Starts the legacy HTTP+SSE transport and sends it `initialize`; a failure there fails the connection. */
export async function fallBackToSse(
  parts: SseFallbackParts,
  initialize: JSONRPCMessage,
  status: number,
  text: string,
): Promise<void> {
  const { connection, logger, target } = parts;
  logger.info(
    { server: connection.name, url: connection.safeUrl, status },
    'initialize refused; falling back to the legacy HTTP+SSE transport',
  );
  const { createSseTransport } = await import('./sse-transport.js');
  const fallback = createSseTransport({
    url: connection.url,
    name: connection.name,
    logger,
    ...(parts.headers ? { headers: parts.headers } : {}),
    ...(parts.bearerToken !== undefined ? { bearerToken: parts.bearerToken } : {}),
  });
  fallback.onmessage = (message, extra) => target.onmessage?.(message, extra);
  fallback.onerror = (error) => target.onerror?.(error);
  fallback.onclose = () => target.onclose?.();
  parts.use(fallback);
  try {
    await fallback.start();
    await fallback.send(initialize);
  } catch (cause) {
    parts.use(undefined);
    throw connection.error(
      TransportErrorCode.ConnectionFailed,
      `initialize answered HTTP ${status}${text ? ` (${excerpt(text, 120)})` : ''} and the fallback to the legacy HTTP+SSE transport failed too: ${(cause as Error).message}. Check the URL: it should be the server's MCP endpoint.`,
      {},
      cause,
      status,
    );
  }
}
