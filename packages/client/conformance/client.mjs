#!/usr/bin/env node
// The conformance client: @switchboard/client driven by the official MCP conformance suite.
// Usage (by the suite): node conformance/client.mjs <server-url>; the scenario is in
// MCP_CONFORMANCE_SCENARIO. It connects, lists the tools and calls each one with arguments made
// from its input schema, answering elicitations by accepting (the client fills in the defaults).
//
// For the `auth/*` scenarios the transport gets the OAuth provider of ./auth-scenarios.mjs.
import { createStreamableHttpTransport } from '@switchboard/transports';
import { createMcpClient } from '../dist/index.js';
import { authProviderFor } from './auth-scenarios.mjs';

const url = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? 'unknown';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');

const authProvider = authProviderFor(scenario, url, context);
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
