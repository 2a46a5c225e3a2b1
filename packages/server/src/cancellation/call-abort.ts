/**
 * The cancellation of a call: a request carries one (`InboundRequest.abort`), a 2025 session
 * aborts those in flight, a task and a tool's context follow theirs. Its own folder, the lowest of
 * the request's parts, because sessions sit below requests and both name it.
 */

/**
 * The cancellation state of one tool call. Its `AbortController` is made only when something asks
 * for the signal: most tools never look at it, and making one (an `EventTarget` with its own maps)
 * costs more than a fast tool call.
 */
export class CallAbort {
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;
  readonly #given: AbortSignal | undefined;

  /** `signal`: an existing signal to follow instead of a lazily made one (the SDK path has one). */
  constructor(signal?: AbortSignal) {
    this.#given = signal;
  }

  /** The call's signal (made on first use; already aborted if the call was cancelled before). */
  get signal(): AbortSignal {
    if (this.#given !== undefined) return this.#given;
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** Whether the call was cancelled. */
  get aborted(): boolean {
    return this.#given !== undefined ? this.#given.aborted : this.#aborted;
  }

  /** Cancels the call; a signal handed out is aborted with `reason`. */
  abort(reason: unknown): void {
    if (this.#given !== undefined || this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }
}

/**
 * Base of the objects that hand a call's signal to a tool (its context, its execute options):
 * `signal` is an own, enumerable property, so a copy made with spread keeps it, yet it is read
 * (and the `AbortController` made) only when asked for. A shared descriptor defined in the
 * constructor costs a fraction of an object literal with a getter.
 */
export class CallSignalCarrier {
  declare readonly signal: AbortSignal;
  readonly #abort: CallAbort;
  static readonly #signalProperty: PropertyDescriptor = {
    enumerable: true,
    configurable: true,
    get(this: CallSignalCarrier) {
      return this.#abort.signal;
    },
  };

  constructor(abort: CallAbort) {
    this.#abort = abort;
    Object.defineProperty(this, 'signal', CallSignalCarrier.#signalProperty);
  }
}
