// DPoP (RFC 9449, SEP-1932): a sender-constrained token asked for with a proof at the token
// endpoint, presented with the DPoP scheme and a fresh proof on every request, nonces of both
// servers answered, and the key kept with the tokens it binds.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SwitchboardError } from '@switchboard/core';
import { describe, expect, it } from 'vitest';
import { createFileTokenStore, createMemoryTokenStore } from '../src/index.js';
import {
  connectWithOAuth,
  onCleanup,
  recordingLogger,
  startOAuthServers,
  surfacesOf,
} from './support/oauth-client.js';
import { followRedirect } from './support/oauth-servers.js';

describe('DPoP', () => {
  it('asks for a DPoP-bound token with a proof and presents it with the DPoP scheme and a fresh proof per request', async () => {
    const { authorization, resource } = await startOAuthServers({ scopes: {}, dpop: {} }, { dpop: {} });
    const store = createMemoryTokenStore();
    const { client } = await connectWithOAuth(resource.url, { store, dpop: true, openUrl: followRedirect });
    await client.listTools();
    await client.callTool({ name: 'whoami', arguments: {} });
    expect(authorization.tokenRequests.map((request) => [request.grantType, request.dpop])).toEqual([
      ['authorization_code', true],
    ]);
    expect((await store.load(resource.url))?.tokens?.token_type).toBe('DPoP');
    const presented = resource.seenAuthorization.filter((header) => header !== '');
    expect(presented.length).toBeGreaterThanOrEqual(3);
    expect(presented.every((header) => header.startsWith('DPoP secret-access-'))).toBe(true);
    const jtis = resource.seenProofs.map((proof) => proof.jti);
    expect(jtis).toHaveLength(presented.length);
    expect(new Set(jtis).size).toBe(jtis.length);
  });

  it('answers the nonce challenges of the token endpoint and of the MCP server once each, then sends the nonce unasked', async () => {
    const { authorization, resource } = await startOAuthServers(
      { scopes: {}, dpop: { requireNonce: true } },
      { dpop: { requireNonce: true } },
    );
    const { client } = await connectWithOAuth(resource.url, {
      store: createMemoryTokenStore(),
      dpop: true,
      openUrl: followRedirect,
    });
    await client.listTools();
    await client.callTool({ name: 'whoami', arguments: {} });
    expect(authorization.nonceChallenges).toBe(1);
    expect(
      authorization.tokenRequests.filter((request) => request.grantType === 'authorization_code'),
    ).toHaveLength(2);
    expect(resource.nonceChallenges).toBe(1);
    const nonces = resource.seenProofs.map((proof) => proof.nonce);
    expect(nonces[0]).toBeUndefined();
    expect(nonces.slice(1).every((nonce) => nonce === 'rs-nonce-1')).toBe(true);
  });

  it('keeps the DPoP key with the tokens: a second process presents the stored token without a new sign-in', async () => {
    const { authorization, resource } = await startOAuthServers({ scopes: {}, dpop: {} }, { dpop: {} });
    const home = await mkdtemp(join(tmpdir(), 'sb-dpop-'));
    onCleanup(() => rm(home, { recursive: true, force: true }));
    const store = createFileTokenStore({ directory: home });
    const first = await connectWithOAuth(resource.url, { store, dpop: true, openUrl: followRedirect });
    await first.client.listTools();
    await first.client.close();
    const saved = JSON.parse(await readFile(join(home, (await readdir(home))[0] as string), 'utf8'));
    expect(saved.dpopKey.alg).toBe('ES256');
    expect(typeof saved.dpopKey.privateJwk.d).toBe('string');

    const second = await connectWithOAuth(resource.url, { store, dpop: true });
    expect((await second.client.listTools()).tools).toHaveLength(1);
    expect(authorization.authorizations).toHaveLength(1);
    expect(authorization.tokenRequests).toHaveLength(1);
  });

  it('keeps tokens and the DPoP private key out of errors and logs', async () => {
    const { authorization, resource } = await startOAuthServers(
      { scopes: {}, dpop: {}, alwaysReject: true },
      { dpop: {}, clientCredentials: { 'robot-3': 'robot-secret-value' } },
    );
    const store = createMemoryTokenStore();
    const lines: string[] = [];
    const error = await connectWithOAuth(
      resource.url,
      {
        store,
        dpop: true,
        grantType: 'client_credentials',
        clientId: 'robot-3',
        clientSecret: 'robot-secret-value',
      },
      recordingLogger(lines),
    ).catch((caught) => caught);
    expect(SwitchboardError.hasCode(error, 'UNAUTHORIZED')).toBe(true);
    const privateKey = (await store.load(resource.url))?.dpopKey?.privateJwk.d as string;
    expect(privateKey.length).toBeGreaterThan(20);
    const surfaces = surfacesOf(error, lines);
    expect(surfaces).not.toContain(privateKey);
    for (const token of authorization.accessTokens.keys()) expect(surfaces).not.toContain(token);
    expect(surfaces).not.toContain('robot-secret-value');
  });
});
