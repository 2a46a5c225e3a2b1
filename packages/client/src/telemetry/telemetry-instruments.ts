/**
 * The tracer and the duration histogram a call uses, looked up per call (a provider registered
 * after connecting is picked up by the next call) but built only when the provider changed. A
 * no-op provider — the global one while nothing is registered — yields neither, so a call with
 * nowhere to send telemetry makes no span, no `_meta` and no measurement: the check is two
 * property reads and two comparisons.
 */
import type { Histogram, Tracer } from '@opentelemetry/api';
import { mcpDurationBuckets } from '@switchboard/core';
import type { OpenTelemetryApi } from './load-opentelemetry.js';
import type { TelemetryOptions } from './telemetry-options.js';

/** What a telemetry scope records under. */
export interface InstrumentScope {
  /** The instrumentation scope (the package). */
  name: string;
  /** The histogram of operation durations (seconds). */
  metric: string;
  description: string;
}

/** The instruments to use now. */
export interface TelemetryInstruments {
  /** The tracer, undefined while spans would go nowhere. */
  tracer(): Tracer | undefined;
  /** The duration histogram, undefined while measurements would go nowhere. */
  histogram(): Histogram | undefined;
}

/** What the API hands out when nothing is registered (one per copy of the API). */
function noopMarkers(api: OpenTelemetryApi) {
  return { tracerProvider: new api.ProxyTracerProvider().getDelegate(), meter: api.createNoopMeter() };
}

/**
 * True for a no-op. Another copy of the API (a second install) has no-ops of its own, which are
 * recognised by their class names (the API is published unminified).
 */
function isNoop(value: unknown, own: unknown, className: string): boolean {
  return value === own || (value as { constructor?: { name?: string } }).constructor?.name === className;
}

/** The instruments of `scope`: the providers in `options`, else the global ones. */
export function createTelemetryInstruments(
  api: OpenTelemetryApi,
  options: TelemetryOptions,
  scope: InstrumentScope,
): TelemetryInstruments {
  const noop = noopMarkers(api);
  let tracerOf: unknown;
  let tracer: Tracer | undefined;
  let histogramOf: unknown;
  let histogram: Histogram | undefined;
  return {
    tracer() {
      const provider =
        (options.tracerProvider as ReturnType<typeof api.trace.getTracerProvider> | undefined) ??
        api.trace.getTracerProvider();
      // The global provider is a proxy whose delegate is what was registered (a no-op until then).
      const effective = (provider as { getDelegate?: () => unknown }).getDelegate?.() ?? provider;
      if (effective !== tracerOf) {
        tracerOf = effective;
        tracer = isNoop(effective, noop.tracerProvider, 'NoopTracerProvider')
          ? undefined
          : provider.getTracer(scope.name);
      }
      return tracer;
    },
    histogram() {
      const provider =
        (options.meterProvider as ReturnType<typeof api.metrics.getMeterProvider> | undefined) ??
        api.metrics.getMeterProvider();
      if (provider !== histogramOf) {
        histogramOf = provider;
        const meter = provider.getMeter(scope.name);
        histogram = isNoop(meter, noop.meter, 'NoopMeter')
          ? undefined
          : meter.createHistogram(scope.metric, {
              unit: 's',
              description: scope.description,
              advice: { explicitBucketBoundaries: [...mcpDurationBuckets] },
            });
      }
      return histogram;
    },
  };
}
