// Protected serving: `serve()` over HTTP with auth { type: 'oauth' }, against a small in-test
// authorization server (JWKS, client-credentials token endpoint issuing ES256 JWTs, RFC 7662
// introspection) and, end to end, @switchboard/client's OAuth. Real HTTP on port 0.
import { createPrivateKey, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { createMcpClient, createMemoryTokenStore } from '@switchboard/client';
import { listenOnRandomPort } from '@switchboard/test-helpers';
import { afterEach, describe, expect, test } from 'vitest';
import {
  createIntrospectionVerifier,
  createJwtVerifier,
  type OAuthResourceOptions,
  type ServeHandle,
  serve,
} from '../src/index.js';
import { createEchoServer } from './fixtures/echo-server.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

function signJwt(key: KeyObject, claims: Record<string, unknown>, kid = 'key-1'): string {
  const header = Buffer.from(JSON.stringify({ alg: 'ES256', typ: 'at+jwt', kid })).toString('base64url');
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  const signature = sign('sha256', Buffer.from(`${header}.${payload}`), { key, dsaEncoding: 'ieee-p1363' });
  return `${header}.${payload}.${signature.toString('base64url')}`;
}

interface TestAuthorizationServer {
  issuer: string;
  privateKey: KeyObject;
  /** Audience of the tokens it issues (set once the MCP server's URL is known). */
  audience: string;
  token(claims?: Record<string, unknown>): string;
}

async function startAuthorizationServer(): Promise<TestAuthorizationServer> {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const state: TestAuthorizationServer = {
    issuer: '',
    privateKey: createPrivateKey(privateKey.export({ format: 'pem', type: 'pkcs8' })),
    audience: '',
    token: (claims = {}) =>
      signJwt(privateKey, {
        iss: state.issuer,
        aud: state.audience,
        sub: 'user-1',
        client_id: 'robot',
        scope: 'mcp',
        exp: Math.floor(Date.now() / 1000) + 600,
        ...claims,
      }),
  };
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const send = (status: number, value: unknown) =>
        response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      if (request.url === '/.well-known/oauth-authorization-server') {
        send(200, {
          issuer: state.issuer,
          authorization_endpoint: `${state.issuer}/authorize`,
          token_endpoint: `${state.issuer}/token`,
          jwks_uri: `${state.issuer}/jwks`,
          grant_types_supported: ['client_credentials'],
          token_endpoint_auth_methods_supported: ['client_secret_basic'],
          response_types_supported: ['token'],
        });
      } else if (request.url === '/jwks') {
        send(200, {
          keys: [{ ...publicKey.export({ format: 'jwk' }), kid: 'key-1', alg: 'ES256', use: 'sig' }],
        });
      } else if (request.url === '/token') {
        const form = new URLSearchParams(body);
        const basic = Buffer.from((request.headers.authorization ?? '').slice(6), 'base64').toString('utf8');
        if (basic !== 'robot:robot-secret' || form.get('grant_type') !== 'client_credentials') {
          send(401, { error: 'invalid_client' });
          return;
        }
        const scope = form.get('scope') ?? 'mcp';
        send(200, { access_token: state.token({ scope }), token_type: 'Bearer', expires_in: 600, scope });
      } else if (request.url === '/introspect') {
        const token = new URLSearchParams(body).get('token') ?? '';
        const [, payload] = token.split('.');
        send(
          200,
          payload
            ? { active: true, ...JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) }
            : { active: false },
        );
      } else send(404, {});
    });
  });
  state.issuer = (await listenOnRandomPort(server)).origin;
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return state;
}

async function startProtected(
  authorization: TestAuthorizationServer,
  extra: Partial<OAuthResourceOptions> = {},
): Promise<ServeHandle & { url: string }> {
  let audience = '';
  const handle = (await serve(createEchoServer(), {
    transport: {
      type: 'http',
      port: 0,
      json: true,
      auth: {
        type: 'oauth',
        authorizationServers: [authorization.issuer],
        verifyToken: (token) =>
          createJwtVerifier({
            jwksUrl: `${authorization.issuer}/jwks`,
            issuer: authorization.issuer,
            audience,
            algorithms: ['ES256'],
          })(token),
        requiredScopes: ['mcp'],
        toolScopes: { add: ['math'] },
        ...extra,
      },
    },
  })) as ServeHandle & { url: string };
  cleanups.push(() => handle.close());
  audience = handle.url;
  authorization.audience = handle.url;
  return handle;
}

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
});
const post = (url: string, body: string, token?: string) =>
  fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body,
  });

describe('protected serving (OAuth resource server)', () => {
  test('serves protected-resource metadata and challenges a request without a token', async () => {
    const authorization = await startAuthorizationServer();
    const handle = await startProtected(authorization);
    const base = new URL(handle.url).origin;
    const metadata = await (await fetch(`${base}/.well-known/oauth-protected-resource/mcp`)).json();
    expect(metadata).toMatchObject({
      resource: handle.url,
      authorization_servers: [authorization.issuer],
      scopes_supported: ['mcp', 'math'],
    });
    const refused = await post(handle.url, initialize);
    expect(refused.status).toBe(401);
    const challenge = refused.headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(/^Bearer /);
    expect(challenge).toContain(`resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`);
    expect(challenge).toContain('scope="mcp"');
  });

  test('accepts a valid JWT; refuses a wrong audience, an expired one, a forged one; per-tool scopes answer 403', async () => {
    const authorization = await startAuthorizationServer();
    const handle = await startProtected(authorization);
    expect((await post(handle.url, initialize, authorization.token())).status).toBe(200);
    for (const bad of [
      authorization.token({ aud: 'https://other.example/mcp' }),
      authorization.token({ exp: Math.floor(Date.now() / 1000) - 3600 }),
      authorization.token({ iss: 'https://evil.example' }),
      `${authorization.token().slice(0, -4)}AAAA`,
    ]) {
      const response = await post(handle.url, initialize, bad);
      expect(response.status).toBe(401);
      expect(await response.text()).not.toContain(bad);
    }
    const callAdd = JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'add', arguments: { a: 1, b: 2 } },
    });
    const forbidden = await post(handle.url, callAdd, authorization.token());
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers.get('www-authenticate')).toMatch(/error="insufficient_scope".*scope="mcp math"/);
    const allowed = await post(handle.url, callAdd, authorization.token({ scope: 'mcp math' }));
    expect(allowed.status).toBe(200);
    expect(JSON.stringify(await allowed.json())).toContain('3');
  });

  test('introspection verifier (RFC 7662)', async () => {
    const authorization = await startAuthorizationServer();
    const handle = await startProtected(authorization, {
      verifyToken: (token) =>
        createIntrospectionVerifier({
          introspectionUrl: `${authorization.issuer}/introspect`,
          clientId: 'resource',
          clientSecret: 'resource-secret',
          audience: authorization.audience,
        })(token),
    });
    expect((await post(handle.url, initialize, authorization.token())).status).toBe(200);
    expect((await post(handle.url, initialize, authorization.token({ aud: 'elsewhere' }))).status).toBe(401);
  });

  test('end to end: @switchboard/client with client credentials from config signs in, calls, and steps up for a scoped tool', async () => {
    const authorization = await startAuthorizationServer();
    const handle = await startProtected(authorization);
    const client = await createMcpClient(
      'protected',
      {
        url: handle.url,
        auth: { grantType: 'client_credentials', clientId: 'robot', clientSecret: 'robot-secret' },
      },
      { auth: { store: createMemoryTokenStore() } },
    );
    cleanups.push(() => client.close());
    const echo = await client.callTool('echo', { message: 'hi' });
    expect(JSON.stringify(echo)).toContain('hi');
    const sum = await client.callTool('add', { a: 2, b: 3 });
    expect(JSON.stringify(sum)).toContain('5');
  });
});
