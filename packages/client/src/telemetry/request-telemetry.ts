/**
 * The client side of a traced `tools/call` (OpenTelemetry semantic conventions for MCP): a CLIENT
 * span `tools/call {tool}` — a child of the call's `traceContext` or of the active context — whose
 * context goes into the request's `_meta` so the server's span becomes its child, and one
 * `mcp.client.operation.duration` measurement (seconds; its count is the call count, and the
 * points with `error.type` are the errors, per tool). With no provider registered, or without
 * `@opentelemetry/api`, `start` returns undefined and the call runs as if this file did not exist.
 */

import type { CallToolResult } from '@modelcontextprotocol/client';
import type { Attributes, Context, Histogram, Span, Tracer } from '@opentelemetry/api';
import { executeToolOperation, McpAttribute, McpMetric, mcpSpanName, toolErrorType } from '@switchboard/core';
import { failureAttributesOf } from './failure-attributes.js';
import { injectTraceContext } from './inject-trace-context.js';
import type { OpenTelemetryApi } from './load-opentelemetry.js';
import { withRequestIdSink } from './request-id-sink.js';
import { digestSessionId } from './session-digest.js';
import { createTelemetryInstruments } from './telemetry-instruments.js';
import type { TelemetrySetting } from './telemetry-options.js';

/** What the connection tells about itself (read when a call starts). */
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

/** One traced call. */
export interface ToolCallTrace {
  /** The trace context to add to the request's `_meta`; undefined when there is no span. */
  readonly meta: Readonly<Record<string, unknown>> | undefined;
  /** The call was answered (`isError` counts as a failure of the tool); undefined: answered with a task. */
  end(result: CallToolResult | undefined): void;
  /** The call failed. */
  fail(error: unknown): void;
}

/** Starts the telemetry of each call of one connection. */
export interface ToolCallTelemetry {
  /** The call's trace, or undefined when there is nowhere to send it (then do nothing more). */
  start(tool: string, parent: unknown): ToolCallTrace | undefined;
}

const off: ToolCallTelemetry = Object.freeze({ start: () => undefined });

/** The tool-call telemetry of a connection; `api` undefined (not installed) or `setting` false: none. */
export function createToolCallTelemetry(
  api: OpenTelemetryApi | undefined,
  setting: TelemetrySetting | undefined,
  facts: ConnectionFacts,
): ToolCallTelemetry {
  if (api === undefined || setting === false) return off;
  const instruments = createTelemetryInstruments(api, setting ?? {}, {
    name: '@switchboard/client',
    metric: McpMetric.clientOperationDuration,
    description: 'Duration of MCP requests as the client saw them (sent → answered).',
  });
  return {
    start(tool, parent) {
      const tracer = instruments.tracer();
      const histogram = instruments.histogram();
      if (tracer === undefined && histogram === undefined) return undefined;
      return new TracedToolCall(api, tracer, histogram, tool, parent as Context | undefined, facts);
    },
  };
}

/** The attributes every span and measurement of a call carries. */
function commonAttributes(tool: string, facts: ConnectionFacts): Attributes {
  const attributes: Attributes = {
    [McpAttribute.methodName]: 'tools/call',
    [McpAttribute.toolName]: tool,
    [McpAttribute.operationName]: executeToolOperation,
  };
  if (facts.protocolVersion !== undefined) attributes[McpAttribute.protocolVersion] = facts.protocolVersion;
  if (facts.networkTransport !== undefined)
    attributes[McpAttribute.networkTransport] = facts.networkTransport;
  return attributes;
}

class TracedToolCall implements ToolCallTrace {
  readonly meta: Record<string, unknown> | undefined;
  readonly #api: OpenTelemetryApi;
  readonly #histogram: Histogram | undefined;
  readonly #span: Span | undefined;
  readonly #attributes: Attributes;
  readonly #facts: ConnectionFacts;
  readonly #started = performance.now();
  #ended = false;

  constructor(
    api: OpenTelemetryApi,
    tracer: Tracer | undefined,
    histogram: Histogram | undefined,
    tool: string,
    parent: Context | undefined,
    facts: ConnectionFacts,
  ) {
    this.#api = api;
    this.#histogram = histogram;
    this.#facts = facts;
    this.#attributes = commonAttributes(tool, facts);
    if (tracer === undefined) {
      this.meta = undefined;
      this.#span = undefined;
      return;
    }
    const attributes: Attributes = { ...this.#attributes };
    if (facts.serverAddress !== undefined) {
      attributes[McpAttribute.serverAddress] = facts.serverAddress;
      if (facts.serverPort !== undefined) attributes[McpAttribute.serverPort] = facts.serverPort;
    }
    const session = facts.sessionId();
    if (session !== undefined) attributes[McpAttribute.sessionId] = digestSessionId(session);
    const parentContext = parent ?? api.context.active();
    this.#span = tracer.startSpan(
      mcpSpanName('tools/call', tool),
      { kind: api.SpanKind.CLIENT, attributes },
      parentContext,
    );
    const meta: Record<string, unknown> = {};
    injectTraceContext(api, api.trace.setSpan(parentContext, this.#span), meta);
    const span = this.#span;
    this.meta = withRequestIdSink(meta, (id) => span.setAttribute(McpAttribute.requestId, String(id)));
  }

  end(result: CallToolResult | undefined): void {
    if (result?.isError === true) {
      this.#finish({ errorType: toolErrorType, message: 'the tool reported an error (isError)' });
      return;
    }
    this.#finish(undefined);
  }

  fail(error: unknown): void {
    this.#finish(failureAttributesOf(error));
  }

  #finish(failure: { errorType: string; statusCode?: string; message: string } | undefined): void {
    if (this.#ended) return;
    this.#ended = true;
    const seconds = (performance.now() - this.#started) / 1000;
    const attributes =
      failure === undefined
        ? this.#attributes
        : {
            ...this.#attributes,
            [McpAttribute.errorType]: failure.errorType,
            ...(failure.statusCode === undefined
              ? {}
              : { [McpAttribute.responseStatusCode]: failure.statusCode }),
          };
    const span = this.#span;
    if (span !== undefined) {
      if (failure !== undefined) {
        span.setAttribute(McpAttribute.errorType, failure.errorType);
        if (failure.statusCode !== undefined)
          span.setAttribute(McpAttribute.responseStatusCode, failure.statusCode);
        span.setStatus({
          code: this.#api.SpanStatusCode.ERROR,
          message: this.#facts.redact(failure.message),
        });
      }
      span.end();
    }
    this.#histogram?.record(seconds, attributes);
  }
}
