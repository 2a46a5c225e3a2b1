// The authorization server's identity (SEP-2468): the `iss` of the sign-in redirect (RFC 9207)
// and the `issuer` of its metadata (RFC 8414 §3.3), against real servers on port 0.
import { SwitchboardError } from '@switchboard/core';
import { describe, expect, it } from 'vitest';
import { AuthorizationErrorCode, createMemoryTokenStore } from '../src/index.js';
import { connectWithOAuth, startOAuthServers, surfacesOf } from './support/oauth-client.js';
import { followRedirect } from './support/oauth-servers.js';

describe('the iss of the sign-in redirect (RFC 9207)', () => {
  it('accepts the redirect when its iss is the issuer the metadata advertised, and stamps the tokens with it', async () => {
    const { authorization, resource } = await startOAuthServers({ scopes: {} });
    const store = createMemoryTokenStore();
    const { client } = await connectWithOAuth(resource.url, { store, openUrl: followRedirect });
    expect((await client.listTools()).tools).toHaveLength(1);
    expect(authorization.tokenRequests.map((request) => request.grantType)).toEqual(['authorization_code']);
    const record = await store.load(resource.url);
    expect(record?.tokens?.issuer).toBe(authorization.url);
    expect(Object.keys(record?.clients ?? {})).toEqual([authorization.url]);
  });

  it('accepts a redirect without iss from an authorization server that does not advertise it', async () => {
    const { authorization, resource } = await startOAuthServers(
      { scopes: {} },
      { issParameterSupported: false, issInRedirect: 'omit' },
    );
    const { client } = await connectWithOAuth(resource.url, {
      store: createMemoryTokenStore(),
      openUrl: followRedirect,
    });
    expect((await client.listTools()).tools).toHaveLength(1);
    expect(authorization.tokenRequests).toHaveLength(1);
  });

  it.each([
    {
      name: 'no iss although the authorization server advertises it',
      options: { issInRedirect: 'omit' as const },
      message: 'carried no `iss` although the authorization server',
    },
    {
      name: 'another issuer, unadvertised',
      options: { issParameterSupported: false, issInRedirect: 'wrong' as const },
      message: "the sign-in redirect's `iss` is not the authorization server's issuer",
    },
    {
      name: 'the issuer with a trailing slash (compared as strings, not normalised)',
      options: { issInRedirect: 'normalized' as const },
      message: "the sign-in redirect's `iss` is not the authorization server's issuer",
    },
  ])('refuses a redirect with $name: the code is never redeemed', async ({ options, message }) => {
    const { authorization, resource } = await startOAuthServers({ scopes: {} }, options);
    const error = await connectWithOAuth(resource.url, {
      store: createMemoryTokenStore(),
      openUrl: followRedirect,
    }).catch((caught) => caught);
    expect(SwitchboardError.hasCode(error, AuthorizationErrorCode.IssuerMismatch)).toBe(true);
    expect((error as Error).message).toContain(message);
    expect((error as Error).message).toContain('possible mix-up attack');
    expect((error as Error).message).toContain(JSON.stringify(authorization.url));
    // The attacker's value is never repeated to the user.
    expect(surfacesOf(error)).not.toContain('attacker.example');
    expect(authorization.authorizations).toHaveLength(1);
    expect(authorization.tokenRequests).toHaveLength(0);
  });
});

describe('a refused sign-in (RFC 9207 applies to error responses too)', () => {
  it('shows the refusal of the authorization server whose iss checks out', async () => {
    const { authorization, resource } = await startOAuthServers({ scopes: {} });
    // A client id the authorization server does not know: it redirects back with an error.
    const error = await connectWithOAuth(resource.url, {
      store: createMemoryTokenStore(),
      clientId: 'unknown-client',
      openUrl: followRedirect,
    }).catch((caught) => caught);
    expect(SwitchboardError.hasCode(error, AuthorizationErrorCode.AuthFailed)).toBe(true);
    expect((error as Error).message).toContain(
      'the authorization server refused the sign-in (unauthorized_client)',
    );
    expect(authorization.tokenRequests).toHaveLength(0);
  });

  it("does not repeat a refusal whose iss is another issuer: it may be an attacker's words", async () => {
    const { authorization, resource } = await startOAuthServers({ scopes: {} }, { issInRedirect: 'wrong' });
    const error = await connectWithOAuth(resource.url, {
      store: createMemoryTokenStore(),
      clientId: 'unknown-client',
      openUrl: followRedirect,
    }).catch((caught) => caught);
    expect(SwitchboardError.hasCode(error, AuthorizationErrorCode.IssuerMismatch)).toBe(true);
    expect(surfacesOf(error)).not.toContain('unauthorized_client');
    expect(authorization.tokenRequests).toHaveLength(0);
  });
});

describe('the issuer of the authorization server metadata (RFC 8414 §3.3)', () => {
  it('refuses metadata whose issuer is not the URL it was fetched for, and uses none of its endpoints', async () => {
    const { authorization, resource } = await startOAuthServers(
      { scopes: {} },
      { metadataIssuer: 'https://attacker.example' },
    );
    const error = await connectWithOAuth(resource.url, {
      store: createMemoryTokenStore(),
      openUrl: followRedirect,
    }).catch((caught) => caught);
    expect(SwitchboardError.hasCode(error, AuthorizationErrorCode.IssuerMismatch)).toBe(true);
    expect((error as Error).message).toContain('names another issuer (RFC 8414 §3.3)');
    expect((error as Error).message).toContain('none of its endpoints were used');
    expect(authorization.requests.length).toBeGreaterThan(0);
    expect(authorization.requests.every((line) => line.startsWith('GET /.well-known/'))).toBe(true);
  });
});
