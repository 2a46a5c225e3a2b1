/**
 * The assertion of enterprise-managed authorization (SEP-990): the user's ID token exchanged at the
 * enterprise identity provider for an ID-JAG addressed to the MCP server's authorization server. It
 * is an assertion source like a workload token, so the JWT-bearer grant runs the same for both; the
 * exchange itself is the SDK's, this file configures it and checks the options first.
 */
import { discoverAndRequestJwtAuthGrant, requestJwtAuthorizationGrant } from '@modelcontextprotocol/client';
import { SwitchboardError } from '@switchboard/core';
import { type AssertionContext, readSecret, type SecretSource } from './assertion-source.js';
import { AuthorizationErrorCode } from './authorization-error-code.js';

/** The enterprise identity provider of enterprise-managed authorization (SEP-990). */
export interface IdentityProviderOptions {
  /** The IdP's issuer URL; its token endpoint is discovered (RFC 8414 / OpenID). One of `issuer`, `tokenEndpoint`. */
  issuer?: string;
  /** The IdP's token endpoint, when it is known (no discovery). */
  tokenEndpoint?: string;
  /** This client's id at the IdP. */
  clientId: string;
  /** This client's secret at the IdP, when it is a confidential client there. Never logged. */
  clientSecret?: string;
  /** The user's OpenID Connect ID token from the IdP (from a sign-in the host application did). Never logged. */
  idToken: SecretSource;
}

/**
 * The assertion of enterprise-managed authorization: exchanges the user's ID token at the
 * enterprise IdP for an ID-JAG (RFC 8693 token exchange, `requested_token_type` id-jag) whose
 * audience is the MCP server's authorization server and whose resource is the MCP server. The
 * SDK's `requestJwtAuthorizationGrant` does the exchange.
 */
export function createIdJagAssertion(
  identityProvider: IdentityProviderOptions,
): (context: AssertionContext) => Promise<string> {
  const { issuer, tokenEndpoint } = identityProvider;
  if ((issuer === undefined) === (tokenEndpoint === undefined)) {
    throw new SwitchboardError({
      code: AuthorizationErrorCode.AuthFailed,
      message:
        'Enterprise-managed authorization: give the identity provider exactly one of `issuer` (its token endpoint is discovered) or `tokenEndpoint`.',
    });
  }
  return async (context) => {
    const request = {
      audience: context.issuer,
      resource: context.resource ?? context.issuer,
      idToken: await readSecret(identityProvider.idToken),
      clientId: identityProvider.clientId,
      ...(identityProvider.clientSecret !== undefined ? { clientSecret: identityProvider.clientSecret } : {}),
      ...(context.scope !== undefined ? { scope: context.scope } : {}),
    };
    const result =
      tokenEndpoint !== undefined
        ? await requestJwtAuthorizationGrant({ ...request, tokenEndpoint })
        : await discoverAndRequestJwtAuthGrant({ ...request, idpUrl: issuer as string });
    return result.jwtAuthGrant;
  };
}
