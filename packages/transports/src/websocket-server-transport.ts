/**
 * The server side of MCP over WebSocket: one accepted `ws` connection as an SDK `Transport`, one
 * JSON-RPC message or batch per text frame. It sits with the client transports, whose framing
 * (`json-rpc-message.ts`) it shares; a frame that is not JSON-RPC is reported through `onerror` and
 * the connection stays open.
 */
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import type WebSocket from 'ws';
import { excerpt, parseJsonRpcMessages, webSocketFrameText } from './json-rpc-message.js';
import { TransportError, TransportErrorCode } from './transport-error.js';

/**
 * Wraps one accepted WebSocket connection (from a `ws` `WebSocketServer`) as a server-side
 * transport: connect an SDK `Server` to it, one per connection. Accept the `mcp` subprotocol with
 * `new WebSocketServer({ handleProtocols: (protocols) => (protocols.has('mcp') ? 'mcp' : false) })`.
 */
export function createWebSocketServerTransport(socket: WebSocket): Transport {
  return new WebSocketServerTransport(socket);
}

class WebSocketServerTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onerror?: Transport['onerror'];
  onclose?: Transport['onclose'];
  sessionId?: string | undefined;
  private closedNotified = false;

  constructor(private readonly socket: WebSocket) {}

  async start(): Promise<void> {
    this.socket.on('message', (data, isBinary) => {
      const text = webSocketFrameText(data, isBinary);
      const messages = parseJsonRpcMessages(text);
      if (!messages) {
        this.onerror?.(
          new TransportError({
            code: TransportErrorCode.TransportError,
            message: `A WebSocket client sent a frame that is not JSON-RPC: ${JSON.stringify(excerpt(text))}`,
          }),
        );
        return;
      }
      for (const message of messages) this.onmessage?.(message);
    });
    this.socket.on('error', (error) => this.onerror?.(error));
    this.socket.on('close', () => this.notifyClosed());
  }

  private notifyClosed(): void {
    if (this.closedNotified) return;
    this.closedNotified = true;
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.socket.readyState !== this.socket.OPEN) {
        reject(
          new TransportError({
            code: TransportErrorCode.NotConnected,
            message: 'Cannot send: the WebSocket client is gone.',
          }),
        );
        return;
      }
      this.socket.send(JSON.stringify(message), (error) => (error ? reject(error) : resolve()));
    });
  }

  async close(): Promise<void> {
    if (this.socket.readyState === this.socket.OPEN) this.socket.close(1000);
    this.notifyClosed();
  }
}
