import { createServer, type Server } from 'node:http';
import { SwitchboardError } from '@switchboard/core';
import {
  createTemporaryDirectory,
  listenOnRandomPort,
  serverScript,
  type TemporaryDirectory,
} from '@switchboard/test-helpers';
import { AuthorizationErrorCode, createMemoryTokenStore } from '@switchboard/transports';
import { afterEach, describe, expect, it } from 'vitest';
import { connectMcp, createServerAuthProvider, loadConfig, type McpConnection } from '../src/index.js';
import { authSecrets } from '../src/server-auth.js';

const everything = serverScript('server-everything');

/** `${NAME}` as config files spell a variable. */
const variable = (name: string) => `$${'{'}${name}}`;

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

/** A server following the MCP authorization spec: every request without a token gets a 401 challenge. */
async function startProtectedServer(): Promise<{ url: string; requests: string[] }> {
  const requests: string[] = [];
  let base = '';
  const server: Server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    response
      .writeHead(401, {
        'content-type': 'application/json',
        'www-authenticate': `Bearer error="invalid_token", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
      })
      .end(JSON.stringify({ error: 'invalid_token' }));
  });
  const listening = await listenOnRandomPort(server);
  base = listening.origin;
  cleanups.push(listening.close);
  return { url: `${base}/mcp`, requests };
}

describe('OAuth in connectMcp and the config', () => {
  it('a server needing a sign-in is needs-auth with a `switchboard auth` hint; the others work', async () => {
    const protectedServer = await startProtectedServer();
    const connection: McpConnection = await connectMcp(
      {
        remote: { url: protectedServer.url },
        local: { command: process.execPath, args: [everything, 'stdio'] },
      },
      { onError: 'skip' },
    );
    cleanups.push(() => connection.close());
    const status = connection.status();
    expect(status.remote?.state).toBe('needs-auth');
    expect(status.remote?.lastError?.code).toBe('NEEDS_AUTH');
    expect(status.remote?.lastError?.message).toContain('switchboard auth remote');
    expect(status.local?.state).toBe('connected');
    const echo = Object.keys(connection.tools).find((name) => name.endsWith('echo'));
    expect(echo).toBeDefined();
    // No sign-in was attempted without a person: no discovery beyond the refused MCP request.
    expect(protectedServer.requests.every((line) => line.startsWith('POST /mcp'))).toBe(true);
  }, 60_000);

  let temp: TemporaryDirectory | undefined;
  afterEach(async () => {
    temp?.remove();
    temp = undefined;
  });

  it('reads a per-server auth block with $VAR credentials and rejects a bad one naming its path', async () => {
    temp = createTemporaryDirectory('switchboard-config-');
    const file = temp.write(
      'mcp.json',
      JSON.stringify({
        mcpServers: {
          remote: {
            url: 'https://mcp.example.com/mcp',
            auth: {
              grantType: 'client_credentials',
              clientId: variable('CLIENT_ID'),
              clientSecret: variable('CLIENT_SECRET'),
              scopes: ['read', 'write'],
            },
          },
          plain: { url: 'https://other.example.com/mcp', auth: false },
        },
      }),
    );
    const config = await loadConfig({
      configFile: file,
      env: { CLIENT_ID: 'robot', CLIENT_SECRET: 'very-secret-value' },
    });
    expect(config.mcpServers.remote?.auth).toEqual({
      grantType: 'client_credentials',
      clientId: 'robot',
      clientSecret: 'very-secret-value',
      scopes: ['read', 'write'],
    });
    expect(config.mcpServers.plain?.auth).toBe(false);
    const provider = createServerAuthProvider('remote', config.mcpServers.remote ?? {}, {
      store: createMemoryTokenStore(),
    });
    expect(provider?.grantType).toBe('client_credentials');
    expect(provider?.redirectUrl).toBeUndefined();
    expect(createServerAuthProvider('plain', config.mcpServers.plain ?? {})).toBeUndefined();
    expect(
      createServerAuthProvider('static', {
        url: 'https://x.example/mcp',
        headers: { Authorization: 'Bearer t' },
      }),
    ).toBeUndefined();

    const bad = temp.write(
      'bad.json',
      JSON.stringify({
        mcpServers: { remote: { url: 'https://x.example/mcp', auth: { grantType: 'password' } } },
      }),
    );
    const error = await loadConfig({ configFile: bad, env: {} }).catch((caught) => caught);
    expect(String((error as Error).message)).toMatch(/auth.*grantType/);
  });

  it('reads workload identity, enterprise IdP and DPoP settings; file secrets are read at each use', async () => {
    temp = createTemporaryDirectory('switchboard-config-');
    const tokenFile = temp.write('workload.jwt', 'workload-token-v1\n');
    const file = temp.write(
      'mcp.json',
      JSON.stringify({
        mcpServers: {
          workload: {
            url: 'https://mcp.example.com/mcp',
            auth: {
              grantType: 'workload_identity',
              clientId: 'workload-1',
              assertionFile: tokenFile,
              issuer: 'https://auth.example.com',
              dpop: { alg: 'ES384' },
            },
          },
          enterprise: {
            url: 'https://mcp.example.com/other',
            auth: {
              grantType: 'enterprise_managed',
              clientId: 'xaa-client',
              clientSecret: variable('XAA_SECRET'),
              identityProvider: {
                issuer: 'https://idp.example.com',
                clientId: 'idp-client',
                idToken: variable('ID_TOKEN'),
              },
              dpop: true,
            },
          },
        },
      }),
    );
    const config = await loadConfig({
      configFile: file,
      env: { XAA_SECRET: 'xaa-secret-value', ID_TOKEN: 'id-token-value' },
    });
    expect(config.mcpServers.workload?.auth).toEqual({
      grantType: 'workload_identity',
      clientId: 'workload-1',
      assertionFile: tokenFile,
      issuer: 'https://auth.example.com',
      dpop: { alg: 'ES384' },
    });
    expect(config.mcpServers.enterprise?.auth).toMatchObject({
      grantType: 'enterprise_managed',
      clientSecret: 'xaa-secret-value',
      identityProvider: {
        issuer: 'https://idp.example.com',
        clientId: 'idp-client',
        idToken: 'id-token-value',
      },
      dpop: true,
    });
    expect(authSecrets(config.mcpServers.enterprise ?? {}).sort()).toEqual([
      'id-token-value',
      'xaa-secret-value',
    ]);

    const provider = createServerAuthProvider('workload', config.mcpServers.workload ?? {}, {
      store: createMemoryTokenStore(),
    });
    expect(provider?.grantType).toBe('workload_identity');
    expect(provider?.redirectUrl).toBeUndefined();
    expect(typeof provider?.dpop).toBe('function');
    const context = { issuer: 'https://auth.example.com' };
    expect(await provider?.assertion(context)).toBe('workload-token-v1');
    temp.write('workload.jwt', 'workload-token-v2\n');
    expect(await provider?.assertion(context)).toBe('workload-token-v2');

    const missing = createServerAuthProvider(
      'workload',
      {
        url: 'https://mcp.example.com/mcp',
        auth: { grantType: 'workload_identity', clientId: 'w', assertionFile: `${temp.path}/gone.jwt` },
      },
      { store: createMemoryTokenStore() },
    );
    const error = await missing?.assertion(context)?.catch((caught) => caught);
    expect(SwitchboardError.hasCode(error, AuthorizationErrorCode.AuthFailed)).toBe(true);
    expect((error as Error).message).toContain(
      `cannot read auth.assertionFile ${temp.path}/gone.jwt (ENOENT)`,
    );
  });

  it.each([
    [{ grantType: 'workload_identity', clientId: 'w' }, [], 'needs exactly one of "assertion"'],
    [
      { grantType: 'workload_identity', assertion: 'secret-jwt-value' },
      ['clientId'],
      'needs a pre-registered clientId',
    ],
    [{ assertion: 'secret-jwt-value' }, ['assertion'], 'only the workload_identity grant sends an assertion'],
    [
      { grantType: 'enterprise_managed', clientId: 'x' },
      ['identityProvider'],
      'needs the enterprise identity provider',
    ],
    [
      {
        grantType: 'enterprise_managed',
        clientId: 'x',
        identityProvider: {
          issuer: 'https://idp.example',
          tokenEndpoint: 'https://idp.example/token',
          clientId: 'i',
          idToken: 'secret-id-token',
        },
      },
      ['identityProvider'],
      'exactly one of "issuer"',
    ],
    [
      {
        grantType: 'enterprise_managed',
        clientId: 'x',
        identityProvider: { issuer: 'https://idp.example', idToken: 'secret-id-token' },
      },
      ['identityProvider', 'clientId'],
      "needs this client's clientId there",
    ],
    [{ dpop: { alg: 'HS256' } }, ['dpop', 'alg'], 'expected one of ES256'],
    [{ dpop: 'yes' }, ['dpop'], 'expected true, false or { "alg": "ES256" }'],
    [{ issuer: 'auth.example.com' }, ['issuer'], 'expected an http(s) URL'],
    [{ grantType: 'password' }, ['grantType'], 'expected one of "authorization_code", "client_credentials"'],
  ])('rejects auth %j at its path without quoting secrets', async (auth, where, message) => {
    temp = createTemporaryDirectory('switchboard-config-');
    const file = temp.write(
      'mcp.json',
      JSON.stringify({ mcpServers: { remote: { url: 'https://x.example/mcp', auth } } }),
    );
    const error = await loadConfig({ configFile: file, env: {} }).catch((caught) => caught);
    const text = String((error as Error).message);
    expect(text).toContain(['remote', 'auth', ...where].join('.'));
    expect(text).toContain(message);
    expect(text).not.toContain('secret-jwt-value');
    expect(text).not.toContain('secret-id-token');
  });
});
