/**
 * The type of `@opentelemetry/api`, which core's `loadOpenTelemetry` loads (an optional peer; its
 * types are a dev dependency here, so only this package's internal files name them).
 */
import type * as OpenTelemetryModule from '@opentelemetry/api';

/** The `@opentelemetry/api` module. */
export type OpenTelemetryApi = typeof OpenTelemetryModule;
