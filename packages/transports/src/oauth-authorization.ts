import { auth, type OAuthClientProvider } from '@modelcontextprotocol/client';
import { SwitchboardError } from '@switchboard/core';
import { needsAuthError, type OAuthProvider } from './oauth-provider.js';

/** The parameters of a `WWW-Authenticate: Bearer …` challenge. */
export interface BearerChallenge {
  /** `error`, e.g. `invalid_token` or `insufficient_scope`. */
  error?: string;
  /** `scope`: the scopes the resource wants. */
  scope?: string;
  /** `resource_metadata`: where the protected-resource metadata (RFC 9728) is. */
  resourceMetadata?: string;
  /** `error_description`. */
  errorDescription?: string;
}

/** Parses the Bearer challenge of a `WWW-Authenticate` header value (RFC 6750 §3, RFC 9728 §5.1). */
export function parseBearerChallenge(header: string | string[] | undefined): BearerChallenge | undefined {
  const value = Array.isArray(header) ? header.join(', ') : header;
  if (!value) return undefined;
  const start = /(?:^|,\s*)Bearer(?:\s+|$)/i.exec(value);
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

/**
 * Runs the MCP authorization flow with the SDK's `auth()`: discovery, registration, refresh,
 * authorization code + PKCE (through the provider's loopback redirect) or client credentials.
 * Resolves once the provider holds a fresh token; rejects with `NEEDS_AUTH` when a person must
 * sign in and cannot, or `AUTH_FAILED`.
 */
export async function runAuthorization(
  provider: OAuthClientProvider,
  request: AuthorizationRequest,
): Promise<void> {
  const { serverUrl, serverName, challenge } = request;
  const resourceMetadataUrl = challenge?.resourceMetadata ? safeUrl(challenge.resourceMetadata) : undefined;
  let scope = challenge?.scope;
  if (request.stepUp) {
    // Keep what was granted and add what the challenge asks for; a refresh would return the old scopes.
    scope = unionScopes((await provider.tokens())?.scope, challenge?.scope);
    await provider.invalidateCredentials?.('tokens');
  }
  const switchboard = isSwitchboardProvider(provider) ? provider : undefined;
  if (switchboard && (await switchboard.needsUser())) throw needsAuthError(serverName, String(serverUrl));
  const options = {
    serverUrl,
    ...(scope ? { scope } : {}),
    ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}),
  };
  switchboard?.requestScope(scope);
  try {
    await switchboard?.prepareAuthorization();
    const result = await auth(provider, options);
    if (result === 'REDIRECT') {
      if (!switchboard) throw needsAuthError(serverName, String(serverUrl));
      const authorizationCode = await switchboard.waitForAuthorizationCode();
      await auth(provider, { ...options, authorizationCode });
    }
  } catch (error) {
    if (SwitchboardError.isInstance(error)) throw error;
    throw new SwitchboardError({
      code: 'AUTH_FAILED',
      message: `MCP server "${serverName}": authorization failed: ${describe(error)}. Check the server's auth settings, or sign in again with \`switchboard auth ${serverName}\`.`,
      context: { server: serverName },
      cause: error,
    });
  } finally {
    await switchboard?.endAuthorization();
  }
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
  return message.replace(
    /(access_token|refresh_token|client_secret|code_verifier|code)=[^&\s"]+/gi,
    '$1=[redacted]',
  );
}
