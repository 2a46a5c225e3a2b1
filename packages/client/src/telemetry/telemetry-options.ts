/**
 * Where a connection's spans and metrics go. Typed structurally (the provider shapes are core's,
 * beside the loader and the provider resolution that read them), so the package's types never
 * need `@opentelemetry/api` (an optional peer): any OpenTelemetry `TracerProvider` and
 * `MeterProvider` fits.
 */
import type { MeterProviderLike, TracerProviderLike } from '@switchboard/core';

export type { MeterProviderLike, TracerProviderLike };

/**
 * Tracing and metrics of MCP calls (OpenTelemetry semantic conventions for MCP). Without it, the
 * providers registered globally are used (`trace.setGlobalTracerProvider`,
 * `metrics.setGlobalMeterProvider`, or an SDK's `register()`); when none is, nothing is done at all.
 */
export interface TelemetryOptions {
  /** Spans go here instead of to the global tracer provider. @default the global tracer provider */
  tracerProvider?: TracerProviderLike;
  /** Metrics go here instead of to the global meter provider. @default the global meter provider */
  meterProvider?: MeterProviderLike;
}

/** The `telemetry` option: where spans and metrics go, or `false` for none even when a provider is registered. */
export type TelemetrySetting = TelemetryOptions | false;
