/** The static bearer-token check of `/mcp`, `/v1/tool-execute` and `/health`'s details. */
import { createHash, timingSafeEqual } from 'node:crypto';
import { JsonRpcErrorCode } from '../errors/json-rpc-error-code.js';
import { failure, type GuardResult } from './http-failure.js';

/** The SHA-256 digest of a token (compared instead of the token: fixed length, constant time). */
export function tokenDigest(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

/** The token of an `Authorization: Bearer …` header ('' when absent). */
export function bearerTokenOf(header: string | undefined): string {
  return header !== undefined && /^Bearer\s+/i.test(header) ? header.replace(/^Bearer\s+/i, '').trim() : '';
}

/** Checks the request's bearer token against `expected` (a digest of the configured token). */
export function checkBearerToken(authorization: string | undefined, expected: Buffer): GuardResult {
  const given = bearerTokenOf(authorization);
  // Comparing fixed-length digests keeps the time independent of the token and of its length.
  if (given !== '' && timingSafeEqual(tokenDigest(given), expected)) return { ok: true };
  return failure(401, JsonRpcErrorCode.Unauthorized, 'Unauthorized: send Authorization: Bearer <token>.', {
    headers: { 'www-authenticate': 'Bearer realm="mcp"' },
  });
}
