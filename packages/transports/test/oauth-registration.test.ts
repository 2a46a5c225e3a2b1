// What the client tells the authorization server about itself and asks of it: `application_type`
// in dynamic registration (SEP-837), and `offline_access` only where the authorization server
// offers it (SEP-2207).
import { describe, expect, it } from 'vitest';
import { createMemoryTokenStore } from '../src/index.js';
import { connectWithOAuth, startOAuthServers } from './support/oauth-client.js';
import { followRedirect } from './support/oauth-servers.js';

describe('dynamic registration and requested scopes', () => {
  it('registers as a native application that wants refresh tokens', async () => {
    const { authorization, resource } = await startOAuthServers({ scopes: {} });
    await connectWithOAuth(resource.url, { store: createMemoryTokenStore(), openUrl: followRedirect });
    expect(authorization.registrations).toHaveLength(1);
    expect(authorization.registrations[0]?.applicationType).toBe('native');
    expect(authorization.registrations[0]?.grantTypes).toEqual(['authorization_code', 'refresh_token']);
  });

  it('asks for offline_access when the authorization server lists it in scopes_supported', async () => {
    const { authorization, resource } = await startOAuthServers(
      { scopes: { 'tools/list': ['read'] } },
      { scopesSupported: ['read', 'write', 'offline_access'] },
    );
    const { client } = await connectWithOAuth(resource.url, {
      store: createMemoryTokenStore(),
      openUrl: followRedirect,
    });
    await client.listTools();
    expect(authorization.authorizations[0]?.scope?.split(' ')).toEqual(['read', 'offline_access']);
  });

  it('does not ask for offline_access when the authorization server does not list it', async () => {
    const { authorization, resource } = await startOAuthServers(
      { scopes: { 'tools/list': ['read'] } },
      { scopesSupported: ['read', 'write'] },
    );
    const { client } = await connectWithOAuth(resource.url, {
      store: createMemoryTokenStore(),
      openUrl: followRedirect,
    });
    await client.listTools();
    expect(authorization.authorizations[0]?.scope).toBe('read');
  });
});
