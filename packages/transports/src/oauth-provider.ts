/**
 * Switchboard's SDK `OAuthClientProvider` for one MCP server: what the SDK's flow asks of a provider
 * (client metadata, the registered client, tokens, the PKCE verifier, the redirect) backed by a
 * `TokenStore` and a loopback sign-in, for every grant Switchboard runs, with DPoP on request.
 * Everything it keeps is keyed by the authorization server's issuer (SEP-2352), so credentials
 * obtained from one are never sent to another.
 */
import { randomBytes } from 'node:crypto';
import {
  type AddClientAuthentication,
  createPrivateKeyJwtAuth,
  type DpopAlg,
  type DpopSession,
  type OAuthClientInformationContext,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { SwitchboardError } from '@switchboard/core';
import { type AssertionContext, type AssertionSource, readAssertion } from './assertion-source.js';
import { AuthorizationErrorCode } from './authorization-error-code.js';
import { chooseDpopAlgorithm, createDpopKey, restoreDpopKey } from './dpop-key.js';
import { createIdJagAssertion, type IdentityProviderOptions } from './id-jag-assertion.js';
import {
  type AuthorizationResponse,
  type LoopbackRedirect,
  startLoopbackRedirect,
} from './loopback-redirect.js';
import { createFileTokenStore, type StoredAuthorization, type TokenStore } from './token-store.js';

/**
 * OAuth grants Switchboard can run: `authorization_code` (a person signs in through the browser),
 * `client_credentials` (headless, pre-registered client), `workload_identity` (an RFC 7523
 * JWT-bearer grant with the workload's identity token, SEP-1933) and `enterprise_managed` (an
 * ID-JAG from the enterprise IdP, then the JWT-bearer grant, SEP-990).
 */
export type OAuthGrantType =
  | 'authorization_code'
  | 'client_credentials'
  | 'workload_identity'
  | 'enterprise_managed';

/** DPoP (RFC 9449) settings: sender-constrained tokens, bound to a key only this client holds. */
export interface DpopOptions {
  /** Proof signing algorithm. @default the first the authorization server advertises that the SDK signs, else 'ES256' */
  alg?: DpopAlg;
}

/** Options of {@link createOAuthProvider}. */
export interface OAuthProviderOptions {
  /** The MCP server's URL (the protected resource); the key of its record in the store. */
  serverUrl: string | URL;
  /** Server name, for messages and `switchboard auth --list`. @default the URL's host */
  serverName?: string;
  /** Where tokens and registrations are kept. @default createFileTokenStore() (`~/.switchboard/auth`) */
  store?: TokenStore;
  /** How this client gets its tokens; see {@link OAuthGrantType}. @default 'authorization_code' */
  grantType?: OAuthGrantType;
  /** A pre-registered client id. Without one the client uses `clientMetadataUrl` or registers dynamically. */
  clientId?: string;
  /** The pre-registered client's secret. Never logged. */
  clientSecret?: string;
  /**
   * The issuer of the authorization server the pre-registered client belongs to: its credentials
   * are never sent to another one (SEP-2352). @default the first authorization server it is used with (kept in the store)
   */
  issuer?: string;
  /** An HTTPS URL of a client-id metadata document, used as client id where the server supports it. */
  clientMetadataUrl?: string;
  /** PEM (PKCS#8) private key for `private_key_jwt` client authentication. Never logged. */
  privateKey?: string;
  /** Algorithm of `privateKey`. @default 'RS256' */
  signingAlgorithm?: string;
  /** `workload_identity`: the workload's identity JWT (or a function returning a fresh one), sent as the grant's assertion. Never logged. */
  assertion?: AssertionSource;
  /** `enterprise_managed`: the enterprise IdP that exchanges the user's ID token for an ID-JAG. */
  identityProvider?: IdentityProviderOptions;
  /** DPoP (RFC 9449): ask for sender-constrained tokens and sign a proof into every request. @default false */
  dpop?: boolean | DpopOptions;
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
  /** The JWT-bearer grant's assertion for one token request (`workload_identity`, `enterprise_managed`); undefined for other grants. */
  assertion(context: AssertionContext): Promise<string> | undefined;
  /** Starts the loopback redirect (so `redirectUrl` is known) before a sign-in. */
  prepareAuthorization(): Promise<void>;
  /** Resolves with what the loopback redirect received (a code or a refusal, with the `iss` sent). */
  waitForAuthorizationResponse(): Promise<AuthorizationResponse>;
  /** Stops the loopback redirect. */
  endAuthorization(): Promise<void>;
  /** Forgets tokens, registrations, discovery and DPoP key of this server. */
  signOut(): Promise<boolean>;
  /** The scopes the next token request asks for (the challenge's, or a step-up's union); the SDK passes only the configured ones to non-interactive grants. */
  requestScope(scope: string | undefined): void;
}

const placeholderRedirect = 'http://127.0.0.1/callback';
const jwtBearerGrant = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** SEP-2352's issuer comparison: identical, or differing only by one trailing slash (as the SDK compares them). */
export function sameIssuer(a: string, b: string): boolean {
  return a === b || a === `${b}/` || b === `${a}/`;
}

function lookupByIssuer<T>(entries: Record<string, T> | undefined, issuer: string): T | undefined {
  if (!entries) return undefined;
  if (entries[issuer] !== undefined) return entries[issuer];
  for (const [key, value] of Object.entries(entries)) if (sameIssuer(key, issuer)) return value;
  return undefined;
}

/** The issuer of the authorization server the cached discovery names. */
function discoveredIssuer(record: StoredAuthorization | undefined): string | undefined {
  return record?.discovery?.authorizationServerMetadata?.issuer ?? record?.discovery?.authorizationServerUrl;
}

/**
 * Creates an OAuth provider for one MCP server: authorization code + PKCE via a loopback
 * redirect, client credentials, workload identity or enterprise-managed authorization, with DPoP
 * on request. Credentials are kept per authorization-server issuer.
 */
export function createOAuthProvider(options: OAuthProviderOptions): OAuthProvider {
  const serverUrl = String(options.serverUrl);
  const serverName = options.serverName ?? new URL(serverUrl).host;
  const store = options.store ?? createFileTokenStore();
  const grantType = options.grantType ?? 'authorization_code';
  const interactive = options.openUrl !== undefined && grantType === 'authorization_code';
  const assertionSource: AssertionSource | undefined =
    grantType === 'workload_identity'
      ? options.assertion
      : grantType === 'enterprise_managed' && options.identityProvider
        ? createIdJagAssertion(options.identityProvider)
        : undefined;
  const dpopOptions: DpopOptions | undefined =
    options.dpop === true ? {} : options.dpop === false ? undefined : options.dpop;
  let record: StoredAuthorization | undefined;
  let loaded: Promise<StoredAuthorization> | undefined;
  let loopback: LoopbackRedirect | undefined;
  let pendingState: string | undefined;
  let requestedScope: string | undefined;
  let dpopSession: Promise<DpopSession> | undefined;

  const load = (): Promise<StoredAuthorization> => {
    loaded ??= store.load(serverUrl).then((stored) => {
      record = stored ?? { version: 2, serverUrl, serverName, updatedAt: Date.now() };
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

  /** The configured client, stamped with the authorization server it is bound to (trust on first use). */
  const configuredClient = async (issuer: string | undefined): Promise<StoredOAuthClientInformation> => {
    const clientId = options.clientId as string;
    const current = await load();
    const remembered =
      current.configuredClient?.clientId === clientId ? current.configuredClient.issuer : undefined;
    const bound = options.issuer ?? remembered;
    if (issuer !== undefined && bound !== undefined && !sameIssuer(bound, issuer)) {
      throw new SwitchboardError({
        code: AuthorizationErrorCode.AuthorizationServerChanged,
        message: `MCP server "${serverName}" now names the authorization server ${JSON.stringify(issuer)}, but the configured client id is bound to ${JSON.stringify(bound)}: its credentials were not sent to the new one (SEP-2352). If the server really moved, set auth.issuer to the new issuer${options.issuer === undefined ? ` or forget the old binding with \`switchboard auth --revoke ${serverName}\`` : ''}.`,
        context: { server: serverName, issuer, boundIssuer: bound },
      });
    }
    if (issuer !== undefined && bound === undefined) {
      await update((next) => {
        next.configuredClient = { clientId, issuer };
      });
    }
    const stamp = bound ?? issuer;
    return {
      client_id: clientId,
      ...(options.clientSecret !== undefined ? { client_secret: options.clientSecret } : {}),
      ...(stamp !== undefined ? { issuer: stamp } : {}),
    };
  };

  const registeredClients = (current: StoredAuthorization | undefined): StoredOAuthClientInformation[] => {
    const all = Object.values(current?.clients ?? {});
    const issuer = discoveredIssuer(current);
    const preferred = issuer !== undefined ? lookupByIssuer(current?.clients, issuer) : undefined;
    return preferred ? [preferred, ...all.filter((client) => client !== preferred)] : all;
  };

  const redirectUrisOf = (client: StoredOAuthClientInformation | undefined): string[] | undefined =>
    (client as { redirect_uris?: string[] } | undefined)?.redirect_uris;

  const registeredRedirectPort = (): number | undefined => {
    for (const client of registeredClients(record)) {
      const first = redirectUrisOf(client)?.[0];
      if (first === undefined) continue;
      try {
        const url = new URL(first);
        if (url.hostname === '127.0.0.1' && url.port !== '') return Number(url.port);
      } catch {
        // Not a URL: look at the next registration.
      }
    }
    return undefined;
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

  /** The DPoP session: the stored key, else a new one (kept in the store with the tokens it binds). */
  const openDpopSession = async (): Promise<DpopSession> => {
    const current = await load();
    if (current.dpopKey) return restoreDpopKey(current.dpopKey);
    const advertised = (current.discovery?.authorizationServerMetadata as Record<string, unknown> | undefined)
      ?.dpop_signing_alg_values_supported;
    const { session, stored } = await createDpopKey(chooseDpopAlgorithm(dpopOptions?.alg, advertised));
    await update((next) => {
      next.dpopKey = stored;
    });
    return session;
  };

  const nonInteractiveGrants: Record<Exclude<OAuthGrantType, 'authorization_code'>, string> = {
    client_credentials: 'client_credentials',
    workload_identity: jwtBearerGrant,
    enterprise_managed: jwtBearerGrant,
  };

  const provider: OAuthProvider = {
    serverUrl,
    serverName,
    grantType,
    interactive,
    ...(options.clientMetadataUrl !== undefined ? { clientMetadataUrl: options.clientMetadataUrl } : {}),
    ...(addClientAuthentication ? { addClientAuthentication } : {}),
    ...(dpopOptions
      ? {
          dpop() {
            dpopSession ??= openDpopSession().catch((error: unknown) => {
              dpopSession = undefined;
              throw error;
            });
            return dpopSession;
          },
        }
      : {}),

    get redirectUrl() {
      if (grantType !== 'authorization_code') return undefined;
      return loopback?.redirectUrl ?? placeholderRedirect;
    },

    get clientMetadata(): OAuthClientMetadata {
      const scope = options.scopes?.join(' ');
      const secret = options.clientSecret !== undefined || options.privateKey !== undefined;
      const interactiveGrant = grantType === 'authorization_code';
      const metadata: OAuthClientMetadata & { dpop_bound_access_tokens?: boolean } = {
        client_name: options.clientName ?? 'Switchboard',
        // A terminal app or agent on the user's machine (SEP-837; RFC 8252 loopback redirect).
        application_type: 'native',
        redirect_uris: interactiveGrant ? [loopback?.redirectUrl ?? placeholderRedirect] : [],
        grant_types: interactiveGrant
          ? ['authorization_code', 'refresh_token']
          : [nonInteractiveGrants[grantType as keyof typeof nonInteractiveGrants]],
        response_types: interactiveGrant ? ['code'] : [],
        token_endpoint_auth_method:
          options.privateKey !== undefined ? 'private_key_jwt' : secret ? 'client_secret_basic' : 'none',
        ...(scope ? { scope } : {}),
        // RFC 9449 §5.2: this client always asks for DPoP-bound tokens.
        ...(dpopOptions ? { dpop_bound_access_tokens: true } : {}),
      };
      return metadata;
    },

    state() {
      pendingState = randomBytes(16).toString('base64url');
      return pendingState;
    },

    async clientInformation(ctx?: OAuthClientInformationContext) {
      if (options.clientId !== undefined) return configuredClient(ctx?.issuer);
      const current = await load();
      const issuer = ctx?.issuer ?? discoveredIssuer(current);
      return issuer !== undefined ? lookupByIssuer(current.clients, issuer) : undefined;
    },

    async saveClientInformation(information, ctx) {
      const issuer = information.issuer ?? ctx?.issuer;
      if (options.clientId !== undefined) {
        // A configured client id wins over anything stored; only its binding is kept.
        if (issuer !== undefined) await configuredClient(issuer);
        return;
      }
      if (issuer === undefined) return;
      await update((current) => {
        current.clients = { ...current.clients, [issuer]: { ...information, issuer } };
      });
    },

    async tokens(ctx?: OAuthClientInformationContext) {
      const tokens = (await load()).tokens;
      if (ctx === undefined || tokens?.issuer === undefined) return tokens;
      return sameIssuer(tokens.issuer, ctx.issuer) ? tokens : undefined;
    },

    async saveTokens(tokens: StoredOAuthTokens, ctx?: OAuthClientInformationContext) {
      await update((current) => {
        const issuer = tokens.issuer ?? ctx?.issuer;
        const previous = current.tokens;
        // A refresh that returns no new refresh token keeps the old one usable (same issuer only).
        const refresh =
          tokens.refresh_token ??
          (previous?.issuer === undefined || issuer === undefined || sameIssuer(previous.issuer, issuer)
            ? previous?.refresh_token
            : undefined);
        current.tokens = {
          ...tokens,
          ...(refresh !== undefined ? { refresh_token: refresh } : {}),
          ...(issuer !== undefined ? { issuer } : {}),
        };
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
          code: AuthorizationErrorCode.AuthFailed,
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

    assertion(context) {
      return assertionSource === undefined ? undefined : readAssertion(assertionSource, context);
    },

    async invalidateCredentials(scope) {
      await update((current) => {
        if (scope === 'all' || scope === 'tokens') {
          delete current.tokens;
          delete current.expiresAt;
        }
        const issuer = discoveredIssuer(current);
        if (scope === 'all' || (scope === 'client' && issuer === undefined)) delete current.clients;
        else if (scope === 'client' && issuer !== undefined) {
          // The registration the authorization server in use refused; those of others stay theirs.
          current.clients = Object.fromEntries(
            Object.entries(current.clients ?? {}).filter(([key]) => !sameIssuer(key, issuer)),
          );
        }
        if (scope === 'all' || scope === 'verifier') delete current.codeVerifier;
        if (scope === 'all' || scope === 'discovery') delete current.discovery;
        if (scope === 'all') {
          delete current.configuredClient;
          delete current.dpopKey;
          dpopSession = undefined;
        }
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
      if (grantType !== 'authorization_code' || interactive) return false;
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
      }
      // A registration made for another redirect URI (another port, or the placeholder of a
      // headless run) would be refused by the authorization server: register again. Client-id
      // metadata documents name no redirect URI here and stay.
      const redirectUrl = loopback.redirectUrl;
      const fits = (client: StoredOAuthClientInformation) =>
        (redirectUrisOf(client) ?? [redirectUrl]).includes(redirectUrl);
      if (options.clientId === undefined && !Object.values(record?.clients ?? {}).every(fits)) {
        await update((current) => {
          current.clients = Object.fromEntries(
            Object.entries(current.clients ?? {}).filter(([, client]) => fits(client)),
          );
        });
      }
    },

    async waitForAuthorizationResponse() {
      if (!loopback) throw needsAuthError(serverName, serverUrl);
      return loopback.waitForResponse(pendingState);
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
      dpopSession = undefined;
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
    code: AuthorizationErrorCode.NeedsAuth,
    message: `MCP server "${serverName}" (${safeUrl}) needs a sign-in. Run \`switchboard auth ${serverName}\`, then connect again (a server that takes a static token instead wants an Authorization header in its config).`,
    context: { server: serverName, url: safeUrl },
  });
}
