/** The static bearer-token check of `/mcp`, `/v1/tool-execute` and `/health`'s details. */
import { createHash, timingSafeEqual } from 'node:crypto';
import { JsonRpcErrorCode } from '../errors/json-rpc-error-code.js';
import { failure, type GuardResult } from './http-failure.js';

/** A configured token: its digest and the principal it names. */
export interface BearerTokenDigest {
  digest: Buffer;
  principal: string;
}

/** The SHA-256 digest of a token (compared instead of the token: fixed length, constant time). */
export function tokenDigest(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

/** The principal of the single-token form: a digest prefix, which names the token without revealing it. */
export function tokenPrincipal(token: string): string {
  return `token:${tokenDigest(token).toString('hex').slice(0, 16)}`;
}

/** The token of an `Authorization: Bearer …` header ('' when absent). */
export function bearerTokenOf(header: string | undefined): string {
  return header !== undefined && /^Bearer\s+/i.test(header) ? header.replace(/^Bearer\s+/i, '').trim() : '';
}

/** Checks the request's bearer token against the configured ones; names the matching principal. */
export function checkBearerToken(
  authorization: string | undefined,
  expected: readonly BearerTokenDigest[],
): GuardResult<{ principal: string }> {
  const given = bearerTokenOf(authorization);
  if (given !== '') {
    const digest = tokenDigest(given);
    let principal: string | undefined;
    // Every token is compared, matching or not: the time says nothing about which one (or whether) matched.
    for (const candidate of expected) {
      if (timingSafeEqual(digest, candidate.digest) && principal === undefined)
        principal = candidate.principal;
    }
    if (principal !== undefined) return { ok: true, principal };
  }
  return failure(401, JsonRpcErrorCode.Unauthorized, 'Unauthorized: send Authorization: Bearer <token>.', {
    headers: { 'www-authenticate': 'Bearer realm="mcp"' },
  });
}
