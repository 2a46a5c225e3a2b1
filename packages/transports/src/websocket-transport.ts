/**
 * The WebSocket client transport (`ws://`, `wss://`, subprotocol `mcp`): one JSON-RPC message per
 * text frame, the headers and bearer token on the upgrade request, and a `close()` that waits a
 * bounded time for the closing handshake. `ws` is loaded at start, so the root entry does not pull it
 * in for users who never open a WebSocket.
 */
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { type Logger, silentLogger } from '@switchboard/core';
import type WebSocket from 'ws';
import { createStaticHeaders } from './http-headers.js';
import { excerpt, parseJsonRpcMessages, webSocketFrameText } from './json-rpc-message.js';
import { redactUrl } from './redact-url.js';
import { TransportError, TransportErrorCode } from './transport-error.js';

/** Options of {@link createWebSocketTransport}. */
export interface WebSocketTransportOptions {
  /** The server's `ws://` or `wss://` URL. */
  url: string | URL;
  /** Headers sent with the upgrade request. Never logged. */
  headers?: Record<string, string>;
  /** Sent as `Authorization: Bearer <token>` with the upgrade request. Never logged. */
  bearerToken?: string;
  /** Server name used in logs and errors. @default the URL's host */
  name?: string;
  /** Receives lifecycle events. @default silentLogger */
  logger?: Logger;
  /** How long `close()` waits for the closing handshake before dropping the socket. @default 2000 */
  closeTimeoutMs?: number;
}

/** Creates a client transport that carries one JSON-RPC message per WebSocket text frame (subprotocol `mcp`). */
export function createWebSocketTransport(options: WebSocketTransportOptions): Transport {
  return new WebSocketTransport(options);
}

class WebSocketTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onerror?: Transport['onerror'];
  onclose?: Transport['onclose'];
  sessionId?: string | undefined;

  private socket: WebSocket | undefined;
  private readonly name: string;
  private readonly safeUrl: string;
  private readonly logger: Logger;
  private closedNotified = false;

  constructor(private readonly options: WebSocketTransportOptions) {
    const url = new URL(options.url);
    this.name = options.name ?? url.host;
    this.safeUrl = redactUrl(url);
    this.logger = options.logger ?? silentLogger;
  }

  private error(code: TransportErrorCode, detail: string, cause?: unknown): TransportError {
    return new TransportError({
      code,
      message: `MCP server "${this.name}" (${this.safeUrl}): ${detail}`,
      context: { server: this.name, url: this.safeUrl },
      cause,
    });
  }

  async start(): Promise<void> {
    if (this.socket)
      throw this.error(TransportErrorCode.TransportError, 'the WebSocket transport was already started');
    // Loaded here so the root entry does not pull in `ws` for users who never open a WebSocket.
    const { WebSocket } = await import('ws');
    const socket = new WebSocket(this.options.url, 'mcp', {
      headers: createStaticHeaders(this.options.headers, this.options.bearerToken),
    });
    this.socket = socket;
    await new Promise<void>((resolve, reject) => {
      const onError = (cause: Error & { code?: string }) => {
        socket.off('open', onOpen);
        const detail =
          cause.code === 'ECONNREFUSED'
            ? 'connection refused (ECONNREFUSED). Check that the server is running and that the URL and port are right.'
            : `could not open the WebSocket: ${cause.message}`;
        reject(this.error(TransportErrorCode.ConnectionFailed, detail, cause));
      };
      const onOpen = () => {
        socket.off('error', onError);
        resolve();
      };
      socket.once('error', onError);
      socket.once('open', onOpen);
    });
    this.logger.debug({ server: this.name, url: this.safeUrl }, 'WebSocket open');
    socket.on('message', (data, isBinary) => {
      const text = webSocketFrameText(data, isBinary);
      const messages = parseJsonRpcMessages(text);
      if (!messages) {
        this.onerror?.(
          this.error(
            TransportErrorCode.TransportError,
            `received a frame that is not JSON-RPC: ${JSON.stringify(excerpt(text))}`,
          ),
        );
        return;
      }
      for (const message of messages) this.onmessage?.(message);
    });
    socket.on('error', (cause) =>
      this.onerror?.(
        this.error(TransportErrorCode.TransportError, `WebSocket error: ${cause.message}`, cause),
      ),
    );
    socket.on('close', () => this.notifyClosed());
  }

  private notifyClosed(): void {
    if (this.closedNotified) return;
    this.closedNotified = true;
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    const socket = this.socket;
    if (!socket || socket.readyState !== socket.OPEN) {
      return Promise.reject(
        this.error(TransportErrorCode.NotConnected, 'cannot send: the WebSocket is not open'),
      );
    }
    return new Promise((resolve, reject) => {
      socket.send(JSON.stringify(message), (error) =>
        error
          ? reject(this.error(TransportErrorCode.TransportError, `sending failed: ${error.message}`, error))
          : resolve(),
      );
    });
  }

  async close(): Promise<void> {
    const socket = this.socket;
    if (!socket || socket.readyState === socket.CLOSED) {
      this.notifyClosed();
      return;
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        socket.terminate();
        resolve();
      }, this.options.closeTimeoutMs ?? 2000);
      socket.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      socket.close(1000);
    });
    this.notifyClosed();
  }
}
