/**
 * The hot path of `tools/call`, beside the SDK's request funnel. The SDK v2 `Client` parses every
 * inbound message with zod guards, decodes each result through its era codec and validates it
 * against a result schema: about 60 µs of CPU a call here, which is most of what separates a
 * client from a bare keep-alive POST (the client bench measures both in the same rounds). A plain
 * tool call needs none of it: the tool layer checks the arguments before and the output schema
 * after, with errors that name the tool. So the lane sends the request on the SDK's own transport
 * itself and takes its answer (and its progress) from the transport before the SDK's message
 * handler, whose zod guards alone cost more than the lane's whole bookkeeping, sees them.
 *
 * What stays the SDK's: everything that is not a plain answer. A result that asks for client input
 * (2026-07-28 multi-round) goes to the SDK's input-required driver with the same flow a request of
 * its own would carry, a task result to the task handling, server requests and every other
 * message to the SDK as before. Timeouts, progress reset, cancellation (`notifications/cancelled`,
 * or closing the request's stream on a 2026-07-28 HTTP connection) mirror the SDK's funnel, and
 * the errors are the SDK's own classes, so callers cannot tell the two paths apart.
 */
import {
  type CallToolResult,
  DEFAULT_REQUEST_TIMEOUT_MSEC,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  type JSONRPCNotification,
  type JSONRPCResponse,
  type ProgressNotificationParams,
  ProtocolError,
  type RequestOptions,
  SdkError,
  SdkErrorCode,
  type StandardSchemaV1,
  type Transport,
} from '@modelcontextprotocol/client';
import type { HttpSendOptions } from '@switchboard/transports';

/** What a call that did not end in a plain answer hands on: its options, start and result schema. */
export interface DirectCallFlow {
  options: RequestOptions;
  startedAt: number;
  /** What the result of a further leg (a multi-round retry) is checked with. */
  resultSchema: StandardSchemaV1;
}

/** What the lane needs from the client it serves (the SDK Client subclass). */
export interface DirectCallHost {
  /** The connected transport (undefined once closed). */
  readonly transport: Transport | undefined;
  /** True on a 2026-07-28 connection. */
  modern(): boolean;
  /** The `_meta` envelope a request of this connection carries (undefined on 2025 connections); never modified. */
  envelope(): Readonly<Record<string, unknown>> | undefined;
  /**
   * Resolves a result that is not a plain answer (`resultType` other than `complete`): the SDK's
   * input-required driver, or the task handling. `id` is the request's.
   */
  resolveNonComplete(
    id: string,
    request: { method: 'tools/call'; params: Record<string, unknown> },
    result: Record<string, unknown>,
    flow: DirectCallFlow,
  ): Promise<unknown>;
}

interface PendingCall extends DirectCallFlow {
  request: { method: 'tools/call'; params: Record<string, unknown> };
  resolve(result: CallToolResult): void;
  reject(error: unknown): void;
  timer: NodeJS.Timeout | undefined;
  /** Closes the request's own HTTP stream (2026-07-28: closing it is the cancellation). */
  closeStream: (() => void) | undefined;
}

// A prefix no SDK id has (the SDK counts numbers from 0): the two id spaces cannot meet.
const idPrefix = 'sb-';

/** How long a call's fresh abort signal goes unwatched (see `DirectToolCalls.watch`): an abort in that window is acted on this late at most. */
const signalSweepMs = 10;

/** Plain `tools/call` requests on a connection, with their answers taken before the SDK's funnel. */
export class DirectToolCalls {
  private readonly pending = new Map<string, PendingCall>();
  /** The ids of pending calls by the signal that aborts them (see `watch`). */
  private readonly bySignal = new WeakMap<AbortSignal, Set<string>>();
  /** Pending calls whose signal is not watched yet, and the sweep that will watch it. */
  private readonly unwatched = new Set<string>();
  private sweep: NodeJS.Timeout | undefined;
  private nextId = 1;

  constructor(private readonly host: DirectCallHost) {}

  /**
   * Sends `tools/call` with `params`; settles with the server's result as it sent it. A `_meta` in
   * `params` (trace context) is kept, merged with the connection's envelope and the progress token.
   */
  call(
    params: { name: string; arguments?: Record<string, unknown>; _meta?: Readonly<Record<string, unknown>> },
    options: RequestOptions,
    resultSchema: StandardSchemaV1,
  ): Promise<CallToolResult> {
    const transport = this.host.transport;
    if (transport === undefined)
      return Promise.reject(new SdkError(SdkErrorCode.NotConnected, 'Not connected'));
    const signal = options.signal;
    if (signal?.aborted) return Promise.reject(abortError(signal.reason));
    const id = `${idPrefix}${this.nextId++}`;
    const envelope = this.host.envelope();
    const progress = options.onprogress !== undefined;
    const own = params._meta;
    // The envelope is shared by every request of the connection (frozen): used as is when it is
    // all the `_meta` there is. The caller's `_meta` is merged over it, as the SDK merges.
    const requestParams: Record<string, unknown> =
      own === undefined
        ? envelope === undefined && !progress
          ? params
          : { ...params, _meta: progress ? { ...envelope, progressToken: id } : envelope }
        : {
            ...params,
            _meta: progress ? { ...envelope, ...own, progressToken: id } : { ...envelope, ...own },
          };
    const request = { method: 'tools/call' as const, params: requestParams };
    return new Promise<CallToolResult>((resolve, reject) => {
      // 2026-07-28 over HTTP: cancelling is closing the request's stream. Switchboard's transport
      // hands out a plain function for that (`onAbortable`); others need an AbortSignal.
      const perRequestStream = this.host.modern() && transport.hasPerRequestStream === true;
      const handle =
        perRequestStream && (transport as { acceptsAbortHandle?: boolean }).acceptsAbortHandle === true;
      const streamAbort = perRequestStream && !handle ? new AbortController() : undefined;
      const entry: PendingCall = {
        request,
        options,
        startedAt: Date.now(),
        resultSchema,
        resolve,
        reject,
        timer: undefined,
        closeStream: undefined,
      };
      this.pending.set(id, entry);
      if (signal !== undefined) this.watch(signal, id);
      this.arm(id, entry);
      // A response stream that ends before the answer (and cannot be resumed) loses the request
      // (2026-07-28: the client must send it anew): fail it now rather than at its deadline.
      const streamEnded = () => {
        if (this.finish(id)) {
          reject(
            new SdkError(
              SdkErrorCode.ConnectionClosed,
              'the response stream ended before the answer arrived',
            ),
          );
        }
      };
      const sendOptions: HttpSendOptions = handle
        ? {
            onRequestStreamEnd: streamEnded,
            onAbortable: (abort) => {
              entry.closeStream = abort;
            },
          }
        : streamAbort === undefined
          ? { onRequestStreamEnd: streamEnded }
          : {
              requestSignal: streamAbort.signal,
              onRequestStreamEnd: streamEnded,
            };
      if (streamAbort !== undefined) entry.closeStream = () => streamAbort.abort();
      transport.send({ jsonrpc: '2.0', id, ...request }, sendOptions).catch((error: unknown) => {
        if (this.finish(id)) reject(error);
      });
    });
  }

  /**
   * Puts the lane in front of the SDK's message handler on `transport` (after the SDK connected
   * it): the lane's answers and progress are taken there, everything else passes on untouched.
   */
  takeMessagesOf(transport: Transport): void {
    const next = transport.onmessage;
    transport.onmessage = (message, extra) => {
      if (this.pending.size > 0 && this.take(message)) return;
      next?.call(transport, message, extra);
    };
  }

  /** Takes a message meant for the lane (an answer or progress of one of its calls). */
  private take(message: JSONRPCMessage): boolean {
    if ('method' in message) return !('id' in message) && this.progress(message);
    return 'id' in message && this.settle(message as JSONRPCResponse | JSONRPCErrorResponse);
  }

  /** Takes the response to one of the lane's requests; false for everyone else's. */
  settle(response: JSONRPCResponse | JSONRPCErrorResponse): boolean {
    const id = response.id;
    if (typeof id !== 'string' || !id.startsWith(idPrefix)) return false;
    const entry = this.pending.get(id);
    if (entry === undefined || !this.finish(id)) return true;
    if ('error' in response) {
      entry.reject(ProtocolError.fromError(response.error.code, response.error.message, response.error.data));
      return true;
    }
    const result = response.result as Record<string, unknown>;
    const resultType = result.resultType;
    if (resultType === undefined) {
      entry.resolve(result as CallToolResult);
      return true;
    }
    if (resultType === 'complete') {
      // The SDK hands back results without `resultType`: so does the lane (a copy without it, not
      // `delete`, which would leave the object slow for everyone who reads it afterwards).
      const { resultType: _complete, ...plain } = result;
      entry.resolve(plain as CallToolResult);
      return true;
    }
    this.host
      .resolveNonComplete(id, entry.request, result, entry)
      .then((settled) => entry.resolve(settled as CallToolResult), entry.reject);
    return true;
  }

  /** Takes a progress notification of one of the lane's requests; false for everyone else's. */
  progress(notification: JSONRPCNotification): boolean {
    if (notification.method !== 'notifications/progress') return false;
    const params = notification.params as ProgressNotificationParams | undefined;
    const token = params?.progressToken;
    if (typeof token !== 'string' || !token.startsWith(idPrefix)) return false;
    const entry = this.pending.get(token);
    if (entry === undefined || params === undefined) return true;
    if (entry.options.resetTimeoutOnProgress) this.arm(token, entry);
    const { progressToken: _token, ...progress } = params;
    entry.options.onprogress?.(progress as never);
    return true;
  }

  /** Fails every call in flight (the connection closed). */
  closeAll(): void {
    for (const [id, entry] of [...this.pending]) {
      if (this.finish(id)) entry.reject(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'));
    }
  }

  /** (Re)starts the call's deadline: per wait, bounded by the total deadline when one is set. */
  private arm(id: string, entry: PendingCall): void {
    if (entry.timer !== undefined) clearTimeout(entry.timer);
    const timeout = entry.options.timeout ?? DEFAULT_REQUEST_TIMEOUT_MSEC;
    const total = entry.options.maxTotalTimeout;
    if (total !== undefined && Date.now() - entry.startedAt >= total) {
      this.cancel(
        id,
        new SdkError(SdkErrorCode.RequestTimeout, 'Maximum total timeout exceeded', {
          maxTotalTimeout: total,
          totalElapsed: Date.now() - entry.startedAt,
        }),
      );
      return;
    }
    entry.timer = setTimeout(
      () => this.cancel(id, new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out', { timeout })),
      timeout,
    );
  }

  /** Gives up on a call: tells the server (as the SDK does) and rejects with `reason`. */
  private cancel(id: string, reason: unknown): void {
    const entry = this.pending.get(id);
    if (entry === undefined || !this.finish(id)) return;
    if (entry.closeStream !== undefined) {
      entry.closeStream();
    } else {
      const envelope = this.host.envelope();
      this.host.transport
        ?.send({
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: {
            requestId: id,
            reason: String(reason),
            ...(envelope === undefined ? {} : { _meta: { ...envelope } }),
          },
        })
        .catch(() => {});
    }
    entry.reject(reason);
  }

  /** Forgets a call; false when it was already settled. */
  private finish(id: string): boolean {
    const entry = this.pending.get(id);
    if (entry === undefined) return false;
    this.pending.delete(id);
    if (entry.timer !== undefined) clearTimeout(entry.timer);
    if (entry.options.signal !== undefined) {
      this.unwatched.delete(id);
      this.bySignal.get(entry.options.signal)?.delete(id);
    }
    return true;
  }

  /**
   * Cancels the call when its signal aborts. Why not simply an abort listener per call: adding the
   * first listener to a signal costs 5 µs even in a hot loop (Node tracks signals with listeners),
   * and 15–40 µs of a 220 µs stdio call in situ — and frameworks pass a fresh signal per tool call
   * (the Agents SDK combines its run's and a timeout's). So a signal already watched gets the id
   * added (one listener per signal, for the signal's life), and a new one is watched only if its
   * call is still pending at the next sweep, `signalSweepMs` later: most calls finish before, and
   * an abort in that window is acted on at the sweep (the call still rejects and the server is
   * still told), at most `signalSweepMs` late.
   */
  private watch(signal: AbortSignal, id: string): void {
    const ids = this.bySignal.get(signal);
    if (ids !== undefined) {
      ids.add(id);
      return;
    }
    this.unwatched.add(id);
    if (this.sweep === undefined) {
      this.sweep = setTimeout(() => this.sweepSignals(), signalSweepMs);
      this.sweep.unref?.();
    }
  }

  /** Watches the signals of the calls still pending since the last sweep (see `watch`). */
  private sweepSignals(): void {
    this.sweep = undefined;
    const ids = [...this.unwatched];
    this.unwatched.clear();
    for (const id of ids) {
      const signal = this.pending.get(id)?.options.signal;
      if (signal === undefined) continue;
      if (signal.aborted) {
        this.cancel(id, abortError(signal.reason));
        continue;
      }
      let calls = this.bySignal.get(signal);
      if (calls === undefined) {
        const watched = new Set<string>();
        calls = watched;
        this.bySignal.set(signal, watched);
        signal.addEventListener(
          'abort',
          () => {
            for (const pending of [...watched]) this.cancel(pending, abortError(signal.reason));
            watched.clear();
          },
          { once: true },
        );
      }
      calls.add(id);
    }
  }
}

/** The error an aborted call rejects with: the SDK's own choice (a timeout unless the reason is one). */
function abortError(reason: unknown): SdkError {
  return reason instanceof SdkError ? reason : new SdkError(SdkErrorCode.RequestTimeout, String(reason));
}
