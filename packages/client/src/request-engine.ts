/**
 * The one request engine of a connection: it owns the transport (nothing else reads or writes it),
 * numbers the requests, keeps the one table of what is pending, and settles each entry from the
 * transport's messages. Around a request it keeps the deadline (restarted by progress when asked,
 * bounded by a total), hands progress to its caller, and cancels it on the caller's signal or on a
 * deadline — `notifications/cancelled`, or on a 2026-07-28 HTTP connection by closing the request's
 * own stream. Requests the server makes are answered by the connection's `serveRequest`, told which
 * pending call they belong to; notifications go to `onNotification`. Long-lived streams
 * (`subscriptions/listen`) sit in the same table, acknowledged by a notification.
 *
 * What it does not do: decode results by era (`resultType`), validate them, or trace them; its
 * callers do, each for what it sends. Errors are the SDK's public classes (`ProtocolError` for a
 * server's JSON-RPC error, `SdkError` for deadlines and closed connections), which `toClientError`
 * explains with the server's name.
 */
import {
  type JSONRPCMessage,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type Progress,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  SUBSCRIPTION_ID_META_KEY,
  type Transport,
} from '@modelcontextprotocol/client';
import type { HttpMessageExtraInfo, HttpSendOptions } from '@switchboard/transports';
import { type AbortSignalWatch, createAbortSignalWatch } from './abort-signal-watch.js';
import { createRequestDeadlines, type RequestDeadlines } from './request-deadlines.js';
import type { AnswerServerRequest, RequestOwner } from './server-request-answers.js';

/** What the engine tells a traced request. */
export interface EngineRequestTrace {
  /** The trace context to merge into the request's `_meta`; undefined: none. */
  readonly meta: Readonly<Record<string, unknown>> | undefined;
  /** Told the JSON-RPC id the request went out with. */
  requestSent(id: string | number): void;
}

/** Options of one request. */
export interface EngineRequestOptions {
  /** Deadline of each wait for an answer (restarted by progress with `resetTimeoutOnProgress`). */
  timeoutMs: number;
  /** Deadline of the whole request, progress or not. */
  maxTotalTimeoutMs?: number | undefined;
  /** Each progress notification restarts `timeoutMs`. @default false */
  resetTimeoutOnProgress?: boolean | undefined;
  /** Receives the request's progress; with it, the request carries a progress token. */
  onProgress?: ((progress: Progress) => void) | undefined;
  /** Cancels the request (the server is told). */
  signal?: AbortSignal | undefined;
  /** HTTP headers of this request only (`Mcp-Param-*`). */
  headers?: Record<string, string> | undefined;
  /** The call it belongs to (2025 era: its server requests go to the call's handlers). */
  owner?: RequestOwner | undefined;
  /** The request's trace: its context rides in `_meta`, and it learns the request's id. */
  trace?: EngineRequestTrace | undefined;
  /** The `_meta` envelope of this request, instead of the connection's (the version probe's). */
  envelope?: Readonly<Record<string, unknown>> | undefined;
}

/** What a long-lived stream (`subscriptions/listen`) is told. */
export interface StreamHandlers {
  /** The server acknowledged the stream (its notification's params). */
  acknowledged(params: Record<string, unknown>): void;
  /** The stream ended: `error` unless the server closed it gracefully. */
  ended(error: Error): void;
  /** Notifications that name this stream in `_meta.subscriptionId` (`events/stream`'s events); unset, they go to `onNotification`. */
  notified?(method: string, params: Record<string, unknown>): void;
  /** The server ended the stream with its result. */
  completed?(result: unknown): void;
}

/** Options of {@link RequestEngine}. */
export interface RequestEngineOptions {
  transport: Transport;
  /** Answers the server's requests (`ping` is answered by the engine). */
  serveRequest: AnswerServerRequest;
  /** Receives every notification that is not progress, cancellation or a stream's acknowledgement. */
  onNotification(method: string, params: Record<string, unknown> | undefined): void;
  /** Told once when the transport closed (every pending request has been failed by then). */
  onClose(): void;
  /** Told what the transport reports (non-protocol output, lost streams, an exited process). */
  onError(error: Error): void;
  /** Sees every message in and out (the protocol tap); undefined costs nothing. */
  tap?: ((direction: 'in' | 'out', message: JSONRPCMessage) => void) | undefined;
}

interface PendingRequest {
  readonly id: number | string;
  readonly method: string;
  readonly options: EngineRequestOptions | undefined;
  /** When it was sent (`performance.now()`). */
  readonly startedAt: number;
  resolve(result: unknown): void;
  reject(error: unknown): void;
  /** When the current wait for an answer ends (`performance.now()`); `Infinity`: none. */
  deadline: number;
  /** Closes the request's own HTTP stream (2026-07-28: that is the cancellation). */
  closeStream: (() => void) | undefined;
  /** Set on a long-lived stream: what its acknowledgement and end are told. */
  stream: StreamHandlers | undefined;
}

const noOptions: EngineRequestOptions = Object.freeze({ timeoutMs: 60_000 });

/** The error a request cancelled by its signal rejects with (a timeout-coded `SdkError`, as the SDK's). */
function abortError(reason: unknown): SdkError {
  return reason instanceof SdkError ? reason : new SdkError(SdkErrorCode.RequestTimeout, String(reason));
}

/** The request engine of one connection (see the file's comment). */
export class RequestEngine {
  /** The `_meta` envelope of every request and notification (2026-07-28); undefined in the 2025 era. */
  envelope: Readonly<Record<string, unknown>> | undefined;
  /** True once the connection speaks 2026-07-28 over a transport with a stream per request. */
  private perRequestStream = false;
  private readonly transport: Transport;
  private readonly options: RequestEngineOptions;
  /** The one table of what is pending: requests by their number, streams by their string id. */
  private readonly pending = new Map<number | string, PendingRequest>();
  /** Pending requests of calls with handlers of their own (2025 era: who answers a server request). */
  private readonly owned = new Set<PendingRequest>();
  /** The server's requests being answered, by id (aborted on its `notifications/cancelled`). */
  private readonly serving = new Map<number | string, AbortController>();
  private readonly signals: AbortSignalWatch<PendingRequest>;
  private readonly deadlines: RequestDeadlines<PendingRequest>;
  /** Whether the transport takes a plain abort function per message (`onAbortable`). */
  private readonly abortHandles: boolean;
  private nextId = 1;
  private nextStreamId = 1;
  private closed = false;

  constructor(options: RequestEngineOptions) {
    this.options = options;
    this.transport = options.transport;
    this.abortHandles = (this.transport as { acceptsAbortHandle?: boolean }).acceptsAbortHandle === true;
    this.signals = createAbortSignalWatch((entry, signal) => this.cancel(entry, abortError(signal.reason)));
    this.deadlines = createRequestDeadlines(
      () => this.pending.values(),
      (entry) => this.expire(entry),
    );
    this.transport.onmessage = (message, extra) => this.receive(message, extra as HttpMessageExtraInfo);
    this.transport.onclose = () => this.closedByTransport();
    this.transport.onerror = (error) => this.options.onError(error);
  }

  /** Starts the transport (a stdio server is spawned here: a missing command rejects at once). */
  start(): Promise<void> {
    return this.transport.start();
  }

  /** Sets the era the connection speaks and its request envelope (2026-07-28), once negotiated. */
  setModern(envelope: Readonly<Record<string, unknown>>): void {
    this.envelope = envelope;
    this.perRequestStream = this.transport.hasPerRequestStream === true;
  }

  /** Tells the transport the negotiated version (its HTTP header on every later message). */
  setProtocolVersion(version: string): void {
    this.transport.setProtocolVersion?.(version);
  }

  /** True while the transport is open. */
  get open(): boolean {
    return !this.closed;
  }

  /**
   * Sends `method` and resolves with the server's `result` as it came (rejects with a
   * `ProtocolError` when it answered with an error). The one way any request leaves this client.
   */
  request(
    method: string,
    params: Record<string, unknown> | undefined,
    options: EngineRequestOptions = noOptions,
  ): Promise<unknown> {
    if (this.closed) return Promise.reject(new SdkError(SdkErrorCode.NotConnected, 'Not connected'));
    const signal = options.signal;
    if (signal?.aborted) return Promise.reject(abortError(signal.reason));
    const id = this.nextId++;
    const message = {
      jsonrpc: '2.0' as const,
      id,
      method,
      params: this.paramsOf(params, options, id),
    } as JSONRPCRequest;
    return new Promise((resolve, reject) => {
      const entry: PendingRequest = {
        id,
        method,
        options,
        startedAt: performance.now(),
        resolve,
        reject,
        deadline: Number.POSITIVE_INFINITY,
        closeStream: undefined,
        stream: undefined,
      };
      this.pending.set(id, entry);
      if (options.owner !== undefined) this.owned.add(entry);
      if (signal !== undefined) this.signals.watch(signal, entry);
      this.arm(entry);
      options.trace?.requestSent(id);
      const failed = (error: unknown): void => {
        if (this.finish(entry)) reject(error);
      };
      try {
        this.send(message, this.sendOptions(entry, options.headers)).catch(failed);
      } catch (error) {
        // A transport that throws instead of rejecting.
        failed(error);
      }
    });
  }

  /**
   * Opens a long-lived stream (`subscriptions/listen`): `handlers` learn of its acknowledgement and
   * its end; the returned function closes it (the stream, and `notifications/cancelled`, sent
   * before it resolves, so the server has ended the stream by then).
   */
  openStream(method: string, params: Record<string, unknown>, handlers: StreamHandlers): () => Promise<void> {
    const id = `${method.replace(/\W+/g, '-')}:${this.nextStreamId++}`;
    const entry: PendingRequest = {
      id,
      method,
      options: undefined,
      startedAt: performance.now(),
      resolve: () => {},
      reject: (error: unknown) => handlers.ended(error instanceof Error ? error : new Error(String(error))),
      deadline: Number.POSITIVE_INFINITY,
      closeStream: undefined,
      stream: handlers,
    };
    const close = async (): Promise<void> => {
      if (!this.finish(entry)) return;
      entry.closeStream?.();
      if (!this.closed) await this.notify('notifications/cancelled', { requestId: id }).catch(() => {});
    };
    if (this.closed) {
      handlers.ended(new SdkError(SdkErrorCode.NotConnected, 'Not connected'));
      return close;
    }
    this.pending.set(id, entry);
    const message = { jsonrpc: '2.0', id, method, params: this.paramsOf(params, noOptions, id) };
    this.send(message as JSONRPCRequest, this.sendOptions(entry, undefined, true)).catch((error: unknown) => {
      if (this.finish(entry)) entry.reject(error);
    });
    return close;
  }

  /** Sends a notification (with the envelope on a 2026-07-28 connection). */
  notify(method: string, params?: Record<string, unknown>): Promise<void> {
    if (this.closed) return Promise.reject(new SdkError(SdkErrorCode.NotConnected, 'Not connected'));
    const envelope = this.envelope;
    const withEnvelope =
      envelope === undefined
        ? params
        : Object.assign({}, params, { _meta: Object.assign({}, envelope, params?._meta) });
    const message: JSONRPCNotification =
      withEnvelope === undefined
        ? { jsonrpc: '2.0', method }
        : { jsonrpc: '2.0', method, params: withEnvelope };
    return this.send(message);
  }

  /** Closes the transport; every pending request fails with `CONNECTION_CLOSED`. */
  async close(): Promise<void> {
    await this.transport.close();
    this.closedByTransport();
  }

  /** The request's params with its `_meta`: the envelope, the trace context, the progress token. */
  private paramsOf(
    params: Record<string, unknown> | undefined,
    options: EngineRequestOptions,
    id: number | string,
  ): Record<string, unknown> | undefined {
    const envelope = options.envelope ?? this.envelope;
    const traceMeta = options.trace?.meta;
    const progress = options.onProgress !== undefined;
    const own = params?._meta as Readonly<Record<string, unknown>> | undefined;
    if (envelope === undefined && traceMeta === undefined && !progress) return params;
    // The envelope is frozen and shared by every request: used as is when it is all there is.
    const meta =
      own === undefined && traceMeta === undefined && !progress
        ? envelope
        : Object.assign({}, envelope, own, traceMeta, progress ? { progressToken: id } : undefined);
    // Not `{ ...params, _meta }`: on Node 20 (V8 11.3) an object spread from a non-empty one and
    // given another property gets a hidden class of its own every time (about 0.8 µs, and every
    // later read of it misses V8's caches); `Object.assign` onto `{}` reuses one.
    return Object.assign({}, params, { _meta: meta });
  }

  /**
   * The send options of a request: how its stream's end and its cancellation reach it (HTTP), and
   * its own headers. Plain transports (stdio) get none: nothing is built per request for them.
   */
  private sendOptions(
    entry: PendingRequest,
    headers: Record<string, string> | undefined,
    stream = false,
  ): HttpSendOptions | undefined {
    if (this.transport.hasPerRequestStream !== true) return headers === undefined ? undefined : { headers };
    // A response stream that ends before the answer (and cannot be resumed) loses the request
    // (2026-07-28: the client must send it anew): fail it now rather than at its deadline.
    const onRequestStreamEnd = (): void => {
      if (!this.finish(entry)) return;
      entry.reject(
        stream
          ? new Error(`${entry.method}: stream ended`)
          : new SdkError(
              SdkErrorCode.ConnectionClosed,
              'the response stream ended before the answer arrived',
            ),
      );
    };
    const options: HttpSendOptions =
      headers === undefined ? { onRequestStreamEnd } : { onRequestStreamEnd, headers };
    // 2026-07-28 over HTTP: closing the request's stream is its cancellation. Switchboard's
    // transport hands out a plain function for that; others need an AbortSignal.
    if (this.perRequestStream || stream) {
      if (this.abortHandles) {
        options.onAbortable = (abort) => {
          entry.closeStream = abort;
        };
      } else {
        const controller = new AbortController();
        options.requestSignal = controller.signal;
        entry.closeStream = () => controller.abort();
      }
    }
    return options;
  }

  private send(message: JSONRPCMessage, options?: HttpSendOptions): Promise<void> {
    this.options.tap?.('out', message);
    return this.transport.send(message, options);
  }

  /** (Re)starts a request's deadline: per wait, bounded by the total deadline when one is set. */
  private arm(entry: PendingRequest): void {
    const options = entry.options as EngineRequestOptions;
    const now = performance.now();
    let deadline = now + options.timeoutMs;
    const total = options.maxTotalTimeoutMs;
    if (total !== undefined) {
      const end = entry.startedAt + total;
      if (end <= now) {
        this.cancel(entry, totalTimeoutError(total, entry));
        return;
      }
      if (end < deadline) deadline = end;
    }
    this.deadlines.set(entry, deadline);
  }

  /** A request's deadline passed: the wait's, or the total's. */
  private expire(entry: PendingRequest): void {
    const options = entry.options as EngineRequestOptions;
    const total = options.maxTotalTimeoutMs;
    const overTotal = total !== undefined && performance.now() - entry.startedAt >= total;
    this.cancel(
      entry,
      overTotal
        ? totalTimeoutError(total, entry)
        : new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out', { timeout: options.timeoutMs }),
    );
  }

  /** Gives up on a request: tells the server (as the SDK does) and rejects with `reason`. */
  private cancel(entry: PendingRequest, reason: SdkError): void {
    if (!this.finish(entry)) return;
    if (entry.closeStream !== undefined) entry.closeStream();
    else if (entry.method !== 'initialize') {
      this.notify('notifications/cancelled', { requestId: entry.id, reason: String(reason) }).catch(() => {});
    }
    entry.reject(reason);
  }

  /** Forgets a request; false when it was already settled. */
  private finish(entry: PendingRequest): boolean {
    if (this.pending.get(entry.id) !== entry) return false;
    this.pending.delete(entry.id);
    this.deadlines.clear(entry);
    const signal = entry.options?.signal;
    if (signal !== undefined) this.signals.forget(signal, entry);
    if (entry.options?.owner !== undefined) this.owned.delete(entry);
    return true;
  }

  /** One message from the server. */
  private receive(message: JSONRPCMessage, extra: HttpMessageExtraInfo | undefined): void {
    this.options.tap?.('in', message);
    if ('method' in message) {
      if ('id' in message) this.serve(message as JSONRPCRequest, extra);
      else this.notified(message as JSONRPCNotification);
      return;
    }
    if (!('id' in message)) return;
    const entry = this.pending.get(message.id as number | string);
    if (entry === undefined) {
      this.options.onError(new Error(`a response for an unknown request id ${JSON.stringify(message.id)}`));
      return;
    }
    this.finish(entry);
    if ('error' in message) {
      const { code, message: text, data } = message.error;
      entry.reject(ProtocolError.fromError(code, text, data));
    } else if (entry.stream?.completed !== undefined) {
      entry.stream.completed((message as { result: unknown }).result);
    } else if (entry.stream !== undefined) {
      // A result on a stream is the server closing it.
      entry.stream.ended(
        new SdkError(SdkErrorCode.ConnectionClosed, `${entry.method}: the server closed it`),
      );
    } else {
      entry.resolve((message as { result: unknown }).result);
    }
  }

  private notified(notification: JSONRPCNotification): void {
    const params = notification.params as Record<string, unknown> | undefined;
    switch (notification.method) {
      case 'notifications/progress':
        this.progress(params);
        return;
      case 'notifications/cancelled': {
        const id = params?.requestId as number | string | undefined;
        if (id === undefined) return;
        const stream = this.pending.get(id);
        if (stream?.stream !== undefined && this.finish(stream)) {
          stream.stream.ended(new Error(`${stream.method}: the server cancelled it`));
          return;
        }
        this.serving.get(id)?.abort(params?.reason);
        return;
      }
      case 'notifications/subscriptions/acknowledged': {
        const id = (params?._meta as Record<string, unknown> | undefined)?.[SUBSCRIPTION_ID_META_KEY];
        const stream = typeof id === 'string' ? this.pending.get(id)?.stream : undefined;
        if (stream !== undefined) {
          stream.acknowledged(params ?? {});
          return;
        }
        break;
      }
      default: {
        const id = (params?._meta as Record<string, unknown> | undefined)?.[SUBSCRIPTION_ID_META_KEY];
        const notified = typeof id === 'string' ? this.pending.get(id)?.stream?.notified : undefined;
        if (notified !== undefined) {
          notified(notification.method, params ?? {});
          return;
        }
      }
    }
    this.options.onNotification(notification.method, params);
  }

  /** A progress notification: to its request's callback, restarting its deadline when asked. */
  private progress(params: Record<string, unknown> | undefined): void {
    const token = params?.progressToken;
    // The token is the request's id; a server that turned it into a string still means that id.
    const entry =
      token === undefined
        ? undefined
        : (this.pending.get(token as number | string) ??
          (typeof token === 'string' ? this.pending.get(Number(token)) : undefined));
    const options = entry?.options;
    if (entry === undefined || options?.onProgress === undefined) return;
    if (options.resetTimeoutOnProgress) this.arm(entry);
    if (this.pending.get(entry.id) !== entry) return;
    const { progressToken: _token, ...progress } = params as Record<string, unknown>;
    options.onProgress(progress as unknown as Progress);
  }

  /** A request of the server: answered by `serveRequest` (which call it belongs to, if known). */
  private serve(request: JSONRPCRequest, extra: HttpMessageExtraInfo | undefined): void {
    const { id, method } = request;
    if (method === 'ping') {
      this.send({ jsonrpc: '2.0', id, result: {} }).catch(() => {});
      return;
    }
    const controller = new AbortController();
    this.serving.set(id, controller);
    Promise.resolve()
      .then(() =>
        this.options.serveRequest(
          method,
          request.params as Record<string, unknown> | undefined,
          this.ownerOf(extra),
          controller.signal,
        ),
      )
      .then(
        (result) => {
          if (controller.signal.aborted || this.closed) return;
          return this.send({ jsonrpc: '2.0', id, result: result as Record<string, unknown> });
        },
        (error: unknown) => {
          if (controller.signal.aborted || this.closed) return;
          const code = (error as { code?: unknown } | undefined)?.code;
          const data = (error as { data?: unknown } | undefined)?.data;
          return this.send({
            jsonrpc: '2.0',
            id,
            error: {
              code: typeof code === 'number' && Number.isSafeInteger(code) ? code : -32_603,
              message: error instanceof Error ? error.message : 'Internal error',
              ...(data === undefined ? {} : { data }),
            },
          });
        },
      )
      .catch((error: unknown) =>
        this.options.onError(error instanceof Error ? error : new Error(String(error))),
      )
      .finally(() => {
        if (this.serving.get(id) === controller) this.serving.delete(id);
      });
  }

  /**
   * The call a 2025-era server request belongs to: the request whose response stream carried it
   * (HTTP), else the one call with handlers of its own in flight (stdio, the standalone stream).
   * On a 2026-07-28 connection a call's requests come as its input-required rounds, never here.
   */
  private ownerOf(extra: HttpMessageExtraInfo | undefined): RequestOwner | undefined {
    if (this.envelope !== undefined) return undefined;
    const related = extra?.relatedRequest;
    if (related !== undefined) return this.pending.get(related.id as number | string)?.options?.owner;
    if (this.owned.size !== 1) return undefined;
    const [only] = this.owned;
    return only?.options?.owner;
  }

  private closedByTransport(): void {
    if (this.closed) return;
    this.closed = true;
    const error = new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed');
    const entries = [...this.pending.values()];
    for (const entry of entries) {
      this.finish(entry);
      if (entry.stream !== undefined) entry.stream.ended(error);
      else entry.reject(error);
    }
    for (const controller of this.serving.values()) controller.abort(error);
    this.serving.clear();
    this.deadlines.stop();
    this.options.onClose();
  }
}

function totalTimeoutError(total: number | undefined, entry: PendingRequest): SdkError {
  return new SdkError(SdkErrorCode.RequestTimeout, 'Maximum total timeout exceeded', {
    maxTotalTimeout: total,
    totalElapsed: Math.round(performance.now() - entry.startedAt),
  });
}
