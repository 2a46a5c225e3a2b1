/**
 * A transport that imports its implementation at `start()`: the base of the stdio and legacy SSE
 * transports the root entry hands out, so that importing `@switchboard/transports` loads neither
 * `child_process` nor the SDK's SSE client until a server needs one. What a caller sets before the
 * start (callbacks, the protocol version, a close) is carried over to the loaded transport.
 */
import type { JSONRPCMessage, Transport, TransportSendOptions } from '@modelcontextprotocol/client';
import { TransportError, TransportErrorCode } from './transport-error.js';

/**
 * A transport whose implementation is loaded when it starts. It lets the root entry offer every
 * transport kind without statically importing Node-only or heavy modules (`child_process`, the
 * SDK's EventSource client) that a given user never needs.
 */
export class DeferredTransport<T extends Transport = Transport> implements Transport {
  onmessage?: Transport['onmessage'];
  onerror?: Transport['onerror'];
  onclose?: Transport['onclose'];

  /** The loaded transport, once `start()` has loaded it. */
  protected inner: T | undefined;
  private protocolVersion: string | undefined;
  private closedBeforeStart = false;

  constructor(private readonly load: () => Promise<T>) {}

  get sessionId(): string | undefined {
    return this.inner?.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
    this.inner?.setProtocolVersion?.(version);
  }

  async start(): Promise<void> {
    const inner = await this.load();
    if (this.closedBeforeStart) return;
    this.inner = inner;
    inner.onmessage = (message, extra) => this.onmessage?.(message, extra);
    inner.onerror = (error) => this.onerror?.(error);
    inner.onclose = () => this.onclose?.();
    this.attach(inner);
    if (this.protocolVersion !== undefined) inner.setProtocolVersion?.(this.protocolVersion);
    await inner.start();
  }

  /** Hook for subclasses to wire extra callbacks of the loaded transport. */
  protected attach(_inner: T): void {}

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (!this.inner) {
      return Promise.reject(
        new TransportError({
          code: TransportErrorCode.NotConnected,
          message: 'Cannot send: the transport is not started. Call start() first (Client.connect() does).',
        }),
      );
    }
    return this.inner.send(message, options);
  }

  async close(): Promise<void> {
    if (!this.inner) {
      this.closedBeforeStart = true;
      this.onclose?.();
      return;
    }
    await this.inner.close();
  }
}
