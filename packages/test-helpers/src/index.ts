/**
 * What the packages' tests and benches share (private, never published): import it as a
 * devDependency from `test/` and `bench/` (the scale-test harness, itself a test, from `src/`);
 * a published package's `src/` never imports it.
 */
import './dispose-symbols.js';

export { type Collector, createCollector } from './collector.js';
export { createEventLog, type EventLog } from './event-log.js';
export { type EventStreamReader, openEventStream } from './event-stream.js';
export { type EverythingHttpServer, startEverythingHttp } from './everything-http.js';
export {
  type FixtureServer,
  fixtureServerScript,
  type MaliciousHttpServer,
  maliciousStdio,
  startMaliciousHttp,
  type ToolAttack,
} from './fixture-servers.js';
export { hidePackagesPreload } from './hide-packages.js';
export { copyHostConfigFixture, hostConfigFixtures } from './host-config-fixtures.js';
export {
  type ConnectInMemoryOptions,
  connectInMemory,
  type InMemoryConnection,
  type InMemoryServer,
} from './in-memory-connection.js';
export { envelope, post, type RawAnswer } from './modern-request.js';
export {
  appServerScript,
  appServerStdio,
  everythingStdio,
  filesystemStdio,
  memoryStdio,
  type OfficialAppServer,
  type OfficialServer,
  serverScript,
} from './official-servers.js';
export {
  type AnthropicVisibilityRequest,
  anthropicVisibleTools,
  jsonShape,
  type OpenAIVisibilityRequest,
  type OpenAIVisibleTools,
  openAIVisibleTools,
} from './provider-tool-visibility.js';
export {
  acceptsConnections,
  freePort,
  freePorts,
  type ListeningServer,
  listenOnRandomPort,
} from './random-port.js';
export { readLines } from './read-lines.js';
export {
  localServerEverything,
  npxServerEverything,
  type RunSnippetOptions,
  readmeSnippet,
  runSnippet,
  type SnippetFile,
  writeSnippet,
} from './readme-snippet.js';
export {
  createQualityAccumulator,
  percentiles,
  type Quality,
  type RankedSelection,
  selectionQuality,
} from './retrieval-metrics.js';
export {
  createTemporaryDirectories,
  createTemporaryDirectory,
  type TemporaryDirectories,
  type TemporaryDirectory,
} from './temporary-directory.js';
export { turnOrder } from './turn-order.js';
export { waitForClockPast } from './wait-for-clock.js';
export { type WaitForEventOptions, waitForEvent } from './wait-for-event.js';
export { type ProcessExit, waitForExit } from './wait-for-exit.js';
export { type WaitForPortOptions, waitForPort } from './wait-for-port.js';
export { defaultWaitTimeoutMs, type WaitOptions } from './wait-options.js';
