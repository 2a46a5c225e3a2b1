// The client side of the OAuth tests: an SDK client over our Streamable HTTP transport with an
// OAuth provider, a logger that keeps every line (to check that no secret reaches it), and the
// servers of ./oauth-servers.ts torn down after each test.
import { inspect } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Logger } from '@switchboard/core';
import { afterEach } from 'vitest';
import {
  createOAuthProvider,
  createStreamableHttpTransport,
  type OAuthProvider,
  type OAuthProviderOptions,
} from '../../src/index.js';
import {
  type AuthorizationServer,
  type AuthorizationServerOptions,
  type ResourceServer,
  type ResourceServerOptions,
  startAuthorizationServer,
  startResourceServer,
} from './oauth-servers.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

/** Runs `cleanup` after the current test. */
export function onCleanup(cleanup: () => Promise<unknown>): void {
  cleanups.push(cleanup);
}

/** An authorization server and a resource server that trusts it, closed after the test. */
export async function startOAuthServers(
  resourceOptions: ResourceServerOptions = {},
  authorizationOptions: AuthorizationServerOptions = {},
): Promise<{ authorization: AuthorizationServer; resource: ResourceServer }> {
  const authorization = await startAuthorizationServer(authorizationOptions);
  onCleanup(() => authorization.close());
  const resource = await startResourceServer(authorization, resourceOptions);
  onCleanup(() => resource.close());
  return { authorization, resource };
}

/** A logger that keeps every line it is given. */
export function recordingLogger(lines: string[]): Logger {
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

/** Connects an SDK client to `url` through our transport with a fresh OAuth provider (closed after the test). */
export async function connectWithOAuth(
  url: string,
  providerOptions: Omit<OAuthProviderOptions, 'serverUrl'>,
  logger?: Logger,
): Promise<{ client: Client; provider: OAuthProvider }> {
  const provider = createOAuthProvider({ serverUrl: url, serverName: 'protected', ...providerOptions });
  const transport = createStreamableHttpTransport({
    url,
    name: 'protected',
    authProvider: provider,
    ...(logger ? { logger } : {}),
  });
  const client = new Client({ name: 'oauth-test', version: '1.0.0' });
  await client.connect(transport);
  onCleanup(() => client.close());
  return { client, provider };
}

/** Everything an error shows: message, stack, JSON, context, and what printing it shows (its causes). */
export function surfacesOf(error: unknown, lines: string[] = []): string {
  const value = error as Error & { context?: unknown };
  return [
    value.message,
    value.stack ?? '',
    JSON.stringify(value),
    JSON.stringify(value.context),
    inspect(value, { depth: 8 }),
    ...lines,
  ].join('\n');
}
