/**
 * What a replica id may be: it goes into server→client request ids, Redis channel names and the
 * `x-switchboard-replica` header, so letters, digits, `_` and `-` only, at most 64 of them. One
 * pattern for every place that takes one (the HTTP transport, the Redis state, the cli's flag).
 */
import { ServerError, ServerErrorCode } from '../errors/server-error.js';

const replicaIdPattern = /^[A-Za-z0-9_-]{1,64}$/;

/** Whether `value` is a valid replica id (1–64 letters, digits, `_` or `-`). */
export function isReplicaId(value: unknown): value is string {
  return typeof value === 'string' && replicaIdPattern.test(value);
}

/** Throws a `CONFIG_INVALID` error naming `where` (e.g. `serve`) unless `value` is a valid replica id. */
export function checkReplicaId(value: unknown, where: string): asserts value is string {
  if (isReplicaId(value)) return;
  throw new ServerError({
    code: ServerErrorCode.ConfigInvalid,
    message: `${where}: replicaId must be 1-64 letters, digits, "_" or "-" (got ${JSON.stringify(String(value).slice(0, 80))}); use e.g. the pod name.`,
  });
}
