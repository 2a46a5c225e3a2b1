/**
 * The real OpenTelemetry SDK with in-memory exporters, for telemetry tests: a tracer provider
 * (`SimpleSpanProcessor`, so a span is exported when it ends) and a meter provider whose reader is
 * flushed on demand.
 */
import { context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  AggregationTemporality,
  type HistogramMetricData,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';

/** In-memory tracing and metrics. */
export interface InMemoryTelemetry {
  tracerProvider: BasicTracerProvider;
  meterProvider: MeterProvider;
  /** Spans ended so far. */
  spans(): ReadableSpan[];
  /** The histogram `name` as collected now (cumulative), or undefined. */
  histogram(name: string): Promise<HistogramMetricData | undefined>;
  reset(): void;
}

/** Creates in-memory providers (not registered). */
export function createInMemoryTelemetry(): InMemoryTelemetry {
  const spanExporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spanExporter)] });
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  // Exports only when flushed (the interval is longer than any test).
  const reader = new PeriodicExportingMetricReader({
    exporter: metricExporter,
    exportIntervalMillis: 3_600_000,
  });
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    tracerProvider,
    meterProvider,
    spans: () => spanExporter.getFinishedSpans(),
    async histogram(name) {
      metricExporter.reset();
      await reader.forceFlush();
      for (const batch of metricExporter.getMetrics().reverse()) {
        for (const scope of batch.scopeMetrics) {
          const found = scope.metrics.find((metric) => metric.descriptor.name === name);
          if (found !== undefined) return found as HistogramMetricData;
        }
      }
      return undefined;
    },
    reset: () => spanExporter.reset(),
  };
}

/** Creates in-memory providers and registers them (and an async context manager) globally. */
export function registerInMemoryTelemetry(): InMemoryTelemetry {
  const telemetry = createInMemoryTelemetry();
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(telemetry.tracerProvider);
  metrics.setGlobalMeterProvider(telemetry.meterProvider);
  return telemetry;
}

/** The parent span id of a span (SDK 2.x: `parentSpanContext`). */
export function parentOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}
