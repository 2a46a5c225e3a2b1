/**
 * Where a connection's or a server's spans and metrics go. Typed structurally (the provider shapes
 * are beside the loader and the provider resolution that read them), so no package's types need
 * `@opentelemetry/api` (an optional peer): any OpenTelemetry `TracerProvider` and `MeterProvider`
 * fits. Here, in core, because the client (`connectMcp`), the server (`createMcpServer`) and the
 * gateway all take the same `telemetry` option.
 */
import type { MeterProviderLike, TracerProviderLike } from './load-opentelemetry.js';

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
