// Neighbours for the OAuth tests: a small authorization server (metadata, dynamic registration,
// authorize with PKCE and RFC 9207 `iss`, token with authorization_code / refresh_token /
// client_credentials / RFC 7523 jwt-bearer, DPoP-bound tokens with nonces), an enterprise
// identity provider (RFC 8693 token exchange of ID tokens into ID-JAGs), and a protected MCP
// resource server (protected-resource metadata, Bearer or DPoP challenges, per-method scopes,
// a switchable authorization server) that answers a minimal MCP over plain JSON. Real HTTP on
// port 0; DPoP proofs and JWTs are checked with jose.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import { listenOnRandomPort } from '@switchboard/test-helpers';
import {
  type CryptoKey,
  calculateJwkThumbprint,
  decodeProtectedHeader,
  generateKeyPair,
  importJWK,
  type JWK,
  jwtVerify,
  SignJWT,
} from 'jose';

interface IssuedToken {
  clientId: string;
  scopes: string[];
  expiresAt: number;
  /** RFC 7638 thumbprint of the DPoP key the token is bound to. */
  jkt?: string;
}

/** What the authorization server saw at its token endpoint. */
export interface TokenRequest {
  grantType: string;
  scope: string | undefined;
  clientId: string | undefined;
  /** A DPoP proof was presented. */
  dpop: boolean;
  /** The claims of a jwt-bearer grant's assertion, when it verified. */
  assertion?: Record<string, unknown>;
}

/** Behaviour of {@link startAuthorizationServer}. */
export interface AuthorizationServerOptions {
  /** Pre-registered confidential clients: id → secret. */
  clientCredentials?: Record<string, string>;
  /** Pre-registered public clients (token endpoint auth `none`). */
  publicClients?: string[];
  /** The `issuer` its metadata claims. @default its own URL */
  metadataIssuer?: string;
  /** Advertise `authorization_response_iss_parameter_supported` (RFC 9207). @default true */
  issParameterSupported?: boolean;
  /** The `iss` of the authorization redirect: the issuer, none, another one, or the issuer plus `/`. @default 'correct' */
  issInRedirect?: 'correct' | 'omit' | 'wrong' | 'normalized';
  /** `scopes_supported` of its metadata. */
  scopesSupported?: string[];
  /** DPoP at the token endpoint (RFC 9449): proofs are checked and bound; `requireNonce` challenges a proof without its nonce first. */
  dpop?: { requireNonce?: boolean };
  /** Accept the jwt-bearer grant whose assertion this key verifies (audience: this server); `idJag` also wants the ID-JAG `typ` and `client_id`. */
  jwtBearer?: { key: CryptoKey; idJag?: boolean };
}

/** What the authorization server saw and how it behaves. */
export interface AuthorizationServer {
  url: string;
  registrations: Array<{
    clientId: string;
    redirectUris: string[];
    applicationType: string | undefined;
    grantTypes: string[] | undefined;
  }>;
  authorizations: Array<{ clientId: string; scope: string | undefined; resource: string | undefined }>;
  tokenRequests: TokenRequest[];
  /** Every request the server received (`METHOD /path`). */
  requests: string[];
  accessTokens: Map<string, IssuedToken>;
  refreshTokens: Set<string>;
  /** DPoP nonce challenges the token endpoint answered. */
  nonceChallenges: number;
  /** Lifetime of issued access tokens, seconds. */
  expiresIn: number;
  /** Forget every registration (the next token request with an old client id gets invalid_client). */
  forgetClients(): void;
  close(): Promise<void>;
}

function readBody(request: http.IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => resolve(body));
  });
}

function json(
  response: http.ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
) {
  response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
}

async function close(server: http.Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** The checks of a DPoP proof (RFC 9449 §4.3) that both servers make; the key's thumbprint when it passes. */
async function verifyDpopProof(
  proof: string | string[] | undefined,
  method: string,
  url: string,
  accessToken?: string,
): Promise<{ ok: true; jkt: string; jti: string; nonce: unknown } | { ok: false; error: string }> {
  if (typeof proof !== 'string' || proof.includes(','))
    return { ok: false, error: 'one DPoP proof expected' };
  try {
    const header = decodeProtectedHeader(proof);
    if (header.typ !== 'dpop+jwt' || !header.jwk || 'd' in header.jwk)
      return { ok: false, error: 'bad header' };
    const key = await importJWK(header.jwk as JWK, header.alg);
    const { payload } = await jwtVerify(proof, key);
    if (payload.htm !== method || payload.htu !== url) return { ok: false, error: 'htm/htu mismatch' };
    if (typeof payload.jti !== 'string') return { ok: false, error: 'no jti' };
    if (accessToken !== undefined) {
      const ath = createHash('sha256').update(accessToken).digest('base64url');
      if (payload.ath !== ath) return { ok: false, error: 'ath mismatch' };
    }
    return {
      ok: true,
      jkt: await calculateJwkThumbprint(header.jwk as JWK, 'sha256'),
      jti: payload.jti,
      nonce: payload.nonce,
    };
  } catch (error) {
    return { ok: false, error: `proof does not verify: ${(error as Error).message}` };
  }
}

const jwtBearerGrantType = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const asNonce = 'as-nonce-1';

export async function startAuthorizationServer(
  options: AuthorizationServerOptions = {},
): Promise<AuthorizationServer> {
  const clients = new Map<string, { secret?: string; redirectUris: string[] }>();
  for (const [id, secret] of Object.entries(options.clientCredentials ?? {}))
    clients.set(id, { secret, redirectUris: [] });
  for (const id of options.publicClients ?? []) clients.set(id, { redirectUris: [] });
  const codes = new Map<
    string,
    { clientId: string; challenge: string; scopes: string[]; redirectUri: string }
  >();
  const refreshOwners = new Map<string, { clientId: string; scopes: string[] }>();
  let counter = 0;
  const state: AuthorizationServer = {
    url: '',
    registrations: [],
    authorizations: [],
    tokenRequests: [],
    requests: [],
    accessTokens: new Map(),
    refreshTokens: new Set(),
    nonceChallenges: 0,
    expiresIn: 3600,
    forgetClients: () => {
      const kept = new Set([
        ...Object.keys(options.clientCredentials ?? {}),
        ...(options.publicClients ?? []),
      ]);
      for (const id of [...clients.keys()]) if (!kept.has(id)) clients.delete(id);
    },
    close: async () => {},
  };
  const issuer = () => options.metadataIssuer ?? state.url;
  const issue = (
    response: http.ServerResponse,
    grant: { clientId: string; scopes: string[]; refresh: boolean; jkt?: string | undefined },
  ) => {
    counter += 1;
    const accessToken = `secret-access-${counter}-${randomBytes(6).toString('hex')}`;
    state.accessTokens.set(accessToken, {
      clientId: grant.clientId,
      scopes: grant.scopes,
      expiresAt: Date.now() + state.expiresIn * 1000,
      ...(grant.jkt ? { jkt: grant.jkt } : {}),
    });
    const body: Record<string, unknown> = {
      access_token: accessToken,
      token_type: grant.jkt ? 'DPoP' : 'Bearer',
      expires_in: state.expiresIn,
      ...(grant.scopes.length > 0 ? { scope: grant.scopes.join(' ') } : {}),
    };
    if (grant.refresh) {
      const refreshToken = `secret-refresh-${counter}-${randomBytes(6).toString('hex')}`;
      refreshOwners.set(refreshToken, { clientId: grant.clientId, scopes: grant.scopes });
      state.refreshTokens.add(refreshToken);
      body.refresh_token = refreshToken;
    }
    json(response, 200, body);
  };
  const authenticate = (request: http.IncomingMessage, form: URLSearchParams): string | undefined => {
    const header = request.headers.authorization;
    let id = form.get('client_id') ?? undefined;
    let secret = form.get('client_secret') ?? undefined;
    if (header?.startsWith('Basic ')) {
      const [user, password] = Buffer.from(header.slice(6), 'base64').toString('utf8').split(':');
      id = decodeURIComponent(user ?? '');
      secret = decodeURIComponent(password ?? '');
    }
    const client = id === undefined ? undefined : clients.get(id);
    if (!client || (client.secret !== undefined && client.secret !== secret)) return undefined;
    return id;
  };
  const server = http.createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', state.url);
    state.requests.push(`${request.method} ${url.pathname}`);
    const body = await readBody(request);
    if (url.pathname === '/.well-known/oauth-authorization-server') {
      json(response, 200, {
        issuer: issuer(),
        authorization_endpoint: `${state.url}/authorize`,
        token_endpoint: `${state.url}/token`,
        registration_endpoint: `${state.url}/register`,
        response_types_supported: ['code'],
        grant_types_supported: [
          'authorization_code',
          'refresh_token',
          'client_credentials',
          jwtBearerGrantType,
        ],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
        ...(options.issParameterSupported !== false
          ? { authorization_response_iss_parameter_supported: true }
          : {}),
        ...(options.scopesSupported ? { scopes_supported: options.scopesSupported } : {}),
        ...(options.dpop ? { dpop_signing_alg_values_supported: ['ES256'] } : {}),
      });
      return;
    }
    if (url.pathname === '/register' && request.method === 'POST') {
      const metadata = JSON.parse(body) as {
        redirect_uris?: string[];
        application_type?: string;
        grant_types?: string[];
      };
      const clientId = `client-${state.registrations.length + 1}-of-${new URL(state.url).port}`;
      clients.set(clientId, { redirectUris: metadata.redirect_uris ?? [] });
      state.registrations.push({
        clientId,
        redirectUris: metadata.redirect_uris ?? [],
        applicationType: metadata.application_type,
        grantTypes: metadata.grant_types,
      });
      json(response, 201, { ...metadata, client_id: clientId, token_endpoint_auth_method: 'none' });
      return;
    }
    if (url.pathname === '/authorize') {
      const clientId = url.searchParams.get('client_id') ?? '';
      const redirectUri = url.searchParams.get('redirect_uri') ?? '';
      const scope = url.searchParams.get('scope') ?? undefined;
      state.authorizations.push({ clientId, scope, resource: url.searchParams.get('resource') ?? undefined });
      const target = new URL(redirectUri);
      if (!clients.has(clientId)) {
        target.searchParams.set('error', 'unauthorized_client');
      } else {
        const code = randomBytes(8).toString('hex');
        codes.set(code, {
          clientId,
          challenge: url.searchParams.get('code_challenge') ?? '',
          scopes: scope ? scope.split(' ') : [],
          redirectUri,
        });
        target.searchParams.set('code', code);
      }
      const stateParameter = url.searchParams.get('state');
      if (stateParameter) target.searchParams.set('state', stateParameter);
      const iss = options.issInRedirect ?? 'correct';
      if (iss === 'correct') target.searchParams.set('iss', issuer());
      else if (iss === 'wrong') target.searchParams.set('iss', 'https://attacker.example');
      else if (iss === 'normalized') target.searchParams.set('iss', `${issuer()}/`);
      response.writeHead(302, { location: target.href }).end();
      return;
    }
    if (url.pathname === '/token' && request.method === 'POST') {
      const form = new URLSearchParams(body);
      const grantType = form.get('grant_type') ?? '';
      const record: TokenRequest = {
        grantType,
        scope: form.get('scope') ?? undefined,
        clientId: undefined,
        dpop: request.headers.dpop !== undefined,
      };
      state.tokenRequests.push(record);
      let jkt: string | undefined;
      if (options.dpop && request.headers.dpop !== undefined) {
        const proof = await verifyDpopProof(request.headers.dpop, 'POST', `${state.url}/token`);
        if (!proof.ok) {
          json(response, 400, { error: 'invalid_dpop_proof', error_description: proof.error });
          return;
        }
        if (options.dpop.requireNonce && proof.nonce !== asNonce) {
          state.nonceChallenges += 1;
          json(response, 400, { error: 'use_dpop_nonce' }, { 'dpop-nonce': asNonce });
          return;
        }
        jkt = proof.jkt;
      }
      const clientId = authenticate(request, form);
      record.clientId = clientId;
      if (clientId === undefined) {
        json(response, 401, { error: 'invalid_client', error_description: 'unknown client' });
        return;
      }
      if (grantType === 'authorization_code') {
        const grant = codes.get(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        const challenge = createHash('sha256').update(verifier).digest('base64url');
        if (!grant || grant.clientId !== clientId || grant.challenge !== challenge) {
          json(response, 400, { error: 'invalid_grant', error_description: 'bad code or verifier' });
          return;
        }
        codes.delete(form.get('code') ?? '');
        issue(response, { clientId, scopes: grant.scopes, refresh: true, jkt });
        return;
      }
      if (grantType === 'refresh_token') {
        const owner = refreshOwners.get(form.get('refresh_token') ?? '');
        if (!owner || owner.clientId !== clientId) {
          json(response, 400, { error: 'invalid_grant', error_description: 'unknown refresh token' });
          return;
        }
        issue(response, { clientId, scopes: owner.scopes, refresh: true, jkt });
        return;
      }
      if (grantType === 'client_credentials') {
        const scope = form.get('scope');
        issue(response, { clientId, scopes: scope ? scope.split(' ') : [], refresh: false, jkt });
        return;
      }
      if (grantType === jwtBearerGrantType && options.jwtBearer) {
        const assertion = form.get('assertion') ?? '';
        try {
          const { payload, protectedHeader } = await jwtVerify(assertion, options.jwtBearer.key, {
            audience: [state.url, `${state.url}/`],
          });
          if (
            options.jwtBearer.idJag &&
            (protectedHeader.typ !== 'oauth-id-jag+jwt' || payload.client_id !== clientId)
          ) {
            json(response, 400, {
              error: 'invalid_grant',
              error_description: 'not an ID-JAG for this client',
            });
            return;
          }
          record.assertion = payload as Record<string, unknown>;
          const scope = form.get('scope');
          issue(response, { clientId, scopes: scope ? scope.split(' ') : [], refresh: false, jkt });
        } catch (error) {
          json(response, 400, {
            error: 'invalid_grant',
            error_description: `assertion rejected (${(error as { code?: string }).code ?? 'invalid'})`,
          });
        }
        return;
      }
      json(response, 400, { error: 'unsupported_grant_type' });
      return;
    }
    response.writeHead(404).end();
  });
  state.url = (await listenOnRandomPort(server)).origin;
  state.close = () => close(server);
  return state;
}

/** An enterprise IdP (SEP-990): exchanges its ID tokens for ID-JAGs (RFC 8693, requested_token_type id-jag). */
export interface IdentityProvider {
  url: string;
  /** The key the MCP server's authorization server trusts ID-JAGs with. */
  jagPublicKey: CryptoKey;
  /** Token exchanges it answered: the parameters it got (without the ID token). */
  exchanges: Array<Record<string, string>>;
  /** Mints an ID token of `subject` for the client `clientId` (its audience). */
  idToken(subject: string, clientId: string): Promise<string>;
  close(): Promise<void>;
}

/** Starts an enterprise IdP; `mcpClientId` is the client id its ID-JAGs name (the client's id at the MCP server's authorization server). */
export async function startIdentityProvider(options: { mcpClientId: string }): Promise<IdentityProvider> {
  const idTokenKeys = await generateKeyPair('ES256');
  const jagKeys = await generateKeyPair('ES256');
  const exchanges: Array<Record<string, string>> = [];
  let base = '';
  const server = http.createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const body = await readBody(request);
    if (url.pathname === '/.well-known/openid-configuration') {
      json(response, 200, {
        issuer: base,
        authorization_endpoint: `${base}/authorize`,
        token_endpoint: `${base}/token`,
        jwks_uri: `${base}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['ES256'],
        grant_types_supported: ['urn:ietf:params:oauth:grant-type:token-exchange'],
      });
      return;
    }
    if (url.pathname !== '/token' || request.method !== 'POST') {
      response.writeHead(404).end();
      return;
    }
    const form = new URLSearchParams(body);
    const { subject_token: subjectToken, ...rest } = Object.fromEntries(form);
    exchanges.push(rest);
    if (
      form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:token-exchange' ||
      form.get('requested_token_type') !== 'urn:ietf:params:oauth:token-type:id-jag' ||
      form.get('subject_token_type') !== 'urn:ietf:params:oauth:token-type:id_token'
    ) {
      json(response, 400, { error: 'invalid_request', error_description: 'not an ID-JAG token exchange' });
      return;
    }
    try {
      const { payload } = await jwtVerify(subjectToken ?? '', idTokenKeys.publicKey, {
        issuer: base,
        audience: form.get('client_id') ?? '',
      });
      const jag = await new SignJWT({
        client_id: options.mcpClientId,
        resource: form.get('resource'),
        ...(form.get('scope') ? { scope: form.get('scope') } : {}),
      })
        .setProtectedHeader({ alg: 'ES256', typ: 'oauth-id-jag+jwt' })
        .setIssuer(base)
        .setSubject(String(payload.sub))
        .setAudience(form.get('audience') ?? '')
        .setIssuedAt()
        .setExpirationTime('5m')
        .setJti(randomUUID())
        .sign(jagKeys.privateKey);
      json(response, 200, {
        access_token: jag,
        issued_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
        token_type: 'N_A',
      });
    } catch {
      json(response, 400, { error: 'invalid_grant', error_description: 'the ID token does not verify' });
    }
  });
  base = (await listenOnRandomPort(server)).origin;
  return {
    url: base,
    jagPublicKey: jagKeys.publicKey,
    exchanges,
    idToken: (subject, clientId) =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'ES256' })
        .setIssuer(base)
        .setSubject(subject)
        .setAudience(clientId)
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(idTokenKeys.privateKey),
    close: () => close(server),
  };
}

/** A workload identity (SEP-1933): a key whose JWTs the authorization server trusts as assertions. */
export async function createWorkloadIdentity(): Promise<{
  publicKey: CryptoKey;
  token(audience: string, expiresIn?: string): Promise<string>;
}> {
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  return {
    publicKey,
    token: (audience, expiresIn = '5m') =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'ES256' })
        .setIssuer('https://workload-idp.example')
        .setSubject('workload-1')
        .setAudience(audience)
        .setIssuedAt()
        .setExpirationTime(expiresIn)
        .setJti(randomUUID())
        .sign(privateKey),
  };
}

/** A protected MCP server: tools/list needs `read`, tools/call needs `read write` (or what `scopes` says). */
export interface ResourceServer {
  url: string;
  /** Authorization headers received on MCP requests. */
  seenAuthorization: string[];
  /** The DPoP proofs of MCP requests: their `jti` and `nonce`. */
  seenProofs: Array<{ jti: string; nonce: unknown }>;
  /** DPoP nonce challenges it answered. */
  nonceChallenges: number;
  close(): Promise<void>;
}

/** Behaviour of {@link startResourceServer}. */
export interface ResourceServerOptions {
  /** Scopes per MCP method. */
  scopes?: Record<string, string[]>;
  /** Refuse every token. */
  alwaysReject?: boolean;
  /** The authorization server it trusts now (its metadata names it; only its tokens pass). @default the one given */
  current?: () => AuthorizationServer;
  /** Want DPoP-bound tokens with a valid proof per request (RFC 9449 §7); `requireNonce` challenges a proof without its nonce. */
  dpop?: { requireNonce?: boolean };
}

const rsNonce = 'rs-nonce-1';

export async function startResourceServer(
  authorizationServer: AuthorizationServer,
  options: ResourceServerOptions = {},
): Promise<ResourceServer> {
  const required = options.scopes ?? { 'tools/list': ['read'], 'tools/call': ['read', 'write'] };
  const current = options.current ?? (() => authorizationServer);
  const scheme = options.dpop ? 'DPoP' : 'Bearer';
  const state: ResourceServer = {
    url: '',
    seenAuthorization: [],
    seenProofs: [],
    nonceChallenges: 0,
    close: async () => {},
  };
  let base = '';
  const server = http.createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const body = await readBody(request);
    if (url.pathname === '/.well-known/oauth-protected-resource/mcp') {
      json(response, 200, {
        resource: `${base}/mcp`,
        authorization_servers: [current().url],
        scopes_supported: ['read', 'write'],
      });
      return;
    }
    if (url.pathname !== '/mcp') {
      response.writeHead(404).end();
      return;
    }
    if (request.method !== 'POST') {
      response.writeHead(405).end();
      return;
    }
    const metadata = `${base}/.well-known/oauth-protected-resource/mcp`;
    const header = request.headers.authorization ?? '';
    state.seenAuthorization.push(header);
    const refuse = (error: string, extra: Record<string, string> = {}) =>
      json(
        response,
        401,
        { error },
        {
          'www-authenticate': `${scheme} error="${error}", scope="read", resource_metadata="${metadata}"`,
          ...extra,
        },
      );
    const token = header.startsWith(`${scheme} `) ? header.slice(scheme.length + 1) : '';
    const issued = current().accessTokens.get(token);
    if (!issued || issued.expiresAt <= Date.now() || options.alwaysReject) {
      refuse('invalid_token');
      return;
    }
    if (options.dpop) {
      const proof = await verifyDpopProof(request.headers.dpop, 'POST', `${base}/mcp`, token);
      if (!proof.ok || proof.jkt !== issued.jkt) {
        refuse('invalid_token');
        return;
      }
      state.seenProofs.push({ jti: proof.jti, nonce: proof.nonce });
      if (options.dpop.requireNonce && proof.nonce !== rsNonce) {
        state.nonceChallenges += 1;
        refuse('use_dpop_nonce', { 'dpop-nonce': rsNonce });
        return;
      }
    }
    const message = JSON.parse(body) as { id?: number; method: string; params?: Record<string, unknown> };
    const needs = required[message.method] ?? [];
    if (!needs.every((scope) => issued.scopes.includes(scope))) {
      json(
        response,
        403,
        { error: 'insufficient_scope' },
        {
          'www-authenticate': `${scheme} error="insufficient_scope", scope="${needs.join(' ')}", resource_metadata="${metadata}"`,
        },
      );
      return;
    }
    if (message.id === undefined) {
      response.writeHead(202).end();
      return;
    }
    const results: Record<string, unknown> = {
      initialize: {
        protocolVersion: (message.params?.protocolVersion as string) ?? '2025-06-18',
        capabilities: { tools: {} },
        serverInfo: { name: 'protected', version: '1.0.0' },
      },
      'tools/list': { tools: [{ name: 'whoami', inputSchema: { type: 'object' } }] },
      'tools/call': { content: [{ type: 'text', text: `client ${issued.clientId}` }] },
    };
    json(response, 200, { jsonrpc: '2.0', id: message.id, result: results[message.method] ?? {} });
  });
  base = (await listenOnRandomPort(server)).origin;
  state.url = `${base}/mcp`;
  state.close = () => close(server);
  return state;
}

/** `openUrl` of the tests: follows the authorization server's redirect to the loopback, as a browser would. */
export async function followRedirect(authorizationUrl: URL): Promise<void> {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  const location = response.headers.get('location');
  if (!location) throw new Error(`no redirect from ${authorizationUrl.origin}`);
  await (await fetch(location)).text();
}
