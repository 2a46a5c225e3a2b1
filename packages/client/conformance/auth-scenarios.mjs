// The `auth/*` scenarios of the conformance client: each gets the OAuth provider that the `auth`
// block a user would write for that case produces (createServerAuthProvider, the config path),
// with a memory token store. The suite's context (MCP_CONFORMANCE_CONTEXT) supplies what a user's
// config would hold: pre-registered client credentials, a private key, a workload identity token,
// the enterprise IdP and the user's ID token. `openUrl` plays the person at the browser by
// following the authorization server's redirect to our loopback server programmatically.
import { createMemoryTokenStore } from '@switchboard/transports';
import { createServerAuthProvider } from '../dist/index.js';

/** The client-id metadata document URL the suite's authorization servers accept (SEP-991). */
const clientMetadataUrl = 'https://conformance-test.local/client-metadata.json';

/** Follows the authorization server's redirect to the loopback redirect URI, as a browser would. */
async function followRedirect(authorizationUrl) {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  const location = response.headers.get('location');
  if (!location) throw new Error(`the authorization endpoint answered ${response.status} without a redirect`);
  await (await fetch(new URL(location, authorizationUrl))).text();
}

/** The `auth` block of a server entry for `scenario`, as a user would configure that case. */
export function authConfigFor(scenario, context) {
  switch (scenario) {
    case 'auth/client-credentials-jwt':
      return {
        grantType: 'client_credentials',
        clientId: context.client_id,
        privateKey: context.private_key_pem,
        signingAlgorithm: context.signing_algorithm ?? 'ES256',
      };
    case 'auth/client-credentials-basic':
      return {
        grantType: 'client_credentials',
        clientId: context.client_id,
        clientSecret: context.client_secret,
      };
    case 'auth/wif-jwt-bearer':
      return { grantType: 'workload_identity', clientId: context.client_id, assertion: context.valid_jwt };
    case 'auth/enterprise-managed-authorization':
      return {
        grantType: 'enterprise_managed',
        clientId: context.client_id,
        clientSecret: context.client_secret,
        identityProvider: {
          tokenEndpoint: context.idp_token_endpoint,
          clientId: context.idp_client_id,
          idToken: context.idp_id_token,
        },
      };
    case 'auth/dpop':
    case 'auth/dpop-nonce':
      return { clientMetadataUrl, dpop: true };
    default:
      return {
        clientMetadataUrl,
        ...(context.client_id ? { clientId: context.client_id } : {}),
        ...(context.client_secret ? { clientSecret: context.client_secret } : {}),
      };
  }
}

/** The OAuth provider of an `auth/*` scenario's server, or undefined for the other scenarios. */
export function authProviderFor(scenario, url, context) {
  if (!scenario.startsWith('auth/')) return undefined;
  return createServerAuthProvider(
    'conformance',
    { url, auth: authConfigFor(scenario, context) },
    { store: createMemoryTokenStore(), openUrl: followRedirect },
  );
}
