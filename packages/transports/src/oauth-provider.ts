import { randomBytes } from 'node:crypto';
import {
  type AddClientAuthentication,
  createPrivateKeyJwtAuth,
  type OAuthClientInformationMixed,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type OAuthTokens,
} from '@modelcontextprotocol/client';
import { SwitchboardError } from '@switchboard/core';
import { type LoopbackRedirect, startLoopbackRedirect } from './loopback-redirect.js';
import { createFileTokenStore, type StoredAuthorization, type TokenStore } from './token-store.js';

/** OAuth grants Switchboard can run. */
export type OAuthGrantType = 'authorization_code' | 'client_credentials';

/** Options of {@link createOAuthProvider}. */
export interface OAuthProviderOptions {
  /** The MCP server's URL (the protected resource); the key of its record in the store. */
  serverUrl: string | URL;
  /** Server name, for messages and `switchboard auth --list`. @default the URL's host */
  serverName?: string;
  /** Where tokens and registrations are kept. @default createFileTokenStore() (`~/.switchboard/auth`) */
  store?: TokenStore;
  /** `authorization_code` (a person signs in through the browser) or `client_credentials` (headless). @default 'authorization_code' */
  grantType?: OAuthGrantType;
  /** A pre-registered client id. Without one the client uses `clientMetadataUrl` or registers dynamically. */
  clientId?: string;
  /** The pre-registered client's secret. Never logged. */
  clientSecret?: string;
  /** An HTTPS URL of a client-id metadata document, used as client id where the server supports it. */
  clientMetadataUrl?: string;
  /** PEM (PKCS#8) private key for `private_key_jwt` client authentication. Never logged. */
  privateKey?: string;
  /** Algorithm of `privateKey`. @default 'RS256' */
  signingAlgorithm?: string;
  /** Scopes to ask for when neither the server's challenge nor its metadata names any. */
  scopes?: string[];
  /** Client name sent with dynamic registration. @default 'Switchboard' */
  clientName?: string;
  /**
   * Opens the authorization URL for the person at the terminal (a browser). Without it the
   * provider is non-interactive: a server needing a sign-in fails with `NEEDS_AUTH`.
   */
  openUrl?: (url: URL) => void | Promise<void>;
  /** Port of the loopback redirect on 127.0.0.1. @default the port registered before, else a free one */
  redirectPort?: number;
  /** How long a sign-in may take. @default 300000 */
  authorizationTimeoutMs?: number;
}

/** An SDK `OAuthClientProvider` backed by a {@link TokenStore}, with the loopback sign-in of a terminal app. */
export interface OAuthProvider extends OAuthClientProvider {
  /** The MCP server's URL. */
  readonly serverUrl: string;
  /** Server name used in messages. */
  readonly serverName: string;
  /** The grant this provider runs. */
  readonly grantType: OAuthGrantType;
  /** True when a person can sign in (an `openUrl` was given). */
  readonly interactive: boolean;
  /** True when getting a token needs a person (no refresh token, authorization-code grant, non-interactive). */
  needsUser(): Promise<boolean>;
  /** True when the stored access token is past (or within 30 s of) its expiry. */
  accessTokenExpired(): Promise<boolean>;
  /** Starts the loopback redirect (so `redirectUrl` is known) before a sign-in. */
  prepareAuthorization(): Promise<void>;
  /** Resolves with the authorization code the loopback redirect received. */
  waitForAuthorizationCode(): Promise<string>;
  /** Stops the loopback redirect. */
  endAuthorization(): Promise<void>;
  /** Forgets tokens, registration and discovery of this server. */
  signOut(): Promise<boolean>;
  /** The scopes the next token request asks for (the challenge's, or a step-up's union); the SDK passes only the configured ones to non-interactive grants. */
  requestScope(scope: string | undefined): void;
}

const placeholderRedirect = 'http://127.0.0.1/callback';

/** Creates an OAuth provider for one MCP server (authorization code + PKCE via loopback, or client credentials). */
export function createOAuthProvider(options: OAuthProviderOptions): OAuthProvider {
  const serverUrl = String(options.serverUrl);
  const serverName = options.serverName ?? new URL(serverUrl).host;
  const store = options.store ?? createFileTokenStore();
  const grantType = options.grantType ?? 'authorization_code';
  const interactive = options.openUrl !== undefined && grantType === 'authorization_code';
  let record: StoredAuthorization | undefined;
  let loaded: Promise<StoredAuthorization> | undefined;
  let loopback: LoopbackRedirect | undefined;
  let pendingState: string | undefined;
  let requestedScope: string | undefined;

  const load = (): Promise<StoredAuthorization> => {
    loaded ??= store.load(serverUrl).then((stored) => {
      record = stored ?? { version: 1, serverUrl, serverName, updatedAt: Date.now() };
      return record;
    });
    return loaded;
  };
  const update = async (change: (current: StoredAuthorization) => void) => {
    const current = await load();
    change(current);
    current.serverName = serverName;
    current.updatedAt = Date.now();
    await store.save(current);
  };

  const configuredClient = (): OAuthClientInformationMixed | undefined => {
    if (options.clientId === undefined) return undefined;
    return {
      client_id: options.clientId,
      ...(options.clientSecret !== undefined ? { client_secret: options.clientSecret } : {}),
    };
  };

  const registeredRedirectPort = (): number | undefined => {
    const uris = (record?.clientInformation as { redirect_uris?: string[] } | undefined)?.redirect_uris;
    const first = uris?.[0];
    if (first === undefined) return undefined;
    try {
      const url = new URL(first);
      return url.hostname === '127.0.0.1' && url.port !== '' ? Number(url.port) : undefined;
    } catch {
      return undefined;
    }
  };

  const addClientAuthentication: AddClientAuthentication | undefined =
    options.privateKey !== undefined
      ? createPrivateKeyJwtAuth({
          issuer: options.clientId ?? '',
          subject: options.clientId ?? '',
          privateKey: options.privateKey,
          alg: options.signingAlgorithm ?? 'RS256',
        })
      : undefined;

  const provider: OAuthProvider = {
    serverUrl,
    serverName,
    grantType,
    interactive,
    ...(options.clientMetadataUrl !== undefined ? { clientMetadataUrl: options.clientMetadataUrl } : {}),
    ...(addClientAuthentication ? { addClientAuthentication } : {}),

    get redirectUrl() {
      if (grantType === 'client_credentials') return undefined;
      return loopback?.redirectUrl ?? placeholderRedirect;
    },

    get clientMetadata(): OAuthClientMetadata {
      const scope = options.scopes?.join(' ');
      const secret = options.clientSecret !== undefined || options.privateKey !== undefined;
      return {
        client_name: options.clientName ?? 'Switchboard',
        redirect_uris:
          grantType === 'client_credentials' ? [] : [loopback?.redirectUrl ?? placeholderRedirect],
        grant_types:
          grantType === 'client_credentials'
            ? ['client_credentials']
            : ['authorization_code', 'refresh_token'],
        response_types: grantType === 'client_credentials' ? [] : ['code'],
        token_endpoint_auth_method:
          options.privateKey !== undefined ? 'private_key_jwt' : secret ? 'client_secret_basic' : 'none',
        ...(scope ? { scope } : {}),
      };
    },

    state() {
      pendingState = randomBytes(16).toString('base64url');
      return pendingState;
    },

    async clientInformation() {
      return configuredClient() ?? (await load()).clientInformation;
    },

    async saveClientInformation(information) {
      // A configured client id wins over anything stored; keep the stamp only for a dynamic one.
      if (options.clientId !== undefined) return;
      await update((current) => {
        current.clientInformation = information;
      });
    },

    async tokens() {
      return (await load()).tokens;
    },

    async saveTokens(tokens: OAuthTokens) {
      await update((current) => {
        // A refresh that returns no new refresh token keeps the old one usable.
        const refresh = tokens.refresh_token ?? current.tokens?.refresh_token;
        current.tokens = { ...tokens, ...(refresh !== undefined ? { refresh_token: refresh } : {}) };
        if (tokens.expires_in !== undefined) current.expiresAt = Date.now() + tokens.expires_in * 1000;
        else delete current.expiresAt;
        delete current.codeVerifier;
      });
    },

    async redirectToAuthorization(authorizationUrl: URL) {
      if (!interactive || !loopback) {
        throw needsAuthError(serverName, serverUrl);
      }
      await options.openUrl?.(authorizationUrl);
    },

    async saveCodeVerifier(codeVerifier: string) {
      await update((current) => {
        current.codeVerifier = codeVerifier;
      });
    },

    async codeVerifier() {
      const verifier = (await load()).codeVerifier;
      if (verifier === undefined) {
        throw new SwitchboardError({
          code: 'AUTH_FAILED',
          message: `MCP server "${serverName}": no sign-in is in progress (no PKCE code verifier stored). Start the sign-in again.`,
          context: { server: serverName },
        });
      }
      return verifier;
    },

    prepareTokenRequest(scope?: string) {
      if (grantType !== 'client_credentials') return undefined;
      const params = new URLSearchParams({ grant_type: 'client_credentials' });
      const wanted = requestedScope ?? scope;
      if (wanted) params.set('scope', wanted);
      return params;
    },

    async invalidateCredentials(scope) {
      await update((current) => {
        if (scope === 'all' || scope === 'tokens') {
          delete current.tokens;
          delete current.expiresAt;
        }
        if (scope === 'all' || scope === 'client') delete current.clientInformation;
        if (scope === 'all' || scope === 'verifier') delete current.codeVerifier;
        if (scope === 'all' || scope === 'discovery') delete current.discovery;
      });
    },

    async saveDiscoveryState(state: OAuthDiscoveryState) {
      await update((current) => {
        current.discovery = state;
      });
    },

    async discoveryState() {
      return (await load()).discovery;
    },

    async needsUser() {
      if (grantType === 'client_credentials' || interactive) return false;
      return (await load()).tokens?.refresh_token === undefined;
    },

    async accessTokenExpired() {
      const current = await load();
      return (
        current.tokens !== undefined &&
        current.expiresAt !== undefined &&
        current.expiresAt - 30_000 <= Date.now()
      );
    },

    async prepareAuthorization() {
      if (!interactive || loopback) return;
      await load();
      const remembered = options.redirectPort ?? registeredRedirectPort();
      try {
        loopback = await startLoopbackRedirect({
          ...(remembered !== undefined ? { port: remembered } : {}),
          ...(options.authorizationTimeoutMs !== undefined
            ? { timeoutMs: options.authorizationTimeoutMs }
            : {}),
        });
      } catch (error) {
        if (remembered === undefined || options.redirectPort !== undefined) throw error;
        // The registered port is taken: take any, and register again with the new redirect URI.
        loopback = await startLoopbackRedirect(
          options.authorizationTimeoutMs !== undefined ? { timeoutMs: options.authorizationTimeoutMs } : {},
        );
        await update((current) => {
          delete current.clientInformation;
        });
      }
      // A registration made for another redirect URI (another port, or the placeholder of a
      // headless run) would be refused by the authorization server: register again.
      const registered = (record?.clientInformation as { redirect_uris?: string[] } | undefined)
        ?.redirect_uris;
      if (options.clientId === undefined && registered && !registered.includes(loopback.redirectUrl)) {
        await update((current) => {
          delete current.clientInformation;
        });
      }
    },

    async waitForAuthorizationCode() {
      if (!loopback) throw needsAuthError(serverName, serverUrl);
      return loopback.waitForCode(pendingState);
    },

    async endAuthorization() {
      const current = loopback;
      loopback = undefined;
      await current?.close();
    },

    requestScope(scope) {
      requestedScope = scope;
    },

    async signOut() {
      record = undefined;
      loaded = undefined;
      return store.delete(serverUrl);
    },
  };
  return provider;
}

/** The error of a server that needs a person to sign in. */
export function needsAuthError(serverName: string, serverUrl: string): SwitchboardError {
  let safeUrl = serverUrl;
  try {
    const url = new URL(serverUrl);
    safeUrl = `${url.origin}${url.pathname}`;
  } catch {
    // Not a URL: used as written.
  }
  return new SwitchboardError({
    code: 'NEEDS_AUTH',
    message: `MCP server "${serverName}" (${safeUrl}) needs a sign-in. Run \`switchboard auth ${serverName}\`, then connect again (a server that takes a static token instead wants an Authorization header in its config).`,
    context: { server: serverName, url: safeUrl },
  });
}
