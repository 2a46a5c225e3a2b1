/**
 * The client side of every traced request (OpenTelemetry semantic conventions for MCP): a CLIENT
 * span `{method} {target}` — `tools/call {tool}`, `prompts/get {prompt}`, the method alone for the
 * rest — a child of the request's `traceContext` or of the active context, whose context goes into
 * the request's `params._meta` so the server's span becomes its child; and one
 * `mcp.client.operation.duration` measurement (seconds; its count is the request count, and the
 * points with `error.type` are the errors, per method, tool and prompt). Tool calls are started by
 * the call path (`mcp-client.ts`), which knows of `isError` and tasks; every other request by the
 * SDK client's request funnel (`protocol-client.ts`). With no provider registered, or without
 * `@opentelemetry/api`, `start…` returns undefined and the request runs as if this file did not exist.
 */

import type { Attributes, Context, Histogram, Span, Tracer } from '@opentelemetry/api';
import {
  createMcpOperationRecord,
  createTelemetryInstruments,
  describeMcpRequest,
  McpAttribute,
  McpMetric,
  type McpOperationRecord,
  mcpSpanName,
  type TelemetrySetting,
  toolErrorType,
} from '@switchboard/core';
import { digestSessionId } from '@switchboard/core/node';
import { failureAttributesOf } from './failure-attributes.js';
import { injectTraceContext } from './inject-trace-context.js';
import type { OpenTelemetryApi } from './open-telemetry-api.js';
import { withRequestIdSink } from './request-id-sink.js';

/** What the connection tells about itself (read when a request starts). */
export interface ConnectionFacts {
  protocolVersion: string | undefined;
  /** `pipe` (stdio) or `tcp` (HTTP, SSE, WebSocket); undefined for a transport given by the caller. */
  networkTransport: 'pipe' | 'tcp' | undefined;
  /** Host and port of an HTTP server. */
  serverAddress?: string;
  serverPort?: number;
  /** The 2025 HTTP session, when there is one (recorded as a digest). */
  sessionId(): string | undefined;
  /** Keeps secrets out of the span status. */
  redact(text: string): string;
}

/** One traced request. */
export interface RequestTrace {
  /** The trace context to add to the request's `_meta`; undefined when there is no span. */
  readonly meta: Readonly<Record<string, unknown>> | undefined;
  /**
   * The request was answered; a tool call's result with `isError` counts as a failure of the tool.
   * Undefined: a tool call answered with a task (the call itself went well).
   */
  end(result: unknown): void;
  /** The request failed. */
  fail(error: unknown): void;
}

/** Starts the telemetry of each request of one connection. */
export interface RequestTelemetry {
  /** A `tools/call`'s trace, or undefined when there is nowhere to send it (then do nothing more). */
  startToolCall(tool: string, parent: unknown): RequestTrace | undefined;
  /** Any other request's trace, or undefined when there is nowhere to send it. */
  startRequest(method: string, params: unknown, parent: unknown): RequestTrace | undefined;
}

/** The telemetry of a connection that records nothing. */
export const noRequestTelemetry: RequestTelemetry = Object.freeze({
  startToolCall: () => undefined,
  startRequest: () => undefined,
});

/** The request telemetry of a connection; `api` undefined (not installed) or `setting` false: none. */
export function createRequestTelemetry(
  api: OpenTelemetryApi | undefined,
  setting: TelemetrySetting | undefined,
  facts: ConnectionFacts,
): RequestTelemetry {
  if (api === undefined || setting === false) return noRequestTelemetry;
  const instruments = createTelemetryInstruments(api, setting ?? {}, {
    name: '@switchboard/client',
    metric: McpMetric.clientOperationDuration,
    description: 'Duration of MCP requests as the client saw them (sent → answered).',
  });
  return {
    startToolCall(tool, parent) {
      const tracer = instruments.tracer();
      const histogram = instruments.histogram();
      if (tracer === undefined && histogram === undefined) return undefined;
      return new TracedRequest(api, tracer, histogram, 'tools/call', { name: tool }, parent, facts);
    },
    startRequest(method, params, parent) {
      const tracer = instruments.tracer();
      const histogram = instruments.histogram();
      if (tracer === undefined && histogram === undefined) return undefined;
      return new TracedRequest(api, tracer, histogram, method, params, parent, facts);
    },
  };
}

class TracedRequest implements RequestTrace {
  readonly meta: Record<string, unknown> | undefined;
  readonly #record: McpOperationRecord;
  readonly #facts: ConnectionFacts;
  readonly #toolCall: boolean;

  constructor(
    api: OpenTelemetryApi,
    tracer: Tracer | undefined,
    histogram: Histogram | undefined,
    method: string,
    params: unknown,
    parent: unknown,
    facts: ConnectionFacts,
  ) {
    this.#facts = facts;
    this.#toolCall = method === 'tools/call';
    const request = describeMcpRequest(method, params);
    const attributes: Attributes = request.attributes;
    if (facts.protocolVersion !== undefined) attributes[McpAttribute.protocolVersion] = facts.protocolVersion;
    if (facts.networkTransport !== undefined)
      attributes[McpAttribute.networkTransport] = facts.networkTransport;
    let span: Span | undefined;
    if (tracer === undefined) {
      this.meta = undefined;
    } else {
      const spanAttributes: Attributes = { ...attributes };
      if (request.resourceUri !== undefined) spanAttributes[McpAttribute.resourceUri] = request.resourceUri;
      if (facts.serverAddress !== undefined) {
        spanAttributes[McpAttribute.serverAddress] = facts.serverAddress;
        if (facts.serverPort !== undefined) spanAttributes[McpAttribute.serverPort] = facts.serverPort;
      }
      const session = facts.sessionId();
      if (session !== undefined) spanAttributes[McpAttribute.sessionId] = digestSessionId(session);
      const parentContext = (parent as Context | undefined) ?? api.context.active();
      const started = tracer.startSpan(
        mcpSpanName(method, request.target),
        { kind: api.SpanKind.CLIENT, attributes: spanAttributes },
        parentContext,
      );
      span = started;
      const meta: Record<string, unknown> = {};
      injectTraceContext(api, api.trace.setSpan(parentContext, started), meta);
      this.meta = withRequestIdSink(meta, (id) => started.setAttribute(McpAttribute.requestId, String(id)));
    }
    this.#record = createMcpOperationRecord({
      span,
      histogram,
      attributes,
      errorStatus: api.SpanStatusCode.ERROR,
    });
  }

  end(result: unknown): void {
    if (this.#toolCall && (result as { isError?: unknown } | undefined)?.isError === true) {
      this.#record.end({ errorType: toolErrorType, message: 'the tool reported an error (isError)' });
      return;
    }
    this.#record.end(undefined);
  }

  fail(error: unknown): void {
    const failure = failureAttributesOf(error);
    this.#record.end({ ...failure, message: this.#facts.redact(failure.message) });
  }
}
