// `switchboard auth`: signs in to a real protected `serve()` endpoint through a small in-test
// authorization server (dynamic registration, authorize with PKCE, token), following the printed
// URL the way a browser would; then `--list`, a connected `tools`, and `--revoke`.
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createMcpServer, defineTool, type ServeHandle, serve } from '@switchboard/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commands, runCli } from '../src/index.js';
import { createSandbox } from './run-cli-helper.js';

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

let savedHome: string | undefined;
beforeEach(() => {
  savedHome = process.env.SWITCHBOARD_HOME;
});
afterEach(() => {
  if (savedHome === undefined) delete process.env.SWITCHBOARD_HOME;
  else process.env.SWITCHBOARD_HOME = savedHome;
});

/** Dynamic registration, authorization code + PKCE, and the issued tokens for the resource server to check. */
async function startAuthorizationServer() {
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
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return { issuer, issued };
}

describe('switchboard auth', () => {
  it('signs in through the printed URL, lists the sign-in, connects with it, and revokes it', async () => {
    const authorization = await startAuthorizationServer();
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
    const handle = (await serve(mcp, {
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
    cleanups.push(() => handle.close());

    const sandbox = createSandbox();
    cleanups.push(() => sandbox.cleanup());
    process.env.SWITCHBOARD_HOME = sandbox.home;
    sandbox.writeConfig(join(sandbox.root, 'mcp.json'), { notes: { url: handle.url } });
    const run = (argv: string[]) => sandbox.run([...argv, '--config', join(sandbox.root, 'mcp.json')]);

    // The sign-in: the CLI prints the URL; this "browser" follows it to the loopback redirect.
    let stdout = '';
    let stderr = '';
    let followed: Promise<void> | undefined;
    const code = await runCli(
      ['auth', 'notes', '--no-browser', '--config', join(sandbox.root, 'mcp.json')],
      {
        stdout: { write: (text: string) => (stdout += text) },
        stderr: {
          write: (text: string) => {
            stderr += text;
            const url = /(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)/.exec(text)?.[1];
            if (url && !followed) {
              followed = (async () => {
                const answer = await fetch(url, { redirect: 'manual' });
                await (await fetch(answer.headers.get('location') ?? '')).text();
              })();
            }
          },
        },
        env: sandbox.env,
        cwd: sandbox.cwd,
      },
      commands,
    );
    await followed;
    expect(stderr).toContain('/authorize?');
    expect(code).toBe(0);
    expect(stdout).toContain("Signed in to 'notes' (scope: notes)");
    const token = [...authorization.issued.keys()][0] as string;
    expect(`${stdout}${stderr}`).not.toContain(token);
    const directory = join(sandbox.home, '.switchboard', 'auth');
    const files = readdirSync(directory);
    expect(files).toHaveLength(1);
    expect(statSync(join(directory, files[0] as string)).mode & 0o777).toBe(0o600);

    const list = await run(['auth', '--list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/notes\s+http:\/\/127\.0\.0\.1:\d+\/mcp\s+signed in, token valid/);
    expect(list.stdout).not.toContain(token);

    // Other commands connect with the stored token.
    const tools = await run(['tools', '--json']);
    expect(tools.stdout).toContain('list_notes');

    const revoke = await run(['auth', '--revoke', 'notes']);
    expect(revoke.code).toBe(0);
    expect(revoke.stdout).toContain("Forgot the sign-in of 'notes'");
    expect((await run(['auth', '--list'])).stdout).toContain('No stored sign-ins');
  }, 60_000);

  it('explains what is wrong: unknown server, a stdio server, a revoke without a sign-in', async () => {
    const sandbox = createSandbox();
    cleanups.push(() => sandbox.cleanup());
    sandbox.writeConfig(join(sandbox.root, 'mcp.json'), { local: { command: 'node', args: ['x.js'] } });
    const run = (argv: string[]) => sandbox.run([...argv, '--config', join(sandbox.root, 'mcp.json')]);
    const unknown = await run(['auth', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown server 'nope'");
    const stdio = await run(['auth', 'local']);
    expect(stdio.code).toBe(2);
    expect(stdio.stderr).toContain('only remote (HTTP) servers sign in');
    const revoke = await run(['auth', '--revoke', 'local']);
    expect(revoke.code).toBe(2);
    expect(revoke.stderr).toContain("no sign-in stored for 'local'");
  });
});
