// The RFC 7523 JWT-bearer grant: workload identity federation (SEP-1933), where the workload's
// identity token is the assertion, and enterprise-managed authorization (SEP-990), where the
// enterprise IdP exchanges the user's ID token for an ID-JAG that is.
import { SwitchboardError } from '@switchboard/core';
import { describe, expect, it } from 'vitest';
import { AuthorizationErrorCode, createMemoryTokenStore } from '../src/index.js';
import { connectWithOAuth, onCleanup, startOAuthServers, surfacesOf } from './support/oauth-client.js';
import { createWorkloadIdentity, startIdentityProvider } from './support/oauth-servers.js';

const jwtBearer = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

describe('workload identity (JWT-bearer grant with the workload token)', () => {
  it('sends the workload token as the assertion of one jwt-bearer token request: no registration, no browser', async () => {
    const workload = await createWorkloadIdentity();
    const { authorization, resource } = await startOAuthServers(
      { scopes: {} },
      { publicClients: ['workload-1'], jwtBearer: { key: workload.publicKey } },
    );
    const audiences: string[] = [];
    const { client } = await connectWithOAuth(resource.url, {
      store: createMemoryTokenStore(),
      grantType: 'workload_identity',
      clientId: 'workload-1',
      assertion: ({ issuer }) => {
        audiences.push(issuer);
        return workload.token(authorization.url);
      },
    });
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'client workload-1' }]);
    expect(audiences).toEqual([authorization.url]);
    expect(authorization.tokenRequests).toHaveLength(1);
    expect(authorization.tokenRequests[0]?.grantType).toBe(jwtBearer);
    expect(authorization.tokenRequests[0]?.assertion?.sub).toBe('workload-1');
    expect(authorization.registrations).toHaveLength(0);
    expect(authorization.authorizations).toHaveLength(0);
  });

  it('surfaces a refused assertion as the error, without a second try or another grant', async () => {
    const workload = await createWorkloadIdentity();
    const { authorization, resource } = await startOAuthServers(
      { scopes: {} },
      { publicClients: ['workload-1'], jwtBearer: { key: workload.publicKey } },
    );
    const expired = await workload.token(authorization.url, '-60s');
    const error = await connectWithOAuth(resource.url, {
      store: createMemoryTokenStore(),
      grantType: 'workload_identity',
      clientId: 'workload-1',
      assertion: expired,
    }).catch((caught) => caught);
    expect(SwitchboardError.hasCode(error, AuthorizationErrorCode.AuthFailed)).toBe(true);
    expect((error as Error).message).toContain('invalid_grant');
    expect((error as Error).message).toContain('assertion rejected (ERR_JWT_EXPIRED)');
    expect(authorization.tokenRequests.map((request) => request.grantType)).toEqual([jwtBearer]);
    expect(surfacesOf(error)).not.toContain(expired);
  });

  it('reads the assertion anew for each token request (workload tokens rotate)', async () => {
    const workload = await createWorkloadIdentity();
    const { authorization, resource } = await startOAuthServers(
      { scopes: {} },
      { publicClients: ['workload-1'], jwtBearer: { key: workload.publicKey } },
    );
    authorization.expiresIn = 1;
    let reads = 0;
    const { client } = await connectWithOAuth(resource.url, {
      store: createMemoryTokenStore(),
      grantType: 'workload_identity',
      clientId: 'workload-1',
      assertion: () => {
        reads += 1;
        return workload.token(authorization.url);
      },
    });
    // A token that lives 1 s counts as expired at once (30 s margin): each request gets a new one.
    await client.listTools();
    expect(reads).toBeGreaterThanOrEqual(2);
    expect(authorization.tokenRequests).toHaveLength(reads);
    const jtis = authorization.tokenRequests.map((request) => request.assertion?.jti);
    expect(new Set(jtis).size).toBe(reads);
  });
});

describe('enterprise-managed authorization (ID-JAG)', () => {
  it('exchanges the ID token at the IdP for an ID-JAG naming this authorization server and resource, then uses it as the assertion', async () => {
    const identityProvider = await startIdentityProvider({ mcpClientId: 'xaa-client' });
    onCleanup(() => identityProvider.close());
    const { authorization, resource } = await startOAuthServers(
      { scopes: {} },
      {
        clientCredentials: { 'xaa-client': 'xaa-secret-value' },
        jwtBearer: { key: identityProvider.jagPublicKey, idJag: true },
      },
    );
    const idToken = await identityProvider.idToken('alice@example.com', 'idp-client');
    const { client } = await connectWithOAuth(resource.url, {
      store: createMemoryTokenStore(),
      grantType: 'enterprise_managed',
      clientId: 'xaa-client',
      clientSecret: 'xaa-secret-value',
      identityProvider: { issuer: identityProvider.url, clientId: 'idp-client', idToken },
    });
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'client xaa-client' }]);
    expect(identityProvider.exchanges).toHaveLength(1);
    expect(identityProvider.exchanges[0]).toMatchObject({
      audience: authorization.url,
      resource: resource.url,
      client_id: 'idp-client',
    });
    expect(authorization.tokenRequests).toHaveLength(1);
    expect(authorization.tokenRequests[0]).toMatchObject({ grantType: jwtBearer, clientId: 'xaa-client' });
    expect(authorization.tokenRequests[0]?.assertion).toMatchObject({
      sub: 'alice@example.com',
      resource: resource.url,
      client_id: 'xaa-client',
    });
  });

  it('an IdP that refuses the ID token is the error; nothing reaches the authorization server', async () => {
    const identityProvider = await startIdentityProvider({ mcpClientId: 'xaa-client' });
    onCleanup(() => identityProvider.close());
    const { authorization, resource } = await startOAuthServers(
      { scopes: {} },
      {
        clientCredentials: { 'xaa-client': 'xaa-secret-value' },
        jwtBearer: { key: identityProvider.jagPublicKey, idJag: true },
      },
    );
    // An ID token for another client: the IdP refuses to exchange it.
    const idToken = await identityProvider.idToken('alice@example.com', 'someone-else');
    const error = await connectWithOAuth(resource.url, {
      store: createMemoryTokenStore(),
      grantType: 'enterprise_managed',
      clientId: 'xaa-client',
      clientSecret: 'xaa-secret-value',
      identityProvider: { issuer: identityProvider.url, clientId: 'idp-client', idToken },
    }).catch((caught) => caught);
    expect(SwitchboardError.hasCode(error, AuthorizationErrorCode.AuthFailed)).toBe(true);
    expect((error as Error).message).toContain('Token exchange failed: invalid_grant');
    expect(authorization.tokenRequests).toHaveLength(0);
    const surfaces = surfacesOf(error);
    expect(surfaces).not.toContain(idToken);
    expect(surfaces).not.toContain('xaa-secret-value');
  });
});
