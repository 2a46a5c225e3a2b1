import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { type Logger, SwitchboardError } from '@switchboard/core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createFileTokenStore,
  createMemoryTokenStore,
  createOAuthProvider,
  createStreamableHttpTransport,
  type OAuthProviderOptions,
  type TokenStore,
} from '../src/index.js';
import {
  type AuthorizationServer,
  followRedirect,
  type ResourceServer,
  startAuthorizationServer,
  startResourceServer,
} from './support/oauth-servers.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

async function servers(
  options: Parameters<typeof startResourceServer>[1] = {},
  clientCredentials?: Record<string, string>,
): Promise<{ authorization: AuthorizationServer; resource: ResourceServer }> {
  const authorization = await startAuthorizationServer(clientCredentials ? { clientCredentials } : {});
  cleanups.push(() => authorization.close());
  const resource = await startResourceServer(authorization, options);
  cleanups.push(() => resource.close());
  return { authorization, resource };
}

/** A logger that keeps every line it is given, to check that no secret reaches it. */
function recordingLogger(lines: string[]): Logger {
  const record =
    (level: string) =>
    (...args: unknown[]) => {
      lines.push(`${level} ${JSON.stringify(args)}`);
    };
  return {
    trace: record('trace'),
    debug: record('debug'),
    info: record('info'),
    warn: record('warn'),
    error: record('error'),
  } as unknown as Logger;
}

async function connect(
  url: string,
  providerOptions: Omit<OAuthProviderOptions, 'serverUrl'>,
  logger?: Logger,
): Promise<Client> {
  const provider = createOAuthProvider({ serverUrl: url, serverName: 'protected', ...providerOptions });
  const transport = createStreamableHttpTransport({
    url,
    name: 'protected',
    authProvider: provider,
    ...(logger ? { logger } : {}),
  });
  const client = new Client({ name: 'oauth-test', version: '1.0.0' });
  await client.connect(transport);
  cleanups.push(() => client.close());
  return client;
}

describe('OAuth through the Streamable HTTP transport', () => {
  it('signs in through the loopback redirect (DCR + PKCE), stores tokens in a 0600 file, and reuses them on the next run', async () => {
    const { authorization, resource } = await servers({ scopes: { 'tools/list': ['read'] } });
    const home = await mkdtemp(join(tmpdir(), 'sb-oauth-'));
    cleanups.push(() => rm(home, { recursive: true, force: true }));
    const directory = join(home, '.switchboard', 'auth');
    const store = createFileTokenStore({ directory });
    const opened: URL[] = [];

    const first = await connect(resource.url, {
      store,
      openUrl: async (url) => {
        opened.push(url);
        await followRedirect(url);
      },
    });
    expect((await first.listTools()).tools.map((tool) => tool.name)).toEqual(['whoami']);
    expect(opened).toHaveLength(1);
    expect(opened[0]?.searchParams.get('code_challenge_method')).toBe('S256');
    expect(opened[0]?.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(authorization.authorizations[0]?.resource).toBe(resource.url);
    expect(authorization.registrations).toHaveLength(1);

    const files = await readdir(directory);
    expect(files).toHaveLength(1);
    expect((await stat(join(directory, files[0] as string))).mode & 0o777).toBe(0o600);
    expect((await stat(directory)).mode & 0o777).toBe(0o700);
    const record = await store.load(resource.url);
    expect(record?.tokens?.access_token).toMatch(/^secret-access-/);
    expect(record?.codeVerifier).toBeUndefined();
    await first.close();

    // A second process: same store, no browser, no new registration or sign-in.
    const second = await connect(resource.url, { store });
    expect((await second.listTools()).tools).toHaveLength(1);
    expect(authorization.registrations).toHaveLength(1);
    expect(authorization.authorizations).toHaveLength(1);
  });

  it('refreshes an expired access token with the refresh token, without a new sign-in', async () => {
    const { authorization, resource } = await servers({ scopes: {} });
    authorization.expiresIn = 1;
    const store = createMemoryTokenStore();
    const client = await connect(resource.url, { store, openUrl: followRedirect });
    expect(authorization.authorizations).toHaveLength(1);
    // The 1 s lifetime runs out now rather than in a second: every token issued so far is refused.
    for (const issued of authorization.accessTokens.values()) issued.expiresAt = Date.now();
    const refreshes = () =>
      authorization.tokenRequests.filter((request) => request.grantType === 'refresh_token').length;
    const before = refreshes();
    await client.listTools();
    expect(refreshes()).toBeGreaterThan(before);
    expect(authorization.authorizations).toHaveLength(1);
  });

  it('registers again after invalid_client and signs in anew', async () => {
    const { authorization, resource } = await servers({ scopes: {} });
    const store = createMemoryTokenStore();
    const first = await connect(resource.url, { store, openUrl: followRedirect });
    await first.close();
    // The authorization server lost its registrations and the stored access token is no longer valid.
    authorization.forgetClients();
    authorization.accessTokens.clear();
    const second = await connect(resource.url, { store, openUrl: followRedirect });
    expect((await second.listTools()).tools).toHaveLength(1);
    expect(authorization.registrations).toHaveLength(2);
    expect(authorization.authorizations).toHaveLength(2);
  });

  it('steps up on 403 insufficient_scope, keeping the scopes granted before', async () => {
    const { authorization, resource } = await servers();
    const client = await connect(resource.url, { store: createMemoryTokenStore(), openUrl: followRedirect });
    await client.listTools();
    expect(authorization.authorizations.map((entry) => entry.scope)).toEqual(['read']);
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    expect(result.content).toEqual([
      { type: 'text', text: `client ${authorization.registrations[0]?.clientId}` },
    ]);
    expect(authorization.authorizations).toHaveLength(2);
    expect(authorization.authorizations[1]?.scope?.split(' ').sort()).toEqual(['read', 'write']);
  });

  it('without a way to open a browser, fails with NEEDS_AUTH naming `switchboard auth`, before registering', async () => {
    const { authorization, resource } = await servers();
    const error = await connect(resource.url, { store: createMemoryTokenStore() }).catch((caught) => caught);
    expect(SwitchboardError.hasCode(error, 'NEEDS_AUTH')).toBe(true);
    expect((error as Error).message).toContain('switchboard auth protected');
    expect(authorization.registrations).toHaveLength(0);
    expect(authorization.authorizations).toHaveLength(0);
  });

  it('client credentials for headless use: pre-registered id and secret, no browser', async () => {
    const { authorization, resource } = await servers({ scopes: {} }, { 'robot-1': 'robot-secret-value' });
    const client = await connect(resource.url, {
      store: createMemoryTokenStore(),
      grantType: 'client_credentials',
      clientId: 'robot-1',
      clientSecret: 'robot-secret-value',
    });
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'client robot-1' }]);
    expect(authorization.tokenRequests.map((request) => request.grantType)).toEqual(['client_credentials']);
    expect(authorization.registrations).toHaveLength(0);
  });

  it('keeps tokens and client secrets out of errors and logs', async () => {
    const { authorization, resource } = await servers(
      { alwaysReject: true },
      { 'robot-2': 'robot-secret-value' },
    );
    const lines: string[] = [];
    const store: TokenStore = createMemoryTokenStore();
    const error = await connect(
      resource.url,
      { store, grantType: 'client_credentials', clientId: 'robot-2', clientSecret: 'robot-secret-value' },
      recordingLogger(lines),
    ).catch((caught) => caught);
    expect(SwitchboardError.hasCode(error, 'UNAUTHORIZED')).toBe(true);
    // Tokens were issued (twice: the first 401 and the retry) and sent, yet appear nowhere.
    const issued = [...authorization.accessTokens.keys()];
    expect(issued.length).toBeGreaterThan(0);
    expect(resource.seenAuthorization.some((header) => header === `Bearer ${issued[0]}`)).toBe(true);
    const surfaces = [
      (error as Error).message,
      (error as Error).stack ?? '',
      JSON.stringify(error),
      JSON.stringify((error as SwitchboardError).context),
      ...lines,
    ].join('\n');
    for (const token of issued) expect(surfaces).not.toContain(token);
    expect(surfaces).not.toContain('robot-secret-value');
    expect(surfaces).not.toContain('secret-access-');
  });
});
