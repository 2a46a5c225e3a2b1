/**
 * The HTTP transport's options, checked once at start and resolved into what the request path
 * reads: bad options fail `serve` with a `CONFIG_INVALID` error that says what to write instead,
 * and a non-loopback bind without auth is refused (or, when allowed, logged loudly).
 */
import type { Logger } from '@switchboard/core';
import { checkReplicaId } from '../cluster/replica-id.js';
import { ServerError, ServerErrorCode } from '../errors/server-error.js';
import { type BearerTokenDigest, tokenDigest, tokenPrincipal } from './check-bearer-token.js';
import { type HostPolicy, isLoopbackHost } from './check-host-and-origin.js';
import type { BearerAuthOptions, HttpTransportOptions, ReadinessCheck } from './http-transport-options.js';
import { createProtectedResource, type ProtectedResource } from './protected-resource.js';
import type { ServerCardOptions } from './server-card-options.js';

/** The options as the request path reads them: defaults applied, auth prepared. */
export interface HttpConfig {
  /** Path of the MCP endpoint. */
  readonly path: string;
  /** Interface to bind. */
  readonly host: string;
  readonly port: number;
  readonly maxBodyBytes: number;
  /** Answer POSTs with JSON, never SSE. */
  readonly json: boolean;
  readonly hostPolicy: HostPolicy;
  /** The static bearer tokens as digests; undefined without bearer auth. */
  readonly bearer: BearerTokenDigest[] | undefined;
  /** OAuth protection of the endpoints; undefined without OAuth. */
  readonly oauth: ProtectedResource | undefined;
  /** This replica's id, where one is configured (the option's, else the cluster's). */
  readonly replicaId: string | undefined;
  /** Calls of one tool one principal may make per minute; undefined without a rate limit. */
  readonly callsPerMinute: number | undefined;
  /** Whether `POST /v1/tool-execute` is served. */
  readonly restEndpoint: boolean;
  readonly readinessChecks: ReadonlyArray<ReadinessCheck>;
  readonly retryRelayTimeoutMs: number;
  readonly drainTimeoutMs: number;
  readonly drainWaitsForIdleClose: boolean;
  /** What the Server Card says beyond the server's own info; undefined when no card is published. */
  readonly serverCard: ServerCardOptions | undefined;
}

/** Checks `options` and resolves them; throws a `CONFIG_INVALID` `ServerError` for a bad one. */
export function resolveHttpOptions(options: HttpTransportOptions, logger: Logger): HttpConfig {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  checkAuth(options, host, logger);
  const replicaId = options.replicaId ?? options.cluster?.replicaId;
  if (replicaId !== undefined) checkReplicaId(replicaId, 'serve');
  const callsPerMinute = checkedRateLimit(options);
  if (options.sessionKeys !== undefined && !options.session) {
    throw new ServerError({
      code: ServerErrorCode.ConfigInvalid,
      message:
        'serve: sessionKeys seal 2025 session ids, so they need session: true (without sessions there are no ids to seal).',
    });
  }
  const oauth = options.auth?.type === 'oauth' ? createProtectedResource(options.auth, path) : undefined;
  return {
    path,
    host,
    port: options.port ?? 3000,
    maxBodyBytes: options.maxBodyBytes ?? 4 * 1024 * 1024,
    json: options.json ?? false,
    hostPolicy: {
      checkHost: isLoopbackHost(host) || (options.allowedHosts?.length ?? 0) > 0,
      allowedHosts: new Set((options.allowedHosts ?? []).map((name) => name.toLowerCase())),
      allowedOrigins: new Set((options.allowedOrigins ?? []).map((origin) => origin.toLowerCase())),
    },
    bearer: options.auth?.type === 'bearer' ? bearerDigests(options.auth) : undefined,
    oauth,
    replicaId,
    callsPerMinute,
    restEndpoint: options.restEndpoint === true,
    readinessChecks: options.readinessChecks ?? [],
    retryRelayTimeoutMs: options.retryRelayTimeoutMs ?? 5_000,
    drainTimeoutMs: options.drainTimeoutMs ?? 10_000,
    drainWaitsForIdleClose: options.drainWaitsForIdleClose === true,
    serverCard: options.serverCard === false ? undefined : (options.serverCard ?? {}),
  };
}

/** A well-formed `auth`, and no unauthenticated bind beyond loopback unless allowed (then a warning). */
function checkAuth(options: HttpTransportOptions, host: string, logger: Logger): void {
  const auth = options.auth;
  const bearerOk =
    auth?.type === 'bearer' &&
    (typeof auth.token === 'string' ? auth.token !== '' : auth.token === undefined) &&
    (auth.tokens === undefined ||
      (Array.isArray(auth.tokens) &&
        auth.tokens.every(
          (entry) =>
            typeof entry?.token === 'string' &&
            entry.token !== '' &&
            typeof entry.principal === 'string' &&
            entry.principal !== '',
        ))) &&
    (auth.token !== undefined || (auth.tokens?.length ?? 0) > 0);
  if (auth !== undefined && auth.type !== 'oauth' && !bearerOk) {
    throw new ServerError({
      code: ServerErrorCode.ConfigInvalid,
      message:
        'serve: auth must be { type: "bearer", token: "<non-empty token>" }, { type: "bearer", tokens: [{ token, principal }, ...] } (non-empty strings) or { type: "oauth", ... }.',
    });
  }
  if (isLoopbackHost(host) || auth !== undefined) return;
  if (!options.allowUnauthenticated) {
    throw new ServerError({
      code: ServerErrorCode.ConfigInvalid,
      message: `serve: refusing to bind ${host} (reachable from other machines) without auth. Set auth: { type: "bearer", token } or, if a proxy authenticates, allowUnauthenticated: true.`,
      context: { host },
    });
  }
  logger.warn(
    `!!! WARNING: serving MCP on ${host} WITHOUT AUTHENTICATION. Anyone who can reach this port can call every tool. !!!`,
  );
}

function checkedRateLimit(options: HttpTransportOptions): number | undefined {
  const limit = options.rateLimit;
  if (limit === undefined) return undefined;
  if (!Number.isSafeInteger(limit?.callsPerMinute) || limit.callsPerMinute < 1) {
    throw new ServerError({
      code: ServerErrorCode.ConfigInvalid,
      message: `serve: rateLimit.callsPerMinute must be a positive integer (got ${JSON.stringify(limit?.callsPerMinute)}).`,
    });
  }
  return limit.callsPerMinute;
}

/** The configured static tokens as digests, each with its principal. */
function bearerDigests(auth: BearerAuthOptions): BearerTokenDigest[] {
  const digests: BearerTokenDigest[] = [];
  if (auth.token !== undefined)
    digests.push({ digest: tokenDigest(auth.token), principal: tokenPrincipal(auth.token) });
  for (const entry of auth.tokens ?? [])
    digests.push({ digest: tokenDigest(entry.token), principal: entry.principal });
  return digests;
}
