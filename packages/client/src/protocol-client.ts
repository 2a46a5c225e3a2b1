/**
 * The SDK v2 `Client` with the hooks Switchboard needs, each through a seam the SDK offers to
 * subclasses (and each delegating everything it does not own to the SDK):
 * - `_onresponse`: a `tools/call` answered with a task (`resultType: "task"`, the tasks extension)
 *   settles the call with a local error the caller turns back into the task (`takeTask`), instead
 *   of the SDK's "unsupported result type" that would lose it; and a response that arrives right
 *   after notifications waits for their handlers (`_onnotification`), so no progress is lost;
 * - `_resolveNonCompleteResult`: the input-required rounds of a call with handlers of its own are
 *   marked as that call's before the SDK's driver answers them, and the driver's own round markers
 *   stay out of the caller's progress handler (it gets the server's progress notifications);
 * - `buildContext`: a 2025-era server request keeps the request whose response stream carried it;
 * - `_outboundMetaEnvelope`: a log level set on a modern connection rides every request's `_meta`;
 * - `connect` / `_onclose`: the answers and progress of plain tool calls sent on the direct lane
 *   (`direct-tool-calls.ts`) are taken from the transport before the SDK's funnel sees them;
 * - `request` / `_requestWithSchema`: every request but `tools/call` (traced by the call path,
 *   which knows of `isError` and tasks) gets a CLIENT span when a provider is registered, its
 *   trace context merged into `params._meta` (`telemetry/request-telemetry.ts`). One span per
 *   request on the wire: each page of a list walk has its own, an answer from the SDK's response
 *   cache none.
 */
import {
  type BaseContext,
  type CallToolResult,
  Client,
  type ClientContext,
  type ClientOptions,
  type ConnectOptions,
  type Implementation,
  type JSONRPCErrorResponse,
  type JSONRPCRequest,
  type JSONRPCResponse,
  LOG_LEVEL_META_KEY,
  type LoggingLevel,
  type MessageExtraInfo,
  ProtocolError,
  type Request,
  type RequestMethod,
  type RequestOptions,
  type ResultTypeMap,
  type StandardSchemaV1,
  type Transport,
} from '@modelcontextprotocol/client';
import { type HttpMessageExtraInfo, JsonRpcErrorCode } from '@switchboard/transports';
import { type DirectCallFlow, DirectToolCalls } from './direct-tool-calls.js';
import type { CallRoute, ServerRequestOrigin, ServerRequestRouter } from './server-request-router.js';
import { reportRequestIds } from './telemetry/request-id-sink.js';
import {
  noRequestTelemetry,
  type RequestTelemetry,
  type RequestTrace,
} from './telemetry/request-telemetry.js';
import { traceContextOf } from './telemetry/trace-context-option.js';

/** Where the route of a call rides on its request options (an own symbol key survives the SDK's spreads). */
const callRouteKey = Symbol('switchboard.callRoute');

/** The request options of a routed call: `options` with the route attached. */
export function withCallRoute<T extends object>(options: T, route: CallRoute): T {
  return Object.assign(options, { [callRouteKey]: route });
}

function routeOf(options: unknown): CallRoute | undefined {
  return typeof options === 'object' && options !== null
    ? (options as { [callRouteKey]?: CallRoute })[callRouteKey]
    : undefined;
}

/** The task a server created instead of answering a request (tasks extension, SEP-2663). */
export interface CreatedTask {
  taskId: string;
  status: string;
  statusMessage?: string;
  createdAt?: string;
  lastUpdatedAt?: string;
  ttlMs?: number | null;
  pollIntervalMs?: number;
  [key: string]: unknown;
}

/**
 * The code of the local error a request answered with a task settles with (never on the wire, so
 * outside every range servers use); {@link ProtocolClient.takeTask} turns it back into the task.
 */
const taskCreatedCode = -32_099_000;

function isCreatedTask(result: unknown): result is CreatedTask & { resultType: 'task' } {
  if (typeof result !== 'object' || result === null) return false;
  const record = result as Record<string, unknown>;
  return (
    record.resultType === 'task' && typeof record.taskId === 'string' && typeof record.status === 'string'
  );
}

type InputRequiredFlow = Parameters<Client['_resolveNonCompleteResult']>[1];

/** The input-required result as the SDK's driver takes it. */
type InputRequiredDecoded = Parameters<Client['_resolveNonCompleteResult']>[0];

/**
 * The SDK's era codec of a method. Private in the SDK (2.4.0, pinned exactly): the direct lane
 * needs it only to hand an input-required result to the SDK's own driver, which wants the codec
 * that would have decoded it; the multi-round tests through the lane catch a change.
 */
interface WireCodecAccess {
  _resolveOutboundCodec(method: string): {
    decodeResult(method: string, result: unknown): { kind: string; error?: unknown };
  };
}

/**
 * The flow with the caller's progress handler kept for the server's notifications on each retry
 * leg only: the SDK's driver also reports each of its own rounds through it ("Fulfilling input
 * required…"), which is not a progress notification of the server (a gateway would relay it).
 */
function withoutRoundProgress(flow: InputRequiredFlow): InputRequiredFlow {
  const onprogress = flow.options?.onprogress;
  if (onprogress === undefined) return flow;
  const { onprogress: _ignored, ...options } = flow.options ?? {};
  return {
    ...flow,
    options,
    retry: (params, legOptions) => flow.retry(params, { ...legOptions, onprogress }),
  };
}

/** The SDK Client of one server connection, with Switchboard's routing and task hooks. */
export class ProtocolClient extends Client {
  /** The log level a modern connection asks for on every request; undefined sends none. */
  logLevel: LoggingLevel | undefined;
  private readonly origins = new WeakMap<object, ServerRequestOrigin>();
  private readonly pendingTasks = new Map<JSONRPCResponse['id'], CreatedTask>();
  /** Notifications arrived in this turn of the event loop whose handlers may not have run yet. */
  private notificationsInFlight = false;
  private readonly direct: DirectToolCalls;
  /** Set once connected (the spans carry the negotiated version); nothing is traced before. */
  private telemetry: RequestTelemetry = noRequestTelemetry;
  /** Whether the transport tells traced requests their ids yet (`telemetry/request-id-sink.ts`). */
  private reportingRequestIds = false;

  constructor(
    clientInfo: Implementation,
    options: ClientOptions,
    private readonly router: ServerRequestRouter,
  ) {
    super(clientInfo, options);
    const client = this;
    this.direct = new DirectToolCalls({
      get transport() {
        return client.transport;
      },
      modern: () => this.getProtocolEra() === 'modern',
      envelope: () => this.currentEnvelope(),
      resolveNonComplete: (id, request, result, flow) => this.resolveDirectResult(id, request, result, flow),
    });
  }

  private envelopeCache:
    | { logLevel: LoggingLevel | undefined; envelope: Readonly<Record<string, unknown>> | undefined }
    | undefined;

  /**
   * The `_meta` envelope of this connection's requests, built once: the era, the client's info and
   * capabilities are fixed once connected; only the log level can change it.
   */
  private currentEnvelope(): Readonly<Record<string, unknown>> | undefined {
    const cached = this.envelopeCache;
    if (cached !== undefined && cached.logLevel === this.logLevel) return cached.envelope;
    const envelope = this._outboundMetaEnvelope();
    this.envelopeCache = {
      logLevel: this.logLevel,
      envelope: envelope === undefined ? undefined : Object.freeze({ ...envelope }),
    };
    return this.envelopeCache.envelope;
  }

  /** Connects (the SDK negotiates the era), then lets the direct lane see each message first. */
  override async connect(transport: Transport, options?: ConnectOptions): Promise<void> {
    await super.connect(transport, options);
    this.envelopeCache = undefined;
    this.direct.takeMessagesOf(transport);
  }

  /** Traces this connection's requests from now on (after connecting). */
  traceRequests(telemetry: RequestTelemetry): void {
    this.telemetry = telemetry;
  }

  /**
   * From the first traced request on, a request learns its JSON-RPC id as it leaves (the SDK
   * numbers its own); an untraced connection never pays for the watch.
   */
  watchRequestIds(): void {
    if (this.reportingRequestIds || this.transport === undefined) return;
    this.reportingRequestIds = true;
    reportRequestIds(this.transport);
  }

  override request<M extends RequestMethod>(
    request: { method: M; params?: Record<string, unknown> },
    options?: RequestOptions,
  ): Promise<ResultTypeMap[M]>;
  override request<T extends StandardSchemaV1>(
    request: Request,
    resultSchema: T,
    options?: RequestOptions,
  ): Promise<StandardSchemaV1.InferOutput<T>>;
  override request(
    request: Request,
    schemaOrOptions?: StandardSchemaV1 | RequestOptions,
    maybeOptions?: RequestOptions,
  ): Promise<unknown> {
    // A tool call is traced by the call path; nothing else costs more than this check untraced.
    const trace =
      request.method === 'tools/call'
        ? undefined
        : this.telemetry.startRequest(
            request.method,
            request.params,
            traceContextOf(maybeOptions ?? schemaOrOptions),
          );
    if (trace === undefined) return super.request(request as never, schemaOrOptions as never, maybeOptions);
    return this.traced(trace, request, (traced) =>
      super.request(traced as never, schemaOrOptions as never, maybeOptions),
    );
  }

  /** `server/discover` (a modern `ping`) comes this way, not through `request`. */
  protected override _requestWithSchema<T extends StandardSchemaV1>(
    request: Request,
    resultSchema: T,
    options?: RequestOptions,
  ): Promise<StandardSchemaV1.InferOutput<T>> {
    const trace = this.telemetry.startRequest(request.method, request.params, traceContextOf(options));
    if (trace === undefined) return super._requestWithSchema(request, resultSchema, options);
    return this.traced(trace, request, (traced) => super._requestWithSchema(traced, resultSchema, options));
  }

  /** Sends `request` with the trace's context in its `_meta`, and ends the trace when it settles. */
  private traced<T>(
    trace: RequestTrace,
    request: Request,
    send: (request: Request) => Promise<T>,
  ): Promise<T> {
    this.watchRequestIds();
    const meta = trace.meta;
    let sent: Promise<T>;
    try {
      sent = send(
        meta === undefined
          ? request
          : { ...request, params: { ...request.params, _meta: { ...request.params?._meta, ...meta } } },
      );
    } catch (error) {
      // The SDK refuses some requests before sending (a method the era does not have).
      trace.fail(error);
      throw error;
    }
    return sent.then(
      (result) => {
        trace.end(result);
        return result;
      },
      (error: unknown) => {
        trace.fail(error);
        throw error;
      },
    );
  }

  /**
   * A plain `tools/call` on the direct lane: the result as the server sent it (less
   * `resultType`), the input-required rounds and tasks handled as on the SDK's path.
   * `resultSchema` is what a retry leg of a multi-round call is checked with.
   */
  callToolDirect(
    params: { name: string; arguments?: Record<string, unknown>; _meta?: Readonly<Record<string, unknown>> },
    options: RequestOptions,
    resultSchema: StandardSchemaV1,
  ): Promise<CallToolResult> {
    return this.direct.call(params, options, resultSchema);
  }

  /** A direct call's result that is not a plain answer: a task, or the SDK's input-required driver. */
  private resolveDirectResult(
    id: string,
    request: { method: 'tools/call'; params: Record<string, unknown> },
    result: Record<string, unknown>,
    flow: DirectCallFlow,
  ): Promise<unknown> {
    if (isCreatedTask(result)) {
      const { resultType: _resultType, ...task } = result;
      this.pendingTasks.set(id, task);
      return Promise.reject(
        new ProtocolError(taskCreatedCode, `the server created task ${task.taskId}`, { taskId: task.taskId }),
      );
    }
    const codec = (this as unknown as WireCodecAccess)._resolveOutboundCodec(request.method);
    const decoded = codec.decodeResult(request.method, result);
    if (decoded.kind === 'invalid') return Promise.reject(decoded.error);
    const { resultSchema } = flow;
    return this._resolveNonCompleteResult(decoded as unknown as InputRequiredDecoded, {
      codec: codec as never,
      request,
      resultSchema,
      options: flow.options,
      flowStartedAt: flow.startedAt,
      retry: (params, legOptions) =>
        this.request(
          params === undefined ? { method: request.method } : { method: request.method, params },
          resultSchema,
          legOptions,
        ),
    });
  }

  /** What is known about where a server request came from (for the router). */
  originOf(ctx: ClientContext): ServerRequestOrigin {
    return this.origins.get(ctx) ?? {};
  }

  protected override _onnotification(
    notification: Parameters<Client['_onnotification']>[0],
    extra?: Parameters<Client['_onnotification']>[1],
  ): void {
    super._onnotification(notification, extra);
    if (this.notificationsInFlight) return;
    this.notificationsInFlight = true;
    setImmediate(() => {
      this.notificationsInFlight = false;
    });
  }

  protected override _onresponse(response: JSONRPCResponse | JSONRPCErrorResponse): void {
    // The SDK hands a notification to its handler a microtask (or more) later, but settles a
    // response at once, dropping the request's progress handler: a progress notification that
    // arrived with the response (one stdio read, one chunk of a stream) would be lost. After a
    // notification in the same turn, the response waits until the handlers have run.
    if (this.notificationsInFlight) {
      setImmediate(() => this.settle(response));
      return;
    }
    this.settle(response);
  }

  private settle(response: JSONRPCResponse | JSONRPCErrorResponse): void {
    if ('result' in response && isCreatedTask(response.result)) {
      const { resultType: _resultType, ...task } = response.result;
      this.pendingTasks.set(response.id, task);
      super._onresponse({
        jsonrpc: '2.0',
        id: response.id,
        error: {
          code: taskCreatedCode,
          message: `the server created task ${task.taskId}`,
          data: { taskId: task.taskId },
        },
      });
      return;
    }
    super._onresponse(response);
  }

  protected override _resolveNonCompleteResult(
    decoded: Parameters<Client['_resolveNonCompleteResult']>[0],
    original: Parameters<Client['_resolveNonCompleteResult']>[1],
  ): Promise<unknown> {
    const flow = withoutRoundProgress(original);
    const route = routeOf(flow.options);
    if (!route) return super._resolveNonCompleteResult(decoded, flow);
    this.router.markInputRequests(route, decoded.inputRequests);
    return super._resolveNonCompleteResult(decoded, {
      ...flow,
      retry: async (params, legOptions) => {
        const result = await flow.retry(params, legOptions);
        const next = result as { resultType?: unknown; inputRequests?: Record<string, unknown> };
        if (next?.resultType === 'input_required') this.router.markInputRequests(route, next.inputRequests);
        return result;
      },
    });
  }

  protected override _onclose(): void {
    this.direct.closeAll();
    super._onclose();
  }

  protected override buildContext(ctx: BaseContext, transportInfo?: MessageExtraInfo): ClientContext {
    const built = super.buildContext(ctx, transportInfo);
    // An input request the driver dispatches carries its entry's `_meta` (marked for routed calls).
    const route = this.router.routeOfInputRequest(ctx.mcpReq._meta);
    const relatedRequest = (transportInfo as HttpMessageExtraInfo | undefined)?.relatedRequest;
    if (route || relatedRequest) {
      this.origins.set(built, { ...(route ? { route } : {}), ...(relatedRequest ? { relatedRequest } : {}) });
    }
    return built;
  }

  protected override _outboundMetaEnvelope(): Readonly<Record<string, unknown>> | undefined {
    const envelope = super._outboundMetaEnvelope();
    if (envelope === undefined || this.logLevel === undefined) return envelope;
    return { ...envelope, [LOG_LEVEL_META_KEY]: this.logLevel };
  }

  /** True when `error` is the local error a request answered with a task settles with (see `takeTask`). */
  isTaskAnswer(error: unknown): boolean {
    return error instanceof ProtocolError && error.code === taskCreatedCode;
  }

  /** The task a request was answered with, when `error` is the local error that says so (once). */
  takeTask(error: unknown): CreatedTask | undefined {
    if (!(error instanceof ProtocolError) || error.code !== taskCreatedCode) return undefined;
    for (const [id, task] of this.pendingTasks) {
      if (task.taskId === (error.data as { taskId?: unknown } | undefined)?.taskId) {
        this.pendingTasks.delete(id);
        return task;
      }
    }
    return undefined;
  }

  /**
   * Answers one input request of a task (`tasks/get` → `input_required`) through the same handler
   * chain as a server request, with the SDK's validation; `route` names the call it belongs to.
   */
  async answerInputRequest(
    key: string,
    entry: { method?: unknown; params?: unknown },
    route: CallRoute | undefined,
    signal: AbortSignal,
  ): Promise<unknown> {
    const method = typeof entry.method === 'string' ? entry.method : '';
    const handler = this._getRequestHandler(method);
    if (!handler) {
      throw new ProtocolError(
        JsonRpcErrorCode.MethodNotFound,
        `no handler on this client for the task's input request ${method || '(no method)'}`,
      );
    }
    const params = typeof entry.params === 'object' && entry.params !== null ? entry.params : {};
    const request = { jsonrpc: '2.0', id: key, method, params } as JSONRPCRequest;
    if (route) this.router.markInputRequests(route, { [key]: request });
    const meta = (request.params as { _meta?: unknown })._meta;
    const context = { mcpReq: { id: key, method, signal, _meta: meta } } as unknown as BaseContext;
    return handler(request, this.buildContext(context));
  }
}
