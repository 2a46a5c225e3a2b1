/**
 * The RFC 7523 JWT-bearer grant of workload identity (SEP-1933) and enterprise-managed authorization
 * (SEP-990), run beside the SDK's `auth()` (which signs in, refreshes or uses client credentials):
 * discovery of the server's authorization server, its resource indicator, then one token request
 * whose assertion the provider supplies. Named steps on the SDK's discovery and token helpers, so
 * only the grant's own parameters are written here.
 */
import {
  type AuthorizationServerMetadata,
  discoverAuthorizationServerMetadata,
  discoverOAuthServerInfo,
  fetchToken,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type OAuthProtectedResourceMetadata,
  selectResourceURL,
} from '@modelcontextprotocol/client';
import { SwitchboardError } from '@switchboard/core';
import type { AssertionContext } from './assertion-source.js';
import { AuthorizationErrorCode } from './authorization-error-code.js';
import type { OAuthProvider } from './oauth-provider.js';

/** The RFC 7523 grant type of a JWT-bearer token request. */
export const jwtBearerGrantType = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** What {@link runJwtBearerGrant} needs about the request that wants a token. */
export interface JwtBearerGrantRequest {
  /** The MCP endpoint (the protected resource). */
  serverUrl: URL;
  /** Scopes to ask for (a challenge's, or a step-up's union). @default the resource metadata's `scopes_supported`, else the configured ones */
  scope?: string | undefined;
  /** `resource_metadata` of the server's challenge (RFC 9728). */
  resourceMetadataUrl?: URL | undefined;
}

interface Discovery {
  authorizationServerUrl: string;
  metadata: AuthorizationServerMetadata | undefined;
  resourceMetadata: OAuthProtectedResourceMetadata | undefined;
}

/** Step 1: the authorization server of the resource (cached discovery, else RFC 9728 + RFC 8414 with the issuer echo check). */
async function discover(provider: OAuthProvider, request: JwtBearerGrantRequest): Promise<Discovery> {
  const cached = await provider.discoveryState?.();
  if (cached?.authorizationServerUrl) {
    return {
      authorizationServerUrl: cached.authorizationServerUrl,
      metadata:
        cached.authorizationServerMetadata ??
        (await discoverAuthorizationServerMetadata(cached.authorizationServerUrl)),
      resourceMetadata: cached.resourceMetadata,
    };
  }
  const info = await discoverOAuthServerInfo(request.serverUrl, {
    ...(request.resourceMetadataUrl ? { resourceMetadataUrl: request.resourceMetadataUrl } : {}),
  });
  const state: OAuthDiscoveryState = {
    authorizationServerUrl: info.authorizationServerUrl,
    ...(request.resourceMetadataUrl ? { resourceMetadataUrl: String(request.resourceMetadataUrl) } : {}),
    ...(info.resourceMetadata ? { resourceMetadata: info.resourceMetadata } : {}),
    ...(info.authorizationServerMetadata
      ? { authorizationServerMetadata: info.authorizationServerMetadata }
      : {}),
  };
  await provider.saveDiscoveryState?.(state);
  return {
    authorizationServerUrl: info.authorizationServerUrl,
    metadata: info.authorizationServerMetadata,
    resourceMetadata: info.resourceMetadata,
  };
}

/** Step 2: the resource indicator (RFC 8707), checked against the server URL as the SDK's `auth()` does. */
async function selectResource(
  provider: OAuthProvider,
  request: JwtBearerGrantRequest,
  discovery: Discovery,
): Promise<string | undefined> {
  const selected = await selectResourceURL(request.serverUrl, provider, discovery.resourceMetadata);
  if (!selected) return undefined;
  // The metadata's own string: a parsed URL would add a trailing slash to a bare origin.
  return discovery.resourceMetadata?.resource ?? selected.href;
}

/** A provider for one token request whose grant parameters are the JWT-bearer grant with `assertion`. */
function jwtBearerRequester(provider: OAuthProvider, assertion: string): OAuthClientProvider {
  return {
    get redirectUrl() {
      return undefined;
    },
    get clientMetadata() {
      return provider.clientMetadata;
    },
    clientInformation: (ctx) => provider.clientInformation(ctx),
    tokens: () => undefined,
    saveTokens: () => undefined,
    redirectToAuthorization: () => undefined,
    saveCodeVerifier: () => undefined,
    codeVerifier: () => '',
    ...(provider.addClientAuthentication
      ? { addClientAuthentication: provider.addClientAuthentication }
      : {}),
    ...(provider.dpop ? { dpop: () => provider.dpop?.() } : {}),
    prepareTokenRequest(scope) {
      const params = new URLSearchParams({ grant_type: jwtBearerGrantType, assertion });
      if (scope) params.set('scope', scope);
      return params;
    },
  };
}

/**
 * Gets a token with an RFC 7523 JWT-bearer grant: the workload identity token (SEP-1933) or the
 * ID-JAG of enterprise-managed authorization (SEP-990) is the assertion. One token request: an
 * authorization server that refuses the assertion (`invalid_grant`, `invalid_scope`,
 * `unauthorized_client`) gets no second try and no other grant type; the refusal is the error.
 */
export async function runJwtBearerGrant(
  provider: OAuthProvider,
  request: JwtBearerGrantRequest,
): Promise<void> {
  const discovery = await discover(provider, request);
  const issuer = discovery.metadata?.issuer ?? discovery.authorizationServerUrl;
  const resource = await selectResource(provider, request, discovery);
  const scope =
    request.scope || discovery.resourceMetadata?.scopes_supported?.join(' ') || provider.clientMetadata.scope;
  const context: AssertionContext = {
    issuer,
    ...(resource !== undefined ? { resource } : {}),
    ...(scope ? { scope } : {}),
  };
  const assertion = await provider.assertion(context);
  if (!assertion) {
    throw new SwitchboardError({
      code: AuthorizationErrorCode.AuthFailed,
      message: `MCP server "${provider.serverName}": the ${provider.grantType} grant has no assertion to send. Configure auth.assertion (or auth.assertionFile) for workload identity, or auth.identityProvider for enterprise-managed authorization.`,
      context: { server: provider.serverName },
    });
  }
  const tokens = await fetchToken(jwtBearerRequester(provider, assertion), discovery.authorizationServerUrl, {
    ...(discovery.metadata ? { metadata: discovery.metadata } : {}),
    ...(resource !== undefined ? { resource: new URL(resource) } : {}),
    ...(scope ? { scope } : {}),
  });
  await provider.saveTokens({ ...tokens, issuer }, { issuer });
}
