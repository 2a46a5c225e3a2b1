/**
 * The one request path of the server. Every transport (stateless HTTP, 2025 HTTP sessions, stdio)
 * hands it an `InboundRequest` to `dispatch`: it finds the method's route for the request's era,
 * runs the handler, encodes the result for the era and turns failures into JSON-RPC errors
 * (`to-wire-error.ts`). A handler that answers synchronously is answered synchronously. Callers
 * without a wire (the REST endpoint, `McpServer.callTool`) `invoke` the same route and handler and
 * get the handler's value, or its error as thrown. Both are traced alike (`telemetry/`).
 */
import {
  type JSONRPCErrorResponse,
  type JSONRPCResultResponse,
  ProtocolError,
  type Result,
} from '@modelcontextprotocol/server';
import { JsonRpcErrorCode } from '../errors/json-rpc-error-code.js';
import { toWireError } from '../errors/to-wire-error.js';
import { encodeModernResult } from '../protocol/encode-result.js';
import type { DispatchAnswer } from '../request/dispatch-answer.js';
import type { InboundRequest } from '../request/inbound-request.js';
import { isPromiseLike } from '../tools/to-call-tool-result.js';
import type { MethodRoute } from './method-table.js';
import type { ServerScope } from './server-scope.js';

/** Routes requests to their handlers. */
export class RequestDispatcher {
  readonly #scope: ServerScope;
  readonly #routes: ReadonlyMap<string, MethodRoute>;

  constructor(scope: ServerScope, routes: ReadonlyMap<string, MethodRoute>) {
    this.#scope = scope;
    this.#routes = routes;
  }

  /** Answers one request (traced when a tracer or meter provider is registered: `telemetry/`). */
  dispatch(request: InboundRequest): DispatchAnswer {
    const trace = this.#scope.telemetry.start(request);
    if (trace === undefined) return this.#answer(request);
    const traced = trace.context === undefined ? request : { ...request, traceContext: trace.context };
    return trace.follow(() => this.#answer(traced));
  }

  /**
   * Runs one request for a caller without a wire (REST, `McpServer.callTool`): the handler's
   * result (not encoded for an era), or the error it threw, as thrown, so a local error keeps its
   * code. Traced like `dispatch`.
   */
  invoke(request: InboundRequest): Promise<Result> {
    const trace = this.#scope.telemetry.start(request);
    try {
      if (trace === undefined) return Promise.resolve(this.#handle(request));
      const traced = trace.context === undefined ? request : { ...request, traceContext: trace.context };
      return Promise.resolve(trace.followResult(() => this.#handle(traced)));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** The route of a request that its era and the server offer; undefined when there is none. */
  #routeOf(request: InboundRequest): MethodRoute | undefined {
    const route = this.#routes.get(request.method);
    if (route === undefined || !route[request.era] || route.available?.(this.#scope) === false)
      return undefined;
    return route;
  }

  #handle(request: InboundRequest): Result | Promise<Result> {
    const route = this.#routeOf(request);
    if (route === undefined) {
      throw new ProtocolError(
        JsonRpcErrorCode.MethodNotFound,
        methodNotFoundMessage(request, this.#routes.get(request.method)),
      );
    }
    return route.handle(request, this.#scope);
  }

  #answer(request: InboundRequest): DispatchAnswer {
    const route = this.#routeOf(request);
    if (route === undefined) {
      return this.#error(request, {
        code: JsonRpcErrorCode.MethodNotFound,
        message: methodNotFoundMessage(request, this.#routes.get(request.method)),
      });
    }
    const session = request.session;
    if (session !== undefined) session.inFlight.set(request.id, request.abort);
    let result: Result | Promise<Result>;
    try {
      result = route.handle(request, this.#scope);
    } catch (error) {
      if (session !== undefined) session.inFlight.delete(request.id);
      return request.abort.aborted ? undefined : this.#error(request, toWireError(error));
    }
    if (!isPromiseLike(result)) {
      if (session !== undefined) session.inFlight.delete(request.id);
      return this.#success(request, result);
    }
    return Promise.resolve(result).then(
      (settled) => {
        if (session !== undefined) session.inFlight.delete(request.id);
        return request.abort.aborted ? undefined : this.#success(request, settled);
      },
      (error: unknown) => {
        if (session !== undefined) session.inFlight.delete(request.id);
        return request.abort.aborted ? undefined : this.#error(request, toWireError(error));
      },
    );
  }

  #success(request: InboundRequest, result: Result): JSONRPCResultResponse {
    return {
      jsonrpc: '2.0',
      id: request.id,
      result:
        request.era === 'modern'
          ? encodeModernResult(request.method, result, this.#scope.info, this.#scope.cacheHint)
          : result,
    };
  }

  #error(request: InboundRequest, error: JSONRPCErrorResponse['error']): JSONRPCErrorResponse {
    return { jsonrpc: '2.0', id: request.id, error };
  }
}

const modernRemoved = new Set([
  'initialize',
  'ping',
  'logging/setLevel',
  'resources/subscribe',
  'resources/unsubscribe',
]);

function methodNotFoundMessage(request: InboundRequest, route: MethodRoute | undefined): string {
  const method = request.method;
  if (route === undefined) return `Method not found: "${method}".`;
  if (request.era === 'modern' && modernRemoved.has(method)) {
    return `Method not found: "${method}" is not part of protocol revision 2026-07-28 (use server/discover, the per-request _meta envelope and subscriptions/listen).`;
  }
  if (request.era === 'legacy' && !route.legacy) {
    return `Method not found: "${method}" belongs to protocol revision 2026-07-28; send it with the per-request _meta envelope.`;
  }
  return `Method not found: "${method}" (this server does not offer it).`;
}
