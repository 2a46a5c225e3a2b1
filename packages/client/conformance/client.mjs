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

/** A plausible value for a JSON Schema property (the suite's tools take numbers and strings). */
function sample(schema, index) {
  if (schema && 'default' in schema) return schema.default;
  if (Array.isArray(schema?.enum) && schema.enum.length > 0) return schema.enum[0];
  switch (schema?.type) {
    case 'number':
    case 'integer':
      return index + 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return `value-${index + 1}`;
  }
}

function argumentsFor(tool) {
  const properties = tool.inputSchema?.properties ?? {};
  return Object.fromEntries(
    Object.entries(properties).map(([name, schema], index) => [name, sample(schema, index)]),
  );
}

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
  const tools = await client.listTools();
  for (const tool of tools) {
    const result = await client.callTool(tool.name, argumentsFor(tool), { timeoutMs: 20_000 });
    console.error(`[${scenario}] ${tool.name}: ${JSON.stringify(result.content ?? result).slice(0, 200)}`);
  }
} catch (error) {
  failed = true;
  console.error(`[${scenario}] ${error instanceof Error ? error.message : String(error)}`);
} finally {
  await client.close();
}
process.exit(failed ? 1 : 0);
