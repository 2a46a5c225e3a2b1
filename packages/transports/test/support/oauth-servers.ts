// Neighbours for the OAuth tests: a small authorization server (metadata, dynamic registration,
// authorize with PKCE, token with authorization_code / refresh_token / client_credentials) and a
// protected MCP resource server (protected-resource metadata, 401/403 challenges, per-method scopes)
// that answers a minimal MCP over plain JSON. Real HTTP on port 0.
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

interface IssuedToken {
  clientId: string;
  scopes: string[];
  expiresAt: number;
}

/** What the authorization server saw and how it behaves. */
export interface AuthorizationServer {
  url: string;
  registrations: Array<{ clientId: string; redirectUris: string[] }>;
  authorizations: Array<{ clientId: string; scope: string | undefined; resource: string | undefined }>;
  tokenRequests: Array<{ grantType: string; scope: string | undefined }>;
  accessTokens: Map<string, IssuedToken>;
  refreshTokens: Set<string>;
  /** Lifetime of issued access tokens, seconds. */
  expiresIn: number;
  /** Forget every registration (the next token request with an old client id gets invalid_client). */
  forgetClients(): void;
  close(): Promise<void>;
}

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
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

export async function startAuthorizationServer(
  options: { clientCredentials?: Record<string, string> } = {},
): Promise<AuthorizationServer> {
  const clients = new Map<string, { secret?: string; redirectUris: string[] }>();
  for (const [id, secret] of Object.entries(options.clientCredentials ?? {}))
    clients.set(id, { secret, redirectUris: [] });
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
    accessTokens: new Map(),
    refreshTokens: new Set(),
    expiresIn: 3600,
    forgetClients: () => {
      for (const id of [...clients.keys()])
        if (!(id in (options.clientCredentials ?? {}))) clients.delete(id);
    },
    close: async () => {},
  };
  const issue = (response: http.ServerResponse, clientId: string, scopes: string[], refresh: boolean) => {
    counter += 1;
    const accessToken = `secret-access-${counter}-${randomBytes(6).toString('hex')}`;
    state.accessTokens.set(accessToken, { clientId, scopes, expiresAt: Date.now() + state.expiresIn * 1000 });
    const body: Record<string, unknown> = {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: state.expiresIn,
      ...(scopes.length > 0 ? { scope: scopes.join(' ') } : {}),
    };
    if (refresh) {
      const refreshToken = `secret-refresh-${counter}-${randomBytes(6).toString('hex')}`;
      refreshOwners.set(refreshToken, { clientId, scopes });
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
    const body = await readBody(request);
    if (url.pathname === '/.well-known/oauth-authorization-server') {
      json(response, 200, {
        issuer: state.url,
        authorization_endpoint: `${state.url}/authorize`,
        token_endpoint: `${state.url}/token`,
        registration_endpoint: `${state.url}/register`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      });
      return;
    }
    if (url.pathname === '/register' && request.method === 'POST') {
      const metadata = JSON.parse(body) as { redirect_uris?: string[] };
      const clientId = `client-${state.registrations.length + 1}`;
      clients.set(clientId, { redirectUris: metadata.redirect_uris ?? [] });
      state.registrations.push({ clientId, redirectUris: metadata.redirect_uris ?? [] });
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
      response.writeHead(302, { location: target.href }).end();
      return;
    }
    if (url.pathname === '/token' && request.method === 'POST') {
      const form = new URLSearchParams(body);
      const grantType = form.get('grant_type') ?? '';
      state.tokenRequests.push({ grantType, scope: form.get('scope') ?? undefined });
      const clientId = authenticate(request, form);
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
        issue(response, clientId, grant.scopes, true);
        return;
      }
      if (grantType === 'refresh_token') {
        const owner = refreshOwners.get(form.get('refresh_token') ?? '');
        if (!owner || owner.clientId !== clientId) {
          json(response, 400, { error: 'invalid_grant', error_description: 'unknown refresh token' });
          return;
        }
        issue(response, clientId, owner.scopes, true);
        return;
      }
      if (grantType === 'client_credentials') {
        const scope = form.get('scope');
        issue(response, clientId, scope ? scope.split(' ') : [], false);
        return;
      }
      json(response, 400, { error: 'unsupported_grant_type' });
      return;
    }
    response.writeHead(404).end();
  });
  state.url = await listen(server);
  state.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return state;
}

/** A protected MCP server: tools/list needs `read`, tools/call needs `read write` (or what `scopes` says). */
export interface ResourceServer {
  url: string;
  /** Authorization headers received on MCP requests. */
  seenAuthorization: string[];
  close(): Promise<void>;
}

export async function startResourceServer(
  authorizationServer: AuthorizationServer,
  options: { scopes?: Record<string, string[]>; alwaysReject?: boolean } = {},
): Promise<ResourceServer> {
  const required = options.scopes ?? { 'tools/list': ['read'], 'tools/call': ['read', 'write'] };
  const seenAuthorization: string[] = [];
  let base = '';
  const server = http.createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const body = await readBody(request);
    if (url.pathname === '/.well-known/oauth-protected-resource/mcp') {
      json(response, 200, {
        resource: `${base}/mcp`,
        authorization_servers: [authorizationServer.url],
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
    seenAuthorization.push(header);
    const token = header.startsWith('Bearer ') ? header.slice(7) : '';
    const issued = authorizationServer.accessTokens.get(token);
    if (!issued || issued.expiresAt <= Date.now() || options.alwaysReject) {
      json(
        response,
        401,
        { error: 'invalid_token' },
        { 'www-authenticate': `Bearer error="invalid_token", scope="read", resource_metadata="${metadata}"` },
      );
      return;
    }
    const message = JSON.parse(body) as { id?: number; method: string; params?: Record<string, unknown> };
    const needs = required[message.method] ?? [];
    if (!needs.every((scope) => issued.scopes.includes(scope))) {
      json(
        response,
        403,
        { error: 'insufficient_scope' },
        {
          'www-authenticate': `Bearer error="insufficient_scope", scope="${needs.join(' ')}", resource_metadata="${metadata}"`,
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
  base = await listen(server);
  return {
    url: `${base}/mcp`,
    seenAuthorization,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** `openUrl` of the tests: follows the authorization server's redirect to the loopback, as a browser would. */
export async function followRedirect(authorizationUrl: URL): Promise<void> {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  const location = response.headers.get('location');
  if (!location) throw new Error(`no redirect from ${authorizationUrl.origin}`);
  await (await fetch(location)).text();
}
