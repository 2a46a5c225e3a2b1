/**
 * Who answers a request the server makes of the client (elicitation, sampling, roots): the
 * handlers given for the call it belongs to, else the client-level ones. A gateway needs the first
 * kind: it forwards each upstream request to the downstream client that made the call.
 *
 * Which call a request belongs to:
 * - modern era: the input-required rounds of the call (the protocol client marks every input
 *   request of a routed call's rounds before the SDK's driver dispatches it);
 * - 2025 era over HTTP: the call whose response stream carried the request (the transport tells);
 * - 2025 era without such a link (stdio, the standalone stream): the one routed call in flight,
 *   when there is exactly one.
 */
import type {
  CreateMessageRequest,
  CreateMessageResult,
  ElicitRequest,
  ElicitResult,
  JSONRPCRequest,
  Root,
} from '@modelcontextprotocol/client';

/** Context given to sampling, elicitation and roots handlers. */
export interface ServerRequestContext {
  /** The server asking. */
  server: string;
  /** The tool call the request belongs to, when known. */
  tool?: string;
  /** Aborted when the server cancels its request (or the call it belongs to is aborted). */
  signal: AbortSignal;
}

/** Answers `sampling/createMessage` (the server asks the client's model for a completion). */
export type SamplingHandler = (
  params: CreateMessageRequest['params'],
  context: ServerRequestContext,
) => Promise<CreateMessageResult> | CreateMessageResult;

/** Answers `elicitation/create` (the server asks the user for input). */
export type ElicitationHandler = (
  params: ElicitRequest['params'],
  context: ServerRequestContext,
) => Promise<ElicitResult> | ElicitResult;

/** Answers `roots/list` for one call. */
export type ListRootsHandler = (context: ServerRequestContext) => Root[] | Promise<Root[]>;

/** The roots offered to servers: a list, or a function asked each time. */
export type RootsProvider = Root[] | (() => Root[] | Promise<Root[]>);

/** Handlers of one call; each takes precedence over the client-level one for that call's requests. */
export interface CallServerRequestHandlers {
  /** Answers the call's `elicitation/create` requests. */
  onElicitation?: ElicitationHandler;
  /** Answers the call's `sampling/createMessage` requests. */
  onSampling?: SamplingHandler;
  /** Answers the call's `roots/list` requests. */
  onListRoots?: ListRootsHandler;
}

/** The client-level handlers (the capabilities they declare are what a server may ask for). */
export interface ClientServerRequestHandlers {
  /** Answers `elicitation/create` of calls without a handler of their own. */
  elicitation?: ElicitationHandler;
  /** Answers `sampling/createMessage` of calls without a handler of their own. */
  sampling?: SamplingHandler;
  /** The roots of calls without a handler of their own. */
  roots?: RootsProvider;
}

/** One call with handlers of its own, while it is in flight. */
export interface CallRoute {
  readonly tool: string;
  readonly handlers: CallServerRequestHandlers;
  /** The arguments object sent with the call: the 2025-era link between a response stream and the call. */
  readonly arguments: Record<string, unknown>;
}

/** What the protocol client knows about a request the server made. */
export interface ServerRequestOrigin {
  /** The routed call whose input-required round it is (2026-07-28). */
  route?: CallRoute;
  /** The request whose response stream carried it (2025-era HTTP). */
  relatedRequest?: JSONRPCRequest | undefined;
}

/** Routes server requests to per-call or client-level handlers. */
export class ServerRequestRouter {
  private readonly inFlight = new Set<CallRoute>();
  private readonly byInputRequest = new WeakMap<object, CallRoute>();
  private readonly byArguments = new WeakMap<object, CallRoute>();

  constructor(
    private readonly server: string,
    private readonly clientHandlers: ClientServerRequestHandlers,
    private readonly isModern: () => boolean,
  ) {}

  /** Starts routing for a call with handlers of its own; `end` stops it. */
  begin(tool: string, handlers: CallServerRequestHandlers, args: Record<string, unknown>): CallRoute {
    const route: CallRoute = { tool, handlers, arguments: args };
    this.inFlight.add(route);
    this.byArguments.set(args, route);
    return route;
  }

  end(route: CallRoute): void {
    this.inFlight.delete(route);
  }

  /**
   * Marks the input requests of one round of a routed modern call as the call's. The mark is the
   * entry's `_meta` object (one is added where the server sent none): the SDK's driver hands that
   * very object to the handler's context, while the request itself reaches it validated, as a copy.
   */
  markInputRequests(route: CallRoute, inputRequests: Record<string, unknown> | undefined): void {
    for (const entry of Object.values(inputRequests ?? {})) {
      if (typeof entry !== 'object' || entry === null) continue;
      const request = entry as { params?: { _meta?: unknown } };
      if (typeof request.params !== 'object' || request.params === null) request.params = {};
      const params = request.params;
      if (typeof params._meta !== 'object' || params._meta === null) params._meta = {};
      this.byInputRequest.set(params._meta as object, route);
    }
  }

  /** The routed call an input request (by its `_meta`) belongs to. */
  routeOfInputRequest(meta: unknown): CallRoute | undefined {
    return typeof meta === 'object' && meta !== null ? this.byInputRequest.get(meta) : undefined;
  }

  /** The call a server request belongs to, if it is a routed one. */
  routeOf(_request: JSONRPCRequest, origin: ServerRequestOrigin): CallRoute | undefined {
    if (origin.route || this.isModern()) return origin.route;
    const related = origin.relatedRequest;
    if (related) {
      const args = (related.params as { arguments?: unknown } | undefined)?.arguments;
      return typeof args === 'object' && args !== null ? this.byArguments.get(args) : undefined;
    }
    if (this.inFlight.size !== 1) return undefined;
    const [only] = this.inFlight;
    return only;
  }

  /** Answers `elicitation/create`. */
  elicit(request: JSONRPCRequest, origin: ServerRequestOrigin, signal: AbortSignal): Promise<ElicitResult> {
    const route = this.routeOf(request, origin);
    const handler = route?.handlers.onElicitation ?? this.clientHandlers.elicitation;
    if (!handler) return Promise.reject(this.missing('elicitation/create'));
    return Promise.resolve(handler(request.params as ElicitRequest['params'], this.context(route, signal)));
  }

  /** Answers `sampling/createMessage`. */
  sample(
    request: JSONRPCRequest,
    origin: ServerRequestOrigin,
    signal: AbortSignal,
  ): Promise<CreateMessageResult> {
    const route = this.routeOf(request, origin);
    const handler = route?.handlers.onSampling ?? this.clientHandlers.sampling;
    if (!handler) return Promise.reject(this.missing('sampling/createMessage'));
    return Promise.resolve(
      handler(request.params as CreateMessageRequest['params'], this.context(route, signal)),
    );
  }

  /** Answers `roots/list`. */
  async listRoots(
    request: JSONRPCRequest,
    origin: ServerRequestOrigin,
    signal: AbortSignal,
  ): Promise<{ roots: Root[] }> {
    const route = this.routeOf(request, origin);
    if (route?.handlers.onListRoots)
      return { roots: await route.handlers.onListRoots(this.context(route, signal)) };
    const roots = this.clientHandlers.roots;
    if (roots === undefined) throw this.missing('roots/list');
    return { roots: typeof roots === 'function' ? await roots() : roots };
  }

  private context(route: CallRoute | undefined, signal: AbortSignal): ServerRequestContext {
    return route ? { server: this.server, tool: route.tool, signal } : { server: this.server, signal };
  }

  private missing(method: string): Error {
    return new Error(`MCP server "${this.server}" sent ${method}, but this call has no handler for it`);
  }
}
