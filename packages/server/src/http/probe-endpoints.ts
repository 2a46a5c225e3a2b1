/**
 * The probes of an HTTP server: `GET /health` (liveness: 200 while the process serves, draining
 * included, since a drain is no reason to restart it; details only for a caller with the bearer
 * token, or without auth) and `GET /ready` (readiness: 503 while draining, or while the shared
 * cluster state or a further dependency does not answer, each given a bounded time).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ClusterMember } from '../cluster/cluster-state.js';
import type { McpServer } from '../server/mcp-server.js';
import { checkBearerToken } from './check-bearer-token.js';
import type { DrainController } from './drain-controller.js';
import { writeJson } from './http-failure.js';
import type { HttpConfig } from './http-options.js';
import type { ReadinessCheck } from './http-transport-options.js';

/** How long `/ready` gives each further dependency: a probe must answer fast, not hang with it. */
const readinessCheckTimeoutMs = 1_000;

/** What the probes report on. */
export interface ProbeSubject {
  server: McpServer;
  config: HttpConfig;
  cluster: ClusterMember;
  drain: DrainController;
  /** Open 2025 sessions; undefined in stateless mode. */
  sessionCount(): number | undefined;
}

/** `GET /health`. */
export function answerHealth(
  subject: ProbeSubject,
  request: IncomingMessage,
  response: ServerResponse,
): void {
  const { server, config, drain } = subject;
  const authorized =
    config.oauth === undefined &&
    (config.bearer === undefined || checkBearerToken(request.headers.authorization, config.bearer).ok);
  const sessions = subject.sessionCount();
  writeJson(response, drain.stopped ? 503 : 200, {
    status: drain.stopped ? 'closing' : 'ok',
    ...(config.replicaId !== undefined ? { replica: config.replicaId } : {}),
    ...(drain.closing ? { draining: true } : {}),
    name: server.name,
    version: server.version,
    mode: sessions !== undefined ? 'session' : 'stateless',
    ...(authorized
      ? {
          sessions: sessions ?? 0,
          inFlight: drain.inFlight,
          tools: server.listTools().length,
          ...server.health?.(),
        }
      : {}),
  });
}

/** `GET /ready`. */
export async function answerReady(subject: ProbeSubject, response: ServerResponse): Promise<void> {
  const { config, cluster } = subject;
  const replica = config.replicaId !== undefined ? { replica: config.replicaId } : {};
  const unavailable = (message: string) =>
    writeJson(response, 503, { status: 'unavailable', ...replica, message }, { 'retry-after': '1' });
  if (subject.drain.closing) {
    writeJson(response, 503, { status: 'draining', ...replica }, { 'retry-after': '1' });
    return;
  }
  if (cluster.shared && !(await cluster.ready())) {
    unavailable(
      `Shared state unreachable${cluster.location !== undefined ? ` (${cluster.location})` : ''}: session requests, resumption and rate-limited calls fail until it is back.`,
    );
    return;
  }
  for (const dependency of config.readinessChecks) {
    const failed = await checkWithin(dependency, readinessCheckTimeoutMs);
    if (failed === undefined) continue;
    unavailable(`${dependency.name} unreachable: ${failed}`);
    return;
  }
  writeJson(response, 200, { status: 'ready', ...replica });
}

/** Runs a readiness check within `timeoutMs`; the failure's message, or undefined when it passed. */
async function checkWithin(dependency: ReadinessCheck, timeoutMs: number): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${timeoutMs} ms`), timeoutMs);
  });
  try {
    return await Promise.race([
      dependency.check().then(
        () => undefined,
        (error: unknown) => (error instanceof Error ? error.message : String(error)),
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
