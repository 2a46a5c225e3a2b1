/**
 * How a request's parent trace context reaches the SDK client's request funnel, where its span is
 * made (`protocol-client.ts`): on the request options, under an own symbol key — the SDK hands the
 * options object of `readResource`, `getPrompt`, the list walks and the rest to `request` as it
 * was given — so the SDK's own option types stay as they are and nothing of it reaches the wire.
 */

const traceContextKey = Symbol('switchboard.traceContext');

/** `options` with `traceContext` (an OpenTelemetry `Context`) attached. */
export function withTraceContext<T extends object>(options: T, traceContext: unknown): T {
  return Object.assign(options, { [traceContextKey]: traceContext });
}

/** The trace context attached to `options`, or undefined (then the active context is the parent). */
export function traceContextOf(options: unknown): unknown {
  return typeof options === 'object' && options !== null
    ? (options as { [traceContextKey]?: unknown })[traceContextKey]
    : undefined;
}
