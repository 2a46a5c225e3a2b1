/**
 * The server side of a traced request (OpenTelemetry semantic conventions for MCP): a SERVER span
 * `{method} {target}` whose parent is the trace context the client put into `params._meta`, and
 * one `mcp.server.operation.duration` measurement (seconds; its count is the request count, and
 * the points with `error.type` are the errors, per tool). The span's context rides on the request
 * (`traceContext`), so what the handler calls out — a gateway's upstream call — is its child, and
 * the handler runs with it active, so instrumented code inside a tool nests too. With no provider
 * registered, or without `@opentelemetry/api`, `start` returns undefined and nothing else runs.
 */

import type { JSONRPCResponse, Result } from '@modelcontextprotocol/server';
import type { Attributes, Context, Histogram, Span, Tracer } from '@opentelemetry/api';
import type { TelemetrySetting } from '@switchboard/core';
import {
  createMcpOperationRecord,
  createTelemetryInstruments,
  describeMcpRequest,
  loadedOpenTelemetry,
  loadOpenTelemetry,
  McpAttribute,
  McpMetric,
  type McpOperationFailure,
  type McpOperationRecord,
  mcpSpanName,
  networkTransportOf,
  otherErrorType,
  type TelemetryInstruments,
  toolErrorType,
} from '@switchboard/core';
import { digestSessionId } from '@switchboard/core/node';
import { toWireError } from '../errors/to-wire-error.js';
import type { DispatchAnswer } from '../request/dispatch-answer.js';
import type { InboundRequest } from '../request/inbound-request.js';
import { isPromiseLike } from '../tools/to-call-tool-result.js';
import { extractTraceContext } from './extract-trace-context.js';
import type { OpenTelemetryApi } from './open-telemetry-api.js';

/** `error.type` of a request the client cancelled (no answer is sent). */
const cancelledErrorType = 'cancelled';

/** One traced request. */
export interface RequestTrace {
  /** The OpenTelemetry `Context` of the request's span (undefined without a span: metrics only). */
  readonly context: unknown;
  /** Runs the request's handler with the span active, and ends the span when its answer settles. */
  follow(answer: () => DispatchAnswer): DispatchAnswer;
  /**
   * The same for a request answered in-process (REST, `callTool`): its result, or the error it
   * throws, recorded as the wire would answer it (the JSON-RPC code of `to-wire-error.ts`).
   */
  followResult(run: () => Result | Promise<Result>): Result | Promise<Result>;
}

/** Starts the telemetry of each request of one server. */
export interface RequestTelemetry {
  /** The request's trace, or undefined when there is nowhere to send it (then do nothing more). */
  start(request: InboundRequest): RequestTrace | undefined;
}

const off: RequestTelemetry = Object.freeze({ start: () => undefined });

/** The request telemetry of a server; `setting` false: none. Starts loading `@opentelemetry/api`. */
export function createRequestTelemetry(setting: TelemetrySetting | undefined): RequestTelemetry {
  if (setting === false) return off;
  void loadOpenTelemetry();
  let instruments: TelemetryInstruments<Tracer, Histogram> | undefined;
  return {
    start(request) {
      // Loaded before the first request (`serve` waits for it); undefined when not installed.
      const api = loadedOpenTelemetry<OpenTelemetryApi>();
      if (api === undefined) return undefined;
      instruments ??= createTelemetryInstruments(api, setting ?? {}, {
        name: '@switchboard/server',
        metric: McpMetric.serverOperationDuration,
        description: 'Duration of MCP requests as the server saw them (received → answered).',
      });
      const tracer = instruments.tracer();
      const histogram = instruments.histogram();
      if (tracer === undefined && histogram === undefined) return undefined;
      return new TracedRequest(api, tracer, histogram, request);
    },
  };
}

/** The low-cardinality attributes of a request (on its span and its measurement), its target and URI. */
function requestAttributes(request: InboundRequest): {
  attributes: Attributes;
  target: string | undefined;
  resourceUri: string | undefined;
} {
  const { attributes, target, resourceUri } = describeMcpRequest(request.method, request.params);
  const version =
    request.era === 'modern' ? request.envelope?.protocolVersion : request.session?.protocolVersion;
  if (version !== undefined) attributes[McpAttribute.protocolVersion] = version;
  if (request.transport !== undefined)
    attributes[McpAttribute.networkTransport] = networkTransportOf(request.transport);
  return { attributes, target, resourceUri };
}

/** What a failed answer records; undefined for a success. */
function failureOf(answer: JSONRPCResponse | undefined): McpOperationFailure | undefined {
  if (answer === undefined) return { errorType: cancelledErrorType, message: 'the request was cancelled' };
  if ('error' in answer) return wireFailure(answer.error);
  return resultFailure(answer.result);
}

function wireFailure(error: { code: number; message: string }): McpOperationFailure {
  const code = String(error.code);
  return { errorType: code, statusCode: code, message: error.message };
}

function resultFailure(result: Result): McpOperationFailure | undefined {
  if ((result as { isError?: unknown }).isError === true)
    return { errorType: toolErrorType, message: 'the tool reported an error (isError)' };
  return undefined;
}

class TracedRequest implements RequestTrace {
  readonly context: Context | undefined;
  readonly #api: OpenTelemetryApi;
  readonly #record: McpOperationRecord;

  constructor(
    api: OpenTelemetryApi,
    tracer: Tracer | undefined,
    histogram: Histogram | undefined,
    request: InboundRequest,
  ) {
    this.#api = api;
    const { attributes, target, resourceUri } = requestAttributes(request);
    let span: Span | undefined;
    if (tracer === undefined) {
      this.context = undefined;
    } else {
      const spanAttributes: Attributes = { ...attributes, [McpAttribute.requestId]: String(request.id) };
      if (resourceUri !== undefined) spanAttributes[McpAttribute.resourceUri] = resourceUri;
      const session = request.session?.id;
      if (session !== undefined) spanAttributes[McpAttribute.sessionId] = digestSessionId(session);
      const parent = extractTraceContext(api, api.context.active(), request.params?._meta);
      span = tracer.startSpan(
        mcpSpanName(request.method, target),
        { kind: api.SpanKind.SERVER, attributes: spanAttributes },
        parent,
      );
      this.context = api.trace.setSpan(parent, span);
    }
    this.#record = createMcpOperationRecord({
      span,
      histogram,
      attributes,
      errorStatus: api.SpanStatusCode.ERROR,
    });
  }

  follow(answer: () => DispatchAnswer): DispatchAnswer {
    return this.#follow(answer, failureOf, (error) => this.#fail(error));
  }

  followResult(run: () => Result | Promise<Result>): Result | Promise<Result> {
    return this.#follow(run, resultFailure, (error) => this.#record.end(wireFailure(toWireError(error))));
  }

  /** Runs `run` with the span active; ends the record with what it settled to, or threw. */
  #follow<T>(
    run: () => T | Promise<T>,
    failed: (value: T) => McpOperationFailure | undefined,
    threw: (error: unknown) => void,
  ): T | Promise<T> {
    let settled: T | Promise<T>;
    try {
      settled = this.context === undefined ? run() : this.#api.context.with(this.context, run);
    } catch (error) {
      threw(error);
      throw error;
    }
    if (!isPromiseLike(settled)) {
      this.#record.end(failed(settled as T));
      return settled;
    }
    return (settled as Promise<T>).then(
      (value) => {
        this.#record.end(failed(value));
        return value;
      },
      (error: unknown) => {
        threw(error);
        throw error;
      },
    );
  }

  #fail(error: unknown): void {
    const code = (error as { code?: unknown } | null | undefined)?.code;
    this.#record.end({
      errorType: typeof code === 'string' || typeof code === 'number' ? String(code) : otherErrorType,
      message: error instanceof Error ? error.message : String(error),
    });
  }
}
