/**
 * Example 6 — gateways: the tools of several MCP servers served as one MCP server over Streamable
 * HTTP, namespaced. Any MCP client reaches all of them through one URL; here the official SDK
 * clients of both protocol eras on the same endpoint — v1 speaking 2025-11-25 (`initialize`, a
 * session) and v2 pinned to 2026-07-28 (stateless, `_meta` on every request) — to show nothing
 * Switchboard-specific is needed on that side, whatever era the client and the upstream servers
 * speak. A second gateway over the same servers serves only `discover_tools`, and the tools it
 * finds, instead of all 539.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
} from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createGateway } from '@switchboard/gateway';
import { serve } from '@switchboard/server';
import { createToolSelector } from '@switchboard/tool-selection';
import { largeToolSet } from './catalogue-servers.js';

const folder = await mkdtemp(join(tmpdir(), 'switchboard-gateway-'));
// The gateway connects the servers itself and passes their results through unchanged. Tools whose
// annotations call for approval are listed too (`approvalPrompt: 'auto'`, the gateway's default): a
// client that can answer an elicitation is asked before each call; one that cannot (the raw SDK
// client below) relies on its host's own confirmation, as Claude Desktop and Cursor do.
const gateway = await createGateway({ name: 'gateway', config: largeToolSet(folder) });
const http = await serve(gateway, { transport: { type: 'http', port: 0 } });
// A second gateway over the same connections, exposing only what `discover_tools` finds.
const selector = createToolSelector({ registry: gateway.clients.registry });
const selective = await createGateway({ name: 'selective-gateway', clients: gateway.clients, selector });
const selectiveHttp = await serve(selective, { transport: { type: 'http', port: 0 } });

const short = (text: string): string =>
  text
    .replaceAll(folder, '<tmp>')
    .replace(/^(MCP error -?\d+: )+/, '')
    .replace(/\s+/g, ' ')
    .slice(0, 80);

/** A raw SDK client on `url`, and a helper printing one call's outcome. */
async function connect(url: string) {
  const client = new Client({ name: 'raw-sdk-client', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const call = async (name: string, args: Record<string, unknown> = {}): Promise<void> => {
    try {
      const result = await client.callTool({ name, arguments: args });
      const content = result.content as Array<{ type: string; text?: string }>;
      const text = content.map((block) => block.text ?? `[${block.type}]`).join(' ');
      console.log(`  ${name} → ${result.isError ? 'isError: ' : ''}${short(text)}`);
    } catch (error) {
      // Protocol errors (unknown tool, malformed request) are JSON-RPC errors, not tool results.
      console.log(
        `  ${name} → JSON-RPC error ${(error as { code?: number }).code}: ${short((error as Error).message)}`,
      );
    }
  };
  return { client, call };
}

const clients: Client[] = [];
try {
  console.log(`gateway over ${Object.keys(gateway.clients.status()).join(', ')} on ${http.url}`);
  const { client, call } = await connect(http.url as string);
  clients.push(client);
  const { tools } = await client.listTools();
  const upstream = gateway.clients.registry.list();
  console.log(`tools/list: ${tools.length} of ${upstream.length} upstream tools`);
  const asking = tools.filter((tool) => tool.annotations?.readOnlyHint !== true);
  console.log(
    `  ${asking.length} of them need approval, e.g.: ${asking
      .slice(0, 3)
      .map((tool) => tool.name)
      .join(', ')}`,
  );

  console.log('\ntools/call through the gateway:');
  await call('mcp__everything__echo', { message: 'through the gateway' });
  await call('mcp__everything__get-sum', { a: 2, b: 40 });
  await call('mcp__filesystem__list_allowed_directories');
  await call('mcp__catalogue__weather_count_weather_alert');
  await call('mcp__filesystem__write_file', { path: join(folder, 'x.txt'), content: 'no' });
  await call('mcp__everything__get-sum', { a: 'two' });

  // The same URL, the other era: an SDK v2 client pinned to 2026-07-28 (no initialize, no session).
  const modern = new ModernClient(
    { name: 'sdk-v2-client', version: '2.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await modern.connect(new ModernTransport(new URL(http.url as string)));
  const modernEcho = await modern.callTool({
    name: 'mcp__everything__echo',
    arguments: { message: 'in 2026-07-28' },
  });
  const modernTools = await modern.listTools();
  console.log(
    `\nSDK v2 client pinned to ${modern.getNegotiatedProtocolVersion()} (${modern.getProtocolEra()} era): ${modernTools.tools.length} tools, echo → ${(modernEcho.content as Array<{ text?: string }>)[0]?.text}`,
  );
  await modern.close();

  const health = (await (await fetch(new URL('/health', http.url))).json()) as {
    upstreams: Record<string, { state: string; toolCount: number }>;
  };
  const states = Object.entries(health.upstreams).map(([name, status]) => `${name} ${status.state}`);
  console.log(`\nGET /health → upstreams: ${states.join(', ')}`);

  console.log(`\nselective gateway on ${selectiveHttp.url}`);
  const second = await connect(selectiveHttp.url as string);
  clients.push(second.client);
  const names = async (): Promise<string> =>
    (await second.client.listTools()).tools.map((tool) => tool.name).join(', ');
  console.log(`tools/list: ${await names()}`);
  await second.call('discover_tools', { query: 'create a new flight booking', limit: 2 });
  console.log(`tools/list: ${await names()}`);
  await second.call('mcp__catalogue__travel_create_flight_booking', { origin: 'OSL', destination: 'CDG' });
} finally {
  await Promise.all(clients.map((client) => client.close()));
  await selectiveHttp.close();
  await selective.close();
  await selector.close();
  await http.close();
  await gateway.close();
  await rm(folder, { recursive: true, force: true });
}
