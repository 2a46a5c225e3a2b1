/**
 * Trace context into a request's `params._meta`, under the keys MCP 2026-07-28 reserves for it
 * (`traceparent`, `tracestate`, `baggage`). A propagator registered globally (an SDK's
 * `register()`, `propagation.setGlobalPropagator`) writes what it is configured to write, as the
 * semantic conventions ask; without one, the W3C Trace Context the MCP spec names is written, so
 * the trace still crosses to the server.
 */
import type { Context } from '@opentelemetry/api';
import { formatTraceparent, TraceContextMetaKey } from '@switchboard/core';
import type { OpenTelemetryApi } from './open-telemetry-api.js';

/** Writes the trace context of `context` into `meta` (adding keys, replacing none but its own). */
export function injectTraceContext(
  api: OpenTelemetryApi,
  context: Context,
  meta: Record<string, unknown>,
): void {
  if (api.propagation.fields().length > 0) {
    api.propagation.inject(context, meta);
    return;
  }
  const span = api.trace.getSpanContext(context);
  if (span === undefined || !api.isSpanContextValid(span)) return;
  meta[TraceContextMetaKey.traceparent] = formatTraceparent(span);
  const state = span.traceState?.serialize();
  if (state) meta[TraceContextMetaKey.tracestate] = state;
}
