/**
 * The one request path of the server. Every transport (stateless HTTP, 2025 HTTP sessions, stdio,
 * the REST endpoint) hands it an `InboundRequest`; it finds the method's route for the request's
 * era, runs the handler, encodes the result for the era and turns failures into JSON-RPC errors
 * (`to-wire-error.ts`). A handler that answers synchronously is answered synchronously.
 */
import type { JSONRPCErrorResponse, JSONRPCResultResponse, Result } from '@modelcontextprotocol/server';
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

  #answer(request: InboundRequest): DispatchAnswer {
    const route = this.#routes.get(request.method);
    if (route === undefined || !route[request.era] || route.available?.(this.#scope) === false) {
      return this.#error(request, {
        code: JsonRpcErrorCode.MethodNotFound,
        message: methodNotFoundMessage(request, route),
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
