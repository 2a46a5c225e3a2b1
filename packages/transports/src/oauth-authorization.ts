/**
 * The MCP authorization flow, run when a server answers 401 or 403: the challenge parsed, what to ask
 * for planned (a step-up keeps the granted scopes, a 401 reads the resource metadata again), then the
 * SDK's `auth()` or the JWT-bearer grant, and every failure turned into one error type whose text
 * never quotes a value a mixed-up authorization server could have chosen.
 */
import {
  type AuthOptions,
  AuthorizationServerMismatchError,
  auth,
  InsecureTokenEndpointError,
  IssuerMismatchError,
  type OAuthClientProvider,
  OAuthError,
  validateAuthorizationResponseIssuer,
} from '@modelcontextprotocol/client';
import { SwitchboardError } from '@switchboard/core';
import { AuthorizationErrorCode } from './authorization-error-code.js';
import { runJwtBearerGrant } from './jwt-bearer-grant.js';
import type { AuthorizationResponse } from './loopback-redirect.js';
import { needsAuthError, type OAuthProvider } from './oauth-provider.js';

/** The parameters of a `WWW-Authenticate: Bearer …` (or `DPoP …`, RFC 9449 §7.1) challenge. */
export interface BearerChallenge {
  /** The challenge's scheme as sent, when it is `DPoP` (a DPoP-protected resource); absent for `Bearer`. */
  scheme?: 'DPoP';
  /** `error`, e.g. `invalid_token`, `insufficient_scope` or `use_dpop_nonce`. */
  error?: string;
  /** `scope`: the scopes the resource wants. */
  scope?: string;
  /** `resource_metadata`: where the protected-resource metadata (RFC 9728) is. */
  resourceMetadata?: string;
  /** `error_description`. */
  errorDescription?: string;
}

/**
 * Parses the Bearer (or DPoP) challenge of a `WWW-Authenticate` header value (RFC 6750 §3,
 * RFC 9449 §7.1, RFC 9728 §5.1). A Bearer challenge wins when the server sends both.
 */
export function parseBearerChallenge(header: string | string[] | undefined): BearerChallenge | undefined {
  const value = Array.isArray(header) ? header.join(', ') : header;
  if (!value) return undefined;
  const start =
    /(?:^|,\s*)(Bearer)(?:\s+|$)/i.exec(value) ?? /(?:^|,\s*)(DPoP)(?:\s+|$)/i.exec(value) ?? undefined;
  if (!start) return undefined;
  const rest = value.slice(start.index + start[0].length);
  const parameters: Record<string, string> = {};
  const pattern = /\s*([A-Za-z0-9_-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]*))\s*,?/y;
  let match: RegExpExecArray | null = pattern.exec(rest);
  while (match !== null) {
    const [, key, quoted, bare] = match;
    if (key)
      parameters[key.toLowerCase()] = quoted !== undefined ? quoted.replace(/\\(.)/g, '$1') : (bare ?? '');
    if (pattern.lastIndex >= rest.length) break;
    match = pattern.exec(rest);
  }
  return {
    ...(start[1]?.toLowerCase() === 'dpop' ? { scheme: 'DPoP' as const } : {}),
    ...(parameters.error !== undefined ? { error: parameters.error } : {}),
    ...(parameters.scope !== undefined ? { scope: parameters.scope } : {}),
    ...(parameters.resource_metadata !== undefined ? { resourceMetadata: parameters.resource_metadata } : {}),
    ...(parameters.error_description !== undefined ? { errorDescription: parameters.error_description } : {}),
  };
}

/** What {@link runAuthorization} needs about the failed request. */
export interface AuthorizationRequest {
  /** The MCP endpoint. */
  serverUrl: URL;
  /** Server name for messages. */
  serverName: string;
  /** The challenge of the 401/403 answer, if any. */
  challenge?: BearerChallenge | undefined;
  /** A 403 `insufficient_scope`: get a token with more scopes, not the same one again. */
  stepUp?: boolean;
}

function isSwitchboardProvider(provider: OAuthClientProvider): provider is OAuthProvider {
  return typeof (provider as Partial<OAuthProvider>).prepareAuthorization === 'function';
}

function unionScopes(...lists: (string | undefined)[]): string | undefined {
  const scopes = new Set<string>();
  for (const list of lists) for (const scope of list?.split(/\s+/) ?? []) if (scope) scopes.add(scope);
  return scopes.size > 0 ? [...scopes].join(' ') : undefined;
}

/** The flow's inputs, decided before anything is sent. */
interface AuthorizationPlan {
  serverUrl: URL;
  scope: string | undefined;
  resourceMetadataUrl: URL | undefined;
}

/**
 * Step 1: what to ask for. A step-up keeps what was granted and adds what the challenge asks for
 * (a refresh would return the old scopes). A 401 means the server may have moved to another
 * authorization server (SEP-2352): its resource metadata is read again instead of the cached
 * discovery, so the credentials of the old one are not reused (a few GETs, only on a 401).
 */
async function planAuthorization(
  provider: OAuthClientProvider,
  request: AuthorizationRequest,
): Promise<AuthorizationPlan> {
  const { challenge } = request;
  let scope = challenge?.scope;
  if (request.stepUp) {
    scope = unionScopes((await provider.tokens())?.scope, challenge?.scope);
    await provider.invalidateCredentials?.('tokens');
  } else if (challenge !== undefined) {
    await provider.invalidateCredentials?.('discovery');
  }
  return {
    serverUrl: request.serverUrl,
    scope,
    resourceMetadataUrl: challenge?.resourceMetadata ? safeUrl(challenge.resourceMetadata) : undefined,
  };
}

function authOptions(plan: AuthorizationPlan): AuthOptions {
  return {
    serverUrl: plan.serverUrl,
    ...(plan.scope ? { scope: plan.scope } : {}),
    ...(plan.resourceMetadataUrl ? { resourceMetadataUrl: plan.resourceMetadataUrl } : {}),
  };
}

/**
 * Step 2b of a refused sign-in: RFC 9207 applies to error responses too. The refusal's text is
 * shown only once its `iss` checks out: from a mixed-up server it would be an attacker's words.
 */
async function refusedSignIn(
  provider: OAuthProvider,
  response: Extract<AuthorizationResponse, { error: string }>,
): Promise<SwitchboardError> {
  const metadata = (await provider.discoveryState?.())?.authorizationServerMetadata;
  validateAuthorizationResponseIssuer({
    iss: response.iss,
    expectedIssuer: metadata?.issuer,
    issParameterSupported: metadata?.authorization_response_iss_parameter_supported === true,
  });
  const detail = response.errorDescription
    ? `${response.error}: ${JSON.stringify(response.errorDescription.slice(0, 200))}`
    : response.error;
  return new SwitchboardError({
    code: AuthorizationErrorCode.AuthFailed,
    message: `MCP server "${provider.serverName}": the authorization server refused the sign-in (${detail}). Sign in again, or check the account and scopes with the server's operator.`,
    context: { server: provider.serverName, error: response.error },
  });
}

/**
 * Step 2: the SDK's `auth()` — discovery (with the RFC 8414 issuer echo check), registration
 * (keyed by issuer, `application_type`), refresh, client credentials, or authorization code + PKCE
 * through the loopback redirect, whose `iss` (RFC 9207) the SDK checks before redeeming the code.
 */
async function runAuthorizationCodeOrClientCredentials(
  provider: OAuthClientProvider,
  switchboard: OAuthProvider | undefined,
  plan: AuthorizationPlan,
  serverName: string,
): Promise<void> {
  await switchboard?.prepareAuthorization();
  const options = authOptions(plan);
  const result = await auth(provider, options);
  if (result !== 'REDIRECT') return;
  if (!switchboard) throw needsAuthError(serverName, String(plan.serverUrl));
  const response = await switchboard.waitForAuthorizationResponse();
  if ('error' in response) throw await refusedSignIn(switchboard, response);
  await auth(provider, {
    ...options,
    authorizationCode: response.code,
    ...(response.iss !== undefined ? { iss: response.iss } : {}),
  });
}

/**
 * Runs the MCP authorization flow: discovery, registration, refresh, authorization code + PKCE
 * (through the provider's loopback redirect), client credentials, or the JWT-bearer grant of
 * workload identity and enterprise-managed authorization. Resolves once the provider holds a
 * fresh token; rejects with `NEEDS_AUTH` when a person must sign in and cannot, or another
 * {@link AuthorizationErrorCode}.
 */
export async function runAuthorization(
  provider: OAuthClientProvider,
  request: AuthorizationRequest,
): Promise<void> {
  const { serverUrl, serverName } = request;
  const switchboard = isSwitchboardProvider(provider) ? provider : undefined;
  try {
    const plan = await planAuthorization(provider, request);
    if (switchboard && (await switchboard.needsUser())) throw needsAuthError(serverName, String(serverUrl));
    switchboard?.requestScope(plan.scope);
    if (switchboard?.grantType === 'workload_identity' || switchboard?.grantType === 'enterprise_managed') {
      await runJwtBearerGrant(switchboard, plan);
    } else {
      await runAuthorizationCodeOrClientCredentials(provider, switchboard, plan, serverName);
    }
  } catch (error) {
    throw authorizationError(serverName, error);
  } finally {
    await switchboard?.endAuthorization();
  }
}

/**
 * The error a user sees for a failed authorization: a code of {@link AuthorizationErrorCode}, what
 * happened and what to do. Values an attacker could choose (a mixed-up `iss`) are never quoted.
 */
export function authorizationError(serverName: string, error: unknown): SwitchboardError {
  if (SwitchboardError.isInstance(error)) return error;
  const context = { server: serverName };
  if (IssuerMismatchError.isInstance(error)) {
    return new SwitchboardError({
      code: AuthorizationErrorCode.IssuerMismatch,
      message:
        error.kind === 'metadata'
          ? `MCP server "${serverName}": the authorization server metadata fetched for ${JSON.stringify(error.expected)} names another issuer (RFC 8414 §3.3), so none of its endpoints were used. The server's authorization_servers or the authorization server's configuration is wrong: tell the server's operator.`
          : error.received === undefined
            ? `MCP server "${serverName}": the sign-in redirect carried no \`iss\` although the authorization server ${JSON.stringify(error.expected)} says it sends one (RFC 9207): possible mix-up attack, the authorization code was not redeemed. Sign in again.`
            : `MCP server "${serverName}": the sign-in redirect's \`iss\` is not the authorization server's issuer ${JSON.stringify(error.expected)} (RFC 9207): possible mix-up attack, the authorization code was not redeemed. Sign in again.`,
      context: { ...context, check: error.kind, expectedIssuer: error.expected },
      // The SDK's error holds the received `iss`: in a mix-up an attacker's value, so it stays out.
      ...(error.kind === 'metadata' ? { cause: error } : {}),
    });
  }
  if (AuthorizationServerMismatchError.isInstance(error)) {
    return new SwitchboardError({
      code: AuthorizationErrorCode.AuthorizationServerChanged,
      message: `MCP server "${serverName}": the authorization server changed during the sign-in (it was ${JSON.stringify(error.recordedIssuer)}, now ${JSON.stringify(error.currentIssuer)}), so the authorization code was not sent to the new one (SEP-2352). Sign in again with \`switchboard auth ${serverName}\`.`,
      context,
      cause: error,
    });
  }
  if (InsecureTokenEndpointError.isInstance(error)) {
    return new SwitchboardError({
      code: AuthorizationErrorCode.AuthFailed,
      message: `MCP server "${serverName}": the authorization server's token endpoint is not HTTPS, so no credentials were sent to it. Tell the server's operator.`,
      context,
      cause: error,
    });
  }
  const detail = OAuthError.isInstance(error)
    ? `${error.code}${error.message && error.message !== error.code ? `: ${describe(error)}` : ''}`
    : describe(error);
  return new SwitchboardError({
    code: AuthorizationErrorCode.AuthFailed,
    message: `MCP server "${serverName}": authorization failed: ${detail}. Check the server's auth settings, or sign in again with \`switchboard auth ${serverName}\`.`,
    context,
    cause: error,
  });
}

function safeUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/** The message of an SDK/OAuth error, without anything that looks like a credential. */
function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message
    .replace(
      /(access_token|refresh_token|id_token|client_secret|client_assertion|assertion|subject_token|code_verifier|code)=[^&\s"]+/gi,
      '$1=[redacted]',
    )
    .replace(/eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g, '[redacted JWT]');
}
