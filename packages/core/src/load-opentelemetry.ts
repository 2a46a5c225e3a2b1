/**
 * `@opentelemetry/api`, an optional peer of every Switchboard package that traces: loaded on first
 * use, once per process for the client, the gateway and the server together, and undefined when it
 * is not installed, in which case every telemetry step is skipped. Loaded lazily, so a process that
 * never traces does not pay for parsing it at start-up either.
 *
 * Why here, in core: the client and the server both need this loader and the provider resolution
 * beside it (`telemetry-instruments.ts`), and core is the lowest layer both depend on. It holds no
 * OpenTelemetry import in its types — the API is described structurally, by the few members the
 * resolution reads — so core's published types never need the package; callers that have its
 * types (the client and the server, where it is a dev dependency as well as a peer) name them as
 * the type argument. The session-id digest is not here: it needs `node:crypto`, which core's root
 * entry does not load (it is on the `@switchboard/core/node` subpath).
 */

/**
 * An OpenTelemetry `TracerProvider` (e.g. a `BasicTracerProvider` or `NodeTracerProvider`), typed
 * structurally so that no package's types need `@opentelemetry/api`.
 */
export interface TracerProviderLike {
  getTracer(name: string, version?: string): unknown;
}

/** An OpenTelemetry `MeterProvider` (e.g. the SDK's `MeterProvider`), typed structurally. */
export interface MeterProviderLike {
  getMeter(name: string, version?: string): unknown;
}

/** A meter provider as the API hands it out: its meters make histograms. */
interface ApiMeterProvider {
  getMeter(name: string, version?: string): { createHistogram(name: string, options?: object): unknown };
}

/** The members of `@opentelemetry/api` that core reads (the real module has these and much more). */
export interface OpenTelemetryApiLike {
  trace: { getTracerProvider(): TracerProviderLike };
  metrics: { getMeterProvider(): ApiMeterProvider };
  /** The global tracer provider's class: a fresh one delegates to the API's own no-op. */
  ProxyTracerProvider: new () => { getDelegate(): unknown };
  /** The API's own no-op meter. */
  createNoopMeter(): unknown;
}

/**
 * Named through a variable, with the bundlers' ignore comments, so that a browser or edge bundle of
 * core does not try to resolve an optional package it does not need (only the Node packages load it).
 */
const openTelemetryApiPackage = '@opentelemetry/api';

let loading: Promise<OpenTelemetryApiLike | undefined> | undefined;
let loaded: OpenTelemetryApiLike | undefined;

/**
 * Loads `@opentelemetry/api` (once per process); undefined when it is not installed (never
 * rejects). `Api` is the module's type as the caller knows it (`typeof import('@opentelemetry/api')`).
 */
export function loadOpenTelemetry<Api extends OpenTelemetryApiLike = OpenTelemetryApiLike>(): Promise<
  Api | undefined
> {
  loading ??= import(/* webpackIgnore: true */ /* @vite-ignore */ openTelemetryApiPackage).then(
    (api: OpenTelemetryApiLike) => {
      loaded = api;
      return api;
    },
    () => undefined,
  );
  return loading as Promise<Api | undefined>;
}

/**
 * The API if {@link loadOpenTelemetry} has loaded it, else undefined: the synchronous view a
 * request path reads (a server waits for the load before accepting requests).
 */
export function loadedOpenTelemetry<Api extends OpenTelemetryApiLike = OpenTelemetryApiLike>():
  | Api
  | undefined {
  return loaded as Api | undefined;
}
