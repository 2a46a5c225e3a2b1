/** `${VAR}` expansion of the credentials of a server entry's `auth` block. */
import type { JsonPathSegment } from './jsonc-document.js';
import {
  authStringKeys,
  identityProviderStringKeys,
  type ServerAuthConfig,
  type ServerAuthIdentityProviderConfig,
} from './server-auth-config.js';

/** Expands `${VAR}` in the credentials of an `auth` block. */
export function expandServerAuth(
  auth: ServerAuthConfig,
  expand: (text: string, ...segments: JsonPathSegment[]) => string,
): ServerAuthConfig {
  const out: ServerAuthConfig = { ...auth };
  for (const key of authStringKeys) {
    const value = auth[key];
    if (value !== undefined) out[key] = expand(value, 'auth', key);
  }
  if (auth.identityProvider) {
    const identityProvider: ServerAuthIdentityProviderConfig = { ...auth.identityProvider };
    for (const key of identityProviderStringKeys) {
      const value = auth.identityProvider[key];
      if (value !== undefined) identityProvider[key] = expand(value, 'auth', 'identityProvider', key);
    }
    out.identityProvider = identityProvider;
  }
  return out;
}
