/**
 * What HTTP auth learned about a request's caller. Its own file because rate limits and sealed
 * sessions (`cluster/principal.ts`) read it without needing the rest of a request.
 */

/** Facts about an authenticated caller (HTTP auth). */
export interface RequestAuth {
  /** Scopes of the verified token (OAuth), empty for a static bearer token. */
  scopes: readonly string[];
  subject?: string;
  clientId?: string;
  /** Who sessions and rate limits are bound to, when the transport named it (static bearer tokens). */
  principal?: string;
}

/** Who `auth` names: the token's principal, subject or client id; `undefined` without one. */
export function principalNamedBy(auth: RequestAuth | undefined): string | undefined {
  return auth?.principal ?? auth?.subject ?? auth?.clientId;
}
