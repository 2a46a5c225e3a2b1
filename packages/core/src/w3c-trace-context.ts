/**
 * W3C Trace Context (https://www.w3.org/TR/trace-context/) as MCP carries it: the unprefixed
 * `traceparent`, `tracestate` and `baggage` keys of a request's `params._meta`, which MCP
 * 2026-07-28 reserves for OpenTelemetry context propagation (an exception to its prefix rule, so
 * that the keys match the OpenTelemetry semantic conventions for MCP). The codec of `traceparent`
 * lives here, free of any OpenTelemetry import, so the client and the server propagate the same
 * format even when no OpenTelemetry propagator is registered.
 */

/** The `_meta` keys of trace context propagation. */
export const TraceContextMetaKey = {
  traceparent: 'traceparent',
  tracestate: 'tracestate',
  baggage: 'baggage',
} as const;

/** What a `traceparent` says: the trace, the caller's span, and its flags (bit 0: sampled). */
export interface TraceParent {
  /** 32 lowercase hex digits, not all zero. */
  traceId: string;
  /** 16 lowercase hex digits, not all zero: the span of the sender. */
  spanId: string;
  /** Trace flags (0–255); bit 0 is `sampled`. */
  traceFlags: number;
}

const traceIdPattern = /^[0-9a-f]{32}$/;
const spanIdPattern = /^[0-9a-f]{16}$/;
const hexBytePattern = /^[0-9a-f]{2}$/;
const zeroTraceId = '0'.repeat(32);
const zeroSpanId = '0'.repeat(16);

/** The `traceparent` value of a span (version `00`). */
export function formatTraceparent(parent: TraceParent): string {
  return `00-${parent.traceId}-${parent.spanId}-${(parent.traceFlags & 0xff).toString(16).padStart(2, '0')}`;
}

/**
 * Reads a `traceparent` value; undefined when it is not a valid one (the receiver then starts a
 * new trace, as the W3C rules say). A later version is read by its version-00 prefix, as the
 * W3C asks of a version-00 parser.
 */
export function parseTraceparent(value: unknown): TraceParent | undefined {
  if (typeof value !== 'string' || value.length < 55) return undefined;
  const version = value.slice(0, 2);
  if (!hexBytePattern.test(version) || version === 'ff') return undefined;
  if (version === '00' ? value.length !== 55 : value.length > 55 && value[55] !== '-') return undefined;
  if (value[2] !== '-' || value[35] !== '-' || value[52] !== '-') return undefined;
  const traceId = value.slice(3, 35);
  const spanId = value.slice(36, 52);
  const flags = value.slice(53, 55);
  if (!traceIdPattern.test(traceId) || traceId === zeroTraceId) return undefined;
  if (!spanIdPattern.test(spanId) || spanId === zeroSpanId) return undefined;
  if (!hexBytePattern.test(flags)) return undefined;
  return { traceId, spanId, traceFlags: Number.parseInt(flags, 16) };
}
