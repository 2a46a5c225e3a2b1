/**
 * Example 6 — a gateway: the tools of several MCP servers, served as one MCP server over
 * Streamable HTTP, namespaced. Any MCP client reaches all of them through one URL; here the raw
 * SDK `Client`, to show nothing Switchboard-specific is needed on that side.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { connectMcp } from '@switchboard/client';
import { createMcpServer, serve } from '@switchboard/server';
import { officialServer } from './official-servers.js';

const folder = await mkdtemp(join(tmpdir(), 'switchboard-gateway-'));
// Upstream: three servers. Results pass through unwrapped (`rawResults`), as MCP clients expect them;
// the gateway decides what it exposes, so upstream calls are not asked for approval again.
const upstream = await connectMcp(
  {
    everything: officialServer('everything', ['stdio']),
    filesystem: officialServer('filesystem', [folder]),
    memory: { ...officialServer('memory'), env: { MEMORY_FILE_PATH: join(folder, 'memory.jsonl') } },
  },
  { approval: 'never', rawResults: true },
);
// Nobody can approve a call over MCP, so tools whose annotations call for approval are not exposed.
const gateway = createMcpServer({
  name: 'gateway',
  version: '1.0.0',
  registry: upstream.registry,
  approval: 'annotations',
});
const http = await serve(gateway, { transport: { type: 'http', port: 0 } });
console.log(`gateway over ${upstream.servers.join(', ')} on ${http.url}`);

const client = new Client({ name: 'raw-sdk-client', version: '1.0.0' });
try {
  await client.connect(new StreamableHTTPClientTransport(new URL(http.url as string)));
  console.log(`connected to ${client.getServerVersion()?.name}`);
  const { tools } = await client.listTools();
  const all = Object.keys(upstream.tools).length;
  console.log(`\ntools/list: ${tools.length} of ${all} upstream tools (the rest need approval)`);
  for (const server of upstream.servers) {
    const names = tools.filter((tool) => tool.name.startsWith(`mcp__${server}__`)).map((tool) => tool.name);
    console.log(
      `  ${server.padEnd(11)} ${String(names.length).padStart(2)}  ${names.slice(0, 3).join(', ')}…`,
    );
  }
  const hidden = Object.keys(upstream.tools).filter((name) => !tools.some((tool) => tool.name === name));
  console.log(`  not exposed: ${hidden.slice(0, 4).join(', ')}…`);

  console.log('\ntools/call through the gateway:');
  const short = (text: string): string =>
    text
      .replaceAll(folder, '<tmp>')
      .replace(/^(MCP error -?\d+: )+/, '')
      .replace(/\s+/g, ' ')
      .slice(0, 80);
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
  await call('mcp__everything__echo', { message: 'through the gateway' });
  await call('mcp__everything__get-sum', { a: 2, b: 40 });
  await call('mcp__filesystem__list_allowed_directories');
  await call('mcp__memory__read_graph');
  await call('mcp__filesystem__write_file', { path: join(folder, 'x.txt'), content: 'no' });
  await call('mcp__everything__get-sum', { a: 'two' });

  const everything = upstream.metrics().servers.everything;
  console.log(`\nupstream "everything" ran ${everything?.calls} calls, ${everything?.errors} errors`);
  console.log('(the call with bad arguments was stopped at the gateway and never reached the server)');
} finally {
  await client.close();
  await http.close();
  await gateway.close();
  await upstream.close();
  await rm(folder, { recursive: true, force: true });
}
