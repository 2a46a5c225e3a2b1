/**
 * What one HTTP request to an MCP server presents of its OAuth authorization, and what the answer
 * says back about it: the access token as `Bearer`, or DPoP-bound (RFC 9449) with a fresh proof
 * per request, and the server's DPoP nonces. The OAuth flow itself (discovery, registration,
 * sign-in, refresh) is `runAuthorization`; the transport decides when to run it.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { DpopSession, OAuthClientProvider } from '@modelcontextprotocol/client';

/** The request an access token is presented on. */
export interface AuthorizedRequest {
  /** HTTP method (DPoP `htm`). */
  method: string;
  /** Target URL (DPoP `htu`; query and fragment are left out of the proof). */
  url: URL;
}

/** The answer of the MCP server, as far as authorization cares. */
export interface AuthorizationAnswer {
  /** HTTP status. */
  status: number;
  /** Response headers (`www-authenticate`, `dpop-nonce`). */
  headers: IncomingHttpHeaders;
}

/** A `DPoP` scheme challenge in a `WWW-Authenticate` value (at its start or after a comma, RFC 9110 §11.6.1). */
const dpopChallenge = /(?:^|,)\s*dpop(?:\s|$|,)/i;

async function dpopSessionOf(provider: OAuthClientProvider): Promise<DpopSession | undefined> {
  return provider.dpop ? provider.dpop() : undefined;
}

/**
 * The headers that present the provider's access token on one request: `Authorization: Bearer`,
 * or — for a DPoP-bound token (`token_type: DPoP`, RFC 9449 §7.1) — `Authorization: DPoP` plus a
 * fresh proof bound to this method, URL and token (never reused: each has its own `jti`).
 * Empty when there is no token yet.
 */
export async function accessTokenHeaders(
  provider: OAuthClientProvider,
  request: AuthorizedRequest,
): Promise<Record<string, string>> {
  const tokens = await provider.tokens();
  if (tokens?.access_token === undefined) return {};
  const session = tokens.token_type?.toLowerCase() === 'dpop' ? await dpopSessionOf(provider) : undefined;
  if (!session) return { authorization: `Bearer ${tokens.access_token}` };
  const proof = await session.buildProof({
    htm: request.method,
    htu: request.url,
    accessToken: tokens.access_token,
  });
  return { authorization: `DPoP ${tokens.access_token}`, dpop: proof };
}

/**
 * Reads what an answer says about DPoP: a `DPoP-Nonce` on any answer is kept for the next proof
 * (RFC 9449 §8.2), and a `401` `use_dpop_nonce` challenge (§9) with a nonce says "send it again
 * with a proof carrying this nonce": true then, and the caller retries once.
 */
export async function dpopNonceRetry(
  provider: OAuthClientProvider,
  answer: AuthorizationAnswer,
  url: URL,
): Promise<boolean> {
  const header = answer.headers['dpop-nonce'];
  const nonce = Array.isArray(header) ? header[0] : header;
  if (nonce === undefined || nonce === '') return false;
  const session = await dpopSessionOf(provider);
  if (!session) return false;
  session.rememberNonce(url, nonce);
  if (answer.status !== 401) return false;
  const challenges = answer.headers['www-authenticate'] ?? '';
  return dpopChallenge.test(challenges) && /use_dpop_nonce/i.test(challenges);
}
