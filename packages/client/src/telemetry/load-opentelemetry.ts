/**
 * `@opentelemetry/api` is an optional peer: loaded on first use, once per process, and absent
 * (undefined) when it is not installed, in which case every telemetry step is skipped. Loaded
 * lazily so a client that never traces does not pay for parsing it at start-up either.
 */
import type * as OpenTelemetryModule from '@opentelemetry/api';

/** The `@opentelemetry/api` module. */
export type OpenTelemetryApi = typeof OpenTelemetryModule;

let loading: Promise<OpenTelemetryApi | undefined> | undefined;

/** The OpenTelemetry API, or undefined when the package is not installed (never rejects). */
export function loadOpenTelemetry(): Promise<OpenTelemetryApi | undefined> {
  loading ??= import('@opentelemetry/api').then(
    (api) => api,
    () => undefined,
  );
  return loading;
}
