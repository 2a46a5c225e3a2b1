/**
 * The caller's trace context from a request's `params._meta` (`traceparent`, `tracestate`,
 * `baggage`: the keys MCP 2026-07-28 reserves for it), as the remote parent of the server's span.
 * A propagator registered globally reads what it is configured to read; without one, the W3C
 * Trace Context the MCP spec names is read, as the client writes it.
 */
import type { Context } from '@opentelemetry/api';
import { parseTraceparent, TraceContextMetaKey } from '@switchboard/core';
import type { OpenTelemetryApi } from './open-telemetry-api.js';

/** `base` with the remote parent `meta` names (`base` itself when it names none, or a bad one). */
export function extractTraceContext(api: OpenTelemetryApi, base: Context, meta: unknown): Context {
  if (typeof meta !== 'object' || meta === null) return base;
  const carrier = meta as Record<string, unknown>;
  if (api.propagation.fields().length > 0) return api.propagation.extract(base, carrier);
  const parent = parseTraceparent(carrier[TraceContextMetaKey.traceparent]);
  if (parent === undefined) return base;
  const state = carrier[TraceContextMetaKey.tracestate];
  return api.trace.setSpanContext(base, {
    ...parent,
    isRemote: true,
    ...(typeof state === 'string' && state.length > 0 ? { traceState: api.createTraceState(state) } : {}),
  });
}
