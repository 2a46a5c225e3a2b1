/**
 * What the request paths of a connection see of its telemetry: start a trace per request, end or
 * fail it. The OpenTelemetry implementation is `request-tracing.ts`; a tool call's trace is started once by its observe link (`observe-link.ts`), every other request's where the connection sends it (`connected-mcp-client.ts`); this contract names no
 * OpenTelemetry type, so the declarations that reach it (the engine's, `request-engine.ts`)
 * compile for a user without `@opentelemetry/api`, an optional peer.
 */

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
  /** Told the JSON-RPC id its request went out with (`jsonrpc.request.id`; the last one of a retried call). */
  requestSent(id: string | number): void;
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
