/**
 * How a caller ends one message's HTTP exchange (its POST, a DPoP retry, the GETs that resume its
 * stream): closing the stream is the cancellation of a 2026-07-28 request, so the transport must
 * be able to destroy whichever request is in flight, and later code must know the end was on
 * purpose. Two sources: the SDK's per-message `requestSignal`, and the lighter handle that
 * `onAbortable` gives out — an AbortSignal per message and its listeners cost about 25 µs of a
 * 2026-07-28 call here (the client bench), for the rare call that is cancelled.
 */
import type http from 'node:http';
import type { TransportSendOptions } from '@modelcontextprotocol/client';

/** Send options of Switchboard's Streamable HTTP transport beyond the SDK's. */
export interface HttpSendOptions extends TransportSendOptions {
  /**
   * Receives, before anything is sent, the function that ends this message's HTTP exchange (as
   * aborting `requestSignal` would). Only transports with `acceptsAbortHandle` call it.
   */
  onAbortable?: (abort: () => void) => void;
}

/** The abort state of one message's exchange. */
export interface RequestAbort {
  /** True once the caller ended the exchange. */
  readonly aborted: boolean;
  /** Destroys `request` when the caller ends the exchange (at once if it already did); returns the undo. */
  watch(request: http.ClientRequest): () => void;
}

class SignalAbort implements RequestAbort {
  constructor(private readonly signal: AbortSignal) {}

  get aborted(): boolean {
    return this.signal.aborted;
  }

  watch(request: http.ClientRequest): () => void {
    const onAbort = () => request.destroy();
    this.signal.addEventListener('abort', onAbort, { once: true });
    return () => this.signal.removeEventListener('abort', onAbort);
  }
}

class HandleAbort implements RequestAbort {
  aborted = false;
  private current: http.ClientRequest | undefined;

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.current?.destroy();
  }

  watch(request: http.ClientRequest): () => void {
    if (this.aborted) {
      request.destroy();
      return noop;
    }
    this.current = request;
    return () => {
      if (this.current === request) this.current = undefined;
    };
  }
}

const noop = () => {};

/** The abort state a message's send options ask for; undefined when it cannot be aborted. */
export function requestAbortOf(options: HttpSendOptions | undefined): RequestAbort | undefined {
  if (options?.requestSignal !== undefined) return new SignalAbort(options.requestSignal);
  if (options?.onAbortable === undefined) return undefined;
  const handle = new HandleAbort();
  options.onAbortable(() => handle.abort());
  return handle;
}
