// Credentials bound to the authorization server that issued them (SEP-2352): a server that moves
// to another authorization server gets a new registration and sign-in there, and nothing of the
// old one (client id, tokens, a configured secret) is ever sent to the new one.
import { SwitchboardError } from '@switchboard/core';
import { describe, expect, it } from 'vitest';
import { AuthorizationErrorCode, createMemoryTokenStore } from '../src/index.js';
import { connectWithOAuth, onCleanup, surfacesOf } from './support/oauth-client.js';
import {
  type AuthorizationServer,
  type AuthorizationServerOptions,
  followRedirect,
  startAuthorizationServer,
  startResourceServer,
} from './support/oauth-servers.js';

/** Two authorization servers and a resource server that trusts one of them at a time (`moveTo`). */
async function movingServer(options: AuthorizationServerOptions = {}) {
  const first = await startAuthorizationServer(options);
  onCleanup(() => first.close());
  const second = await startAuthorizationServer(options);
  onCleanup(() => second.close());
  let current: AuthorizationServer = first;
  const resource = await startResourceServer(first, { scopes: {}, current: () => current });
  onCleanup(() => resource.close());
  return {
    first,
    second,
    resource,
    moveTo: (next: AuthorizationServer) => {
      current = next;
    },
  };
}

describe('authorization-server migration', () => {
  it('registers and signs in again at the new authorization server, never showing it the old credentials', async () => {
    const { first, second, resource, moveTo } = await movingServer();
    const store = createMemoryTokenStore();
    const { client } = await connectWithOAuth(resource.url, { store, openUrl: followRedirect });
    await client.listTools();
    const oldClientId = first.registrations[0]?.clientId as string;
    const oldTokens = (await store.load(resource.url))?.tokens;
    expect(oldTokens?.issuer).toBe(first.url);

    moveTo(second);
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    const newClientId = second.registrations[0]?.clientId;
    expect(result.content).toEqual([{ type: 'text', text: `client ${newClientId}` }]);
    expect(second.registrations).toHaveLength(1);
    expect(second.authorizations.map((entry) => entry.clientId)).toEqual([newClientId]);
    expect(second.tokenRequests.map((request) => [request.grantType, request.clientId])).toEqual([
      ['authorization_code', newClientId],
    ]);
    expect(second.tokenRequests.some((request) => request.clientId === oldClientId)).toBe(false);
    // The first server's refresh token was not offered to the second one (it got no refresh grant at all).
    expect(second.tokenRequests.some((request) => request.grantType === 'refresh_token')).toBe(false);

    const record = await store.load(resource.url);
    expect(Object.keys(record?.clients ?? {}).sort()).toEqual([first.url, second.url].sort());
    expect(record?.clients?.[first.url]?.client_id).toBe(oldClientId);
    expect(record?.tokens?.issuer).toBe(second.url);
  });

  it('keeps a configured client with the authorization server it was first used with: AUTH_SERVER_CHANGED, the secret not sent', async () => {
    const credentials = { 'robot-1': 'robot-secret-value' };
    const { first, second, resource, moveTo } = await movingServer({ clientCredentials: credentials });
    const store = createMemoryTokenStore();
    const options = {
      store,
      grantType: 'client_credentials' as const,
      clientId: 'robot-1',
      clientSecret: 'robot-secret-value',
    };
    const { client } = await connectWithOAuth(resource.url, options);
    await client.listTools();
    expect((await store.load(resource.url))?.configuredClient).toEqual({
      clientId: 'robot-1',
      issuer: first.url,
    });

    moveTo(second);
    const error = await client.listTools().catch((caught) => caught);
    expect(SwitchboardError.hasCode(error, AuthorizationErrorCode.AuthorizationServerChanged)).toBe(true);
    expect((error as Error).message).toContain(`now names the authorization server "${second.url}"`);
    expect((error as Error).message).toContain('set auth.issuer');
    expect((error as Error).message).toContain('switchboard auth --revoke protected');
    expect(second.tokenRequests).toHaveLength(0);
    expect(surfacesOf(error)).not.toContain('robot-secret-value');
  });

  it('a configured issuer is kept to from the first connect on', async () => {
    const credentials = { 'robot-2': 'robot-secret-value' };
    const { first, second, resource, moveTo } = await movingServer({ clientCredentials: credentials });
    moveTo(second);
    const error = await connectWithOAuth(resource.url, {
      store: createMemoryTokenStore(),
      grantType: 'client_credentials',
      clientId: 'robot-2',
      clientSecret: 'robot-secret-value',
      issuer: first.url,
    }).catch((caught) => caught);
    expect(SwitchboardError.hasCode(error, AuthorizationErrorCode.AuthorizationServerChanged)).toBe(true);
    expect((error as Error).message).not.toContain('--revoke');
    expect(second.tokenRequests).toHaveLength(0);
  });
});
