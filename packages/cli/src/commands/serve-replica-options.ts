/**
 * The flags that make `switchboard serve --http` one replica of several behind a load balancer:
 * shared state in Redis, sealed 2025 session ids, a replica id, principals per token, shared rate
 * limits and the drain and idle timeouts (declared in serve-replica-flags.ts). Turned into the HTTP
 * transport's options here, so the command itself stays a list of steps.
 */
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import type { Logger } from '@switchboard/core';
import {
  type BearerTokenPrincipal,
  type ClusterState,
  deriveRequestStateKey,
  type HttpTransportOptions,
  isReplicaId,
  loadSessionKeys,
  type ReadinessCheck,
  type RequestStateOptions,
} from '@switchboard/server';
import type { CommandContext } from '../cli-command.js';
import { UsageError } from '../cli-error.js';

/** What the replica flags add to the HTTP transport, and what to release at the end. */
export interface ReplicaSetup {
  transport: Partial<HttpTransportOptions>;
  /**
   * The sealing of 2026-07-28 `requestState`, derived from the session keys so that one key file
   * serves both: a multi-round call's retry may land on any replica.
   */
  requestState?: RequestStateOptions;
  /** Where the shared state lives (for the start-up line; no credentials). */
  sharedStateLocation?: string;
  /** The shared state itself (`--redis`): the gateway keeps its webhook subscriptions and task owners there too. */
  cluster?: ClusterState;
  close(): Promise<void>;
}

/** A positive number of `unit`s from a flag, or undefined when the flag is absent. */
function positiveNumber(value: unknown, flag: string, unit: string): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0)
    throw new UsageError(`${flag} takes a positive number of ${unit}.`);
  return number;
}

/**
 * `--tokens-file F`: one `principal token` pair per line (`#` comments, blank lines skipped), so that
 * sessions and rate limits are bound to who calls. The tokens never appear in an error.
 */
export function loadTokensFile(path: string): BearerTokenPrincipal[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(
      `--tokens-file: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'}).`,
    );
  }
  const tokens: BearerTokenPrincipal[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const [principal, token, extra] = line.split(/\s+/);
    if (principal === undefined || token === undefined || extra !== undefined || token.length < 16) {
      throw new UsageError(
        `--tokens-file ${path}:${index + 1}: expected "principal token" (a token of at least 16 characters, no spaces).`,
      );
    }
    tokens.push({ principal, token });
  });
  if (tokens.length === 0) throw new UsageError(`--tokens-file ${path}: no "principal token" lines.`);
  return tokens;
}

/**
 * Reads the replica flags. `--redis` (or `SWITCHBOARD_REDIS_URL`, which keeps a password out of
 * process lists) makes the state shared; `--session-key-file` seals 2025 session ids so that any
 * replica serves any session; without them the server is the single process it always was.
 */
export async function replicaSetupOf(
  context: CommandContext,
  readiness: ReadinessCheck[],
  logger: Logger,
): Promise<ReplicaSetup> {
  const { values, io } = context;
  const redisUrl = typeof values.redis === 'string' ? values.redis : io.env.SWITCHBOARD_REDIS_URL;
  const replicaId = typeof values['replica-id'] === 'string' ? values['replica-id'] : undefined;
  if (replicaId !== undefined && !isReplicaId(replicaId)) {
    throw new UsageError('--replica-id takes 1–64 letters, digits, "_" or "-" (e.g. the pod name).');
  }
  const callsPerMinute = positiveNumber(values['rate-limit'], '--rate-limit', 'calls per minute');
  const idleSeconds = positiveNumber(values['session-idle-timeout'], '--session-idle-timeout', 'seconds');
  const drainSeconds = positiveNumber(values['drain-timeout'], '--drain-timeout', 'seconds');
  const keyFile =
    typeof values['session-key-file'] === 'string' ? resolve(io.cwd, values['session-key-file']) : undefined;
  const tokensFile =
    typeof values['tokens-file'] === 'string' ? resolve(io.cwd, values['tokens-file']) : undefined;
  if (tokensFile !== undefined && (values.token !== undefined || io.env.SWITCHBOARD_TOKEN)) {
    throw new UsageError(
      '--tokens-file and --token (or SWITCHBOARD_TOKEN) both set the tokens: give one of them.',
    );
  }

  let cluster: ClusterState | undefined;
  if (redisUrl !== undefined && redisUrl !== '') {
    const { createRedisClusterState } = await import('@switchboard/server/redis');
    // Without an explicit id, the host name: unique per pod or machine, stable across restarts.
    const id =
      replicaId ??
      (hostname()
        .replace(/[^A-Za-z0-9_-]/g, '-')
        .slice(0, 64) ||
        'replica');
    cluster = createRedisClusterState({
      url: redisUrl,
      replicaId: id,
      ...(typeof values['redis-prefix'] === 'string' ? { keyPrefix: values['redis-prefix'] } : {}),
      logger,
    });
  }
  const keys = keyFile !== undefined ? loadSessionKeys(keyFile) : undefined;
  const transport: Partial<HttpTransportOptions> = {
    ...(replicaId !== undefined ? { replicaId } : {}),
    ...(cluster !== undefined ? { cluster } : {}),
    // The keys seal 2025 session ids only where there are sessions; requestState always.
    ...(keys !== undefined && values.session === true ? { sessionKeys: keys } : {}),
    ...(tokensFile !== undefined
      ? { auth: { type: 'bearer' as const, tokens: loadTokensFile(tokensFile) } }
      : {}),
    ...(callsPerMinute !== undefined ? { rateLimit: { callsPerMinute } } : {}),
    ...(idleSeconds !== undefined ? { sessionIdleTimeoutMs: idleSeconds * 1000 } : {}),
    ...(drainSeconds !== undefined ? { drainTimeoutMs: drainSeconds * 1000 } : {}),
    // A replica sits behind a balancer that reuses connections: on SIGTERM it lets the balancer
    // close its idle ones (no request lost in that race) instead of closing them itself.
    ...(replicaId !== undefined || cluster !== undefined ? { drainWaitsForIdleClose: true } : {}),
    ...(readiness.length > 0 ? { readinessChecks: readiness } : {}),
  };
  return {
    transport,
    ...(keys !== undefined ? { requestState: { keys: keys.map(deriveRequestStateKey) } } : {}),
    ...(cluster?.location !== undefined ? { sharedStateLocation: cluster.location } : {}),
    ...(cluster !== undefined ? { cluster } : {}),
    close: async () => {
      await cluster?.close();
    },
  };
}
