/**
 * The tracer and the duration histogram an MCP operation records with, looked up per operation (a
 * provider registered after connecting or serving is picked up by the next one) but built only when
 * the provider changed. A no-op provider — the global one while nothing is registered — yields
 * neither, so an operation with nowhere to send telemetry makes no span, no `_meta` and no
 * measurement: the check is two property reads and two comparisons. Shared by the client and the
 * server (why in core: `load-opentelemetry.ts`).
 */
import type { MeterProviderLike, OpenTelemetryApiLike, TracerProviderLike } from './load-opentelemetry.js';
import { mcpDurationBuckets } from './mcp-semantic-conventions.js';

/** What a telemetry scope records under. */
export interface InstrumentScope {
  /** The instrumentation scope (the package). */
  name: string;
  /** The histogram of operation durations (seconds). */
  metric: string;
  description: string;
}

/** Where the instruments come from: these providers, else the global ones. */
export interface InstrumentProviders {
  tracerProvider?: TracerProviderLike | undefined;
  meterProvider?: MeterProviderLike | undefined;
}

/** The tracer type of an API (`Tracer` of `@opentelemetry/api`). */
export type TracerOf<Api extends OpenTelemetryApiLike> = ReturnType<
  ReturnType<Api['trace']['getTracerProvider']>['getTracer']
>;

/** The histogram type of an API (`Histogram` of `@opentelemetry/api`). */
export type HistogramOf<Api extends OpenTelemetryApiLike> = ReturnType<
  ReturnType<ReturnType<Api['metrics']['getMeterProvider']>['getMeter']>['createHistogram']
>;

/** The instruments to use now. */
export interface TelemetryInstruments<Tracer, Histogram> {
  /** The tracer, undefined while spans would go nowhere. */
  tracer(): Tracer | undefined;
  /** The duration histogram, undefined while measurements would go nowhere. */
  histogram(): Histogram | undefined;
}

/**
 * True for a no-op. Another copy of the API (a second install) has no-ops of its own, which are
 * recognised by their class names (the API is published unminified).
 */
function isNoop(value: unknown, own: unknown, className: string): boolean {
  return value === own || (value as { constructor?: { name?: string } }).constructor?.name === className;
}

/** The instruments of `scope`: the providers in `providers`, else the global ones. */
export function createTelemetryInstruments<Api extends OpenTelemetryApiLike>(
  api: Api,
  providers: InstrumentProviders,
  scope: InstrumentScope,
): TelemetryInstruments<TracerOf<Api>, HistogramOf<Api>> {
  // What the API hands out when nothing is registered (one per copy of the API).
  const noopTracerProvider = new api.ProxyTracerProvider().getDelegate();
  const noopMeter = api.createNoopMeter();
  let tracerOf: unknown;
  let tracer: TracerOf<Api> | undefined;
  let histogramOf: unknown;
  let histogram: HistogramOf<Api> | undefined;
  return {
    tracer() {
      const provider = providers.tracerProvider ?? api.trace.getTracerProvider();
      // The global provider is a proxy whose delegate is what was registered (a no-op until then).
      const effective = (provider as { getDelegate?: () => unknown }).getDelegate?.() ?? provider;
      if (effective !== tracerOf) {
        tracerOf = effective;
        tracer = isNoop(effective, noopTracerProvider, 'NoopTracerProvider')
          ? undefined
          : (provider.getTracer(scope.name) as TracerOf<Api>);
      }
      return tracer;
    },
    histogram() {
      const provider =
        (providers.meterProvider as ReturnType<Api['metrics']['getMeterProvider']> | undefined) ??
        api.metrics.getMeterProvider();
      if (provider !== histogramOf) {
        histogramOf = provider;
        const meter = provider.getMeter(scope.name);
        histogram = isNoop(meter, noopMeter, 'NoopMeter')
          ? undefined
          : (meter.createHistogram(scope.metric, {
              unit: 's',
              description: scope.description,
              advice: { explicitBucketBoundaries: [...mcpDurationBuckets] },
            }) as HistogramOf<Api>);
      }
      return histogram;
    },
  };
}
