/**
 * The client side of every traced request (OpenTelemetry semantic conventions for MCP): a CLIENT
 * span `{method} {target}` — `tools/call {tool}`, `prompts/get {prompt}`, the method alone for the
 * rest — a child of the request's `traceContext` or of the active context, whose context goes into
 * the request's `params._meta` so the server's span becomes its child; and one
 * `mcp.client.operation.duration` measurement (seconds; its count is the request count, and the
 * points with `error.type` are the errors, per method, tool and prompt). A tool call's is started once by
 * its observe link (`observe-link.ts`), which knows of `isError` and tasks; every other request's
 * where the connection sends it (`connected-mcp-client.ts`), one per request on the wire. With no provider registered, or without
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
import {
  type ConnectionFacts,
  noRequestTelemetry,
  type RequestTelemetry,
  type RequestTrace,
} from './request-telemetry.js';

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
  readonly #span: Span | undefined;
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
      this.meta = meta;
    }
    this.#span = span;
    this.#record = createMcpOperationRecord({
      span,
      histogram,
      attributes,
      errorStatus: api.SpanStatusCode.ERROR,
    });
  }

  requestSent(id: string | number): void {
    this.#span?.setAttribute(McpAttribute.requestId, String(id));
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
