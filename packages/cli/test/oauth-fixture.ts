/**
 * A small OAuth world for sign-in tests: an authorization server (dynamic registration,
 * authorization code + PKCE, tokens it remembers) and a real `serve()` MCP endpoint that accepts
 * only its tokens.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpServer, defineTool, type ServeHandle, serve } from '@switchboard/server';

/** Dynamic registration, authorization code + PKCE, and the issued tokens for the resource server to check. */
export async function startAuthorizationServer() {
  const issued = new Map<string, { scopes: string[]; expiresAt: number }>();
  const codes = new Map<string, string>();
  let issuer = '';
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const url = new URL(request.url ?? '/', issuer);
      const send = (status: number, value: unknown) =>
        response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      if (url.pathname === '/.well-known/oauth-authorization-server') {
        send(200, {
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          registration_endpoint: `${issuer}/register`,
          response_types_supported: ['code'],
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: ['none'],
        });
      } else if (url.pathname === '/register') {
        send(201, { ...JSON.parse(body), client_id: 'cli-client', token_endpoint_auth_method: 'none' });
      } else if (url.pathname === '/authorize') {
        const code = randomBytes(8).toString('hex');
        codes.set(code, url.searchParams.get('code_challenge') ?? '');
        const target = new URL(url.searchParams.get('redirect_uri') ?? '');
        target.searchParams.set('code', code);
        target.searchParams.set('state', url.searchParams.get('state') ?? '');
        response.writeHead(302, { location: target.href }).end();
      } else if (url.pathname === '/token') {
        const form = new URLSearchParams(body);
        const challenge = createHash('sha256')
          .update(form.get('code_verifier') ?? '')
          .digest('base64url');
        if (codes.get(form.get('code') ?? '') !== challenge) {
          send(400, { error: 'invalid_grant' });
          return;
        }
        const token = `cli-secret-token-${randomBytes(8).toString('hex')}`;
        issued.set(token, { scopes: ['notes'], expiresAt: Math.floor(Date.now() / 1000) + 600 });
        send(200, { access_token: token, token_type: 'Bearer', expires_in: 600, scope: 'notes' });
      } else send(404, {});
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    issued,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A protected MCP server with one tool (`list_notes`), accepting the tokens `authorization` issued. */
export async function startProtectedNotesServer(
  authorization: Awaited<ReturnType<typeof startAuthorizationServer>>,
): Promise<ServeHandle & { url: string }> {
  const mcp = createMcpServer({
    name: 'notes',
    version: '1.0.0',
    tools: [
      defineTool({
        name: 'list_notes',
        description: 'Lists notes',
        input: { type: 'object', properties: {} },
        execute: async () => 'no notes yet',
      }),
    ],
  });
  return (await serve(mcp, {
    transport: {
      type: 'http',
      port: 0,
      auth: {
        type: 'oauth',
        authorizationServers: [authorization.issuer],
        verifyToken: async (token) => {
          const grant = authorization.issued.get(token);
          if (!grant) throw new Error('unknown token');
          return grant;
        },
      },
    },
  })) as ServeHandle & { url: string };
}
