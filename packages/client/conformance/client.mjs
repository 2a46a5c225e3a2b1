#!/usr/bin/env node
// The conformance client: @switchboard/client driven by the official MCP conformance suite.
// Usage (by the suite): node conformance/client.mjs <server-url>; the scenario is in
// MCP_CONFORMANCE_SCENARIO. It connects, lists the tools and calls each one with arguments made
// from its input schema, answering elicitations by accepting (the client fills in the defaults).
//
// For the `auth/*` scenarios the transport gets an OAuth provider (memory token store): the
// suite's context (MCP_CONFORMANCE_CONTEXT) supplies pre-registered client credentials or a
// private key, as a user's config would; `openUrl` plays the person at the browser by following
// the authorization server's redirect to our loopback server programmatically.
import {
  createMemoryTokenStore,
  createOAuthProvider,
  createStreamableHttpTransport,
} from '@switchboard/transports';
import { createMcpClient } from '../dist/index.js';

const url = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? 'unknown';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');

/** Follows the authorization server's redirect to the loopback redirect URI, as a browser would. */
async function followRedirect(authorizationUrl) {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  const location = response.headers.get('location');
  if (!location) throw new Error(`the authorization endpoint answered ${response.status} without a redirect`);
  await (await fetch(new URL(location, authorizationUrl))).text();
}

function authProviderFor() {
  if (!scenario.startsWith('auth/')) return undefined;
  const clientCredentials = scenario.startsWith('auth/client-credentials');
  return createOAuthProvider({
    serverUrl: url,
    serverName: 'conformance',
    store: createMemoryTokenStore(),
    grantType: clientCredentials ? 'client_credentials' : 'authorization_code',
    clientMetadataUrl: 'https://conformance-test.local/client-metadata.json',
    ...(context.client_id ? { clientId: context.client_id } : {}),
    ...(context.client_secret ? { clientSecret: context.client_secret } : {}),
    ...(context.private_key_pem
      ? { privateKey: context.private_key_pem, signingAlgorithm: context.signing_algorithm ?? 'ES256' }
      : {}),
    openUrl: followRedirect,
  });
}

const authProvider = authProviderFor();
const client = await createMcpClient(
  'conformance',
  authProvider ? createStreamableHttpTransport({ url, name: 'conformance', authProvider }) : { url },
  {
    clientInfo: { name: 'switchboard-conformance-client', version: '0.0.0' },
    // Accept with no fields filled: SEP-1034 says the client applies the requested schema's defaults.
    elicitation: () => ({ action: 'accept', content: {} }),
  },
);
let failed = false;
try {
  // What to do per scenario (tools, resources, prompts, skills) lives in ./scenario-driver.mjs.
  const { driveScenario } = await import('./scenario-driver.mjs');
  await driveScenario(client, scenario, context);
} catch (error) {
  failed = true;
  console.error(`[${scenario}] ${error instanceof Error ? error.message : String(error)}`);
} finally {
  await client.close();
}
process.exit(failed ? 1 : 0);
