/**
 * The principal of a request: who a sealed session is bound to and whose calls a rate limit
 * counts. The verified token's subject (or client id) for OAuth, the name given to a static token,
 * a SHA-256 prefix of a single static token (never the token), `anonymous` without auth.
 */
import { principalNamedBy, type RequestAuth } from '../request/request-auth.js';

/** The principal of requests without authentication. */
export const anonymousPrincipal = 'anonymous';

/** The principal `auth` names. */
export function principalOf(auth: RequestAuth | undefined): string {
  return principalNamedBy(auth) ?? anonymousPrincipal;
}
