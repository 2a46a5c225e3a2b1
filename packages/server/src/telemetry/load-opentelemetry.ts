/**
 * `@opentelemetry/api` is an optional peer: loaded once per process when a server is created,
 * and absent (undefined) when it is not installed, in which case every telemetry step is skipped.
 * `loadedOpenTelemetry` is the synchronous view the request path reads (undefined until the load
 * settled; `serve` waits for it before accepting requests). The client keeps its own copy of this
 * file: no package imports a sibling's sources, and this is no public API.
 */
import type * as OpenTelemetryModule from '@opentelemetry/api';

/** The `@opentelemetry/api` module. */
export type OpenTelemetryApi = typeof OpenTelemetryModule;

let loading: Promise<OpenTelemetryApi | undefined> | undefined;
let loaded: OpenTelemetryApi | undefined;

/** Loads the OpenTelemetry API (once); undefined when the package is not installed (never rejects). */
export function loadOpenTelemetry(): Promise<OpenTelemetryApi | undefined> {
  loading ??= import('@opentelemetry/api').then(
    (api) => {
      loaded = api;
      return api;
    },
    () => undefined,
  );
  return loading;
}

/** The API if it has been loaded, else undefined. */
export function loadedOpenTelemetry(): OpenTelemetryApi | undefined {
  return loaded;
}
