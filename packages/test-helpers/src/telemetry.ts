/**
 * `@switchboard/test-helpers/telemetry`: the real OpenTelemetry SDK with in-memory exporters, for
 * the tests of the packages that trace. On its own subpath so that importing the root entry never
 * loads the SDK (tests that check what a process loads import the root).
 */
export { asAgent, type InMemoryTelemetry, registerInMemoryTelemetry } from './in-memory-telemetry.js';
