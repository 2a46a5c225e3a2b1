/**
 * A gateway lists an upstream's tools as the upstream did: the fields Switchboard has no typed
 * place for — `icons`, 2025-11-25's `execution.taskSupport`, and a field a later revision might add —
 * reach clients of both eras unchanged, beside the namespaced name (read raw, as the SDK clients'
 * schemas drop fields they do not know; the official 2025 client reads `icons` and `execution`). The upstream is the SDK v1's low-level `Server`, so the
 * listing is exactly what the test wrote.
 */
import http from 'node:http';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { type ServeHandle, serve } from '@switchboard/server';
import { envelope, listenOnRandomPort, post } from '@switchboard/test-helpers';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createGateway, type Gateway } from '../src/index.js';

const icons = [{ src: 'https://example.com/lamp.png', mimeType: 'image/png', sizes: ['48x48'] }];
const listedTools = [
  {
    name: 'lamp',
    description: 'Turns the lamp on.',
    inputSchema: { type: 'object', properties: {} },
    icons,
    execution: { taskSupport: 'forbidden' },
    'x-future': { kept: true },
  },
  {
    name: 'plain',
    description: 'Nothing more than the typed fields.',
    inputSchema: { type: 'object', properties: {} },
  },
];

let upstream: http.Server;
let gateway: Gateway;
let handle: ServeHandle;

beforeAll(async () => {
  upstream = http.createServer(async (request, response) => {
    const server = new Server(
      { name: 'listing-upstream', version: '1.0.0' },
      { capabilities: { tools: {} } },
    );
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listedTools }) as never);
    server.setRequestHandler(CallToolRequestSchema, async () => ({
      content: [{ type: 'text', text: 'on' }],
    }));
    const transport = new StreamableHTTPServerTransport({});
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response);
  });
  const { origin } = await listenOnRandomPort(upstream);
  gateway = await createGateway({ config: { mcpServers: { up: { url: `${origin}/mcp` } } } });
  handle = await serve(gateway, { transport: { type: 'http', port: 0 } });
}, 60_000);

afterAll(async () => {
  await handle?.close();
  await gateway?.close();
  upstream?.closeAllConnections();
  await new Promise<void>((resolve) => upstream?.close(() => resolve()));
});

/** The gateway's listing of `name` without the name (namespaced there), as `list` returned it. */
function listed(tools: Array<Record<string, unknown>>, name: string): Record<string, unknown> | undefined {
  const found = tools.find((tool) => tool.name === `mcp__up__${name}`);
  if (found === undefined) return undefined;
  const { name: _name, annotations: _annotations, ...rest } = found;
  return rest;
}

const { name: _lampName, ...lampFields } = listedTools[0] as Record<string, unknown>;

test.each([
  ['2026-07-28', { _meta: envelope() }, {}],
  ['2025-11-25', {}, { 'mcp-protocol-version': '2025-11-25', 'mcp-method': undefined }],
] as const)(
  'a %s tools/list carries every listing field of the upstream, unchanged',
  async (_era, params, headers) => {
    const answer = await post(handle.url as string, 'tools/list', params, headers);
    const tools = (answer.body.result?.tools ?? []) as Array<Record<string, unknown>>;
    expect(listed(tools, 'lamp')).toEqual(lampFields);
    expect(Object.keys(listed(tools, 'plain') ?? {}).sort()).toEqual(['description', 'inputSchema']);
  },
);

test("the official 2025 client reads the tool's icons and task support through the gateway", async () => {
  const client = new V1Client({ name: 'v1', version: '1.0.0' });
  await client.connect(new V1Http(new URL(handle.url as string)));
  try {
    const lamp = (await client.listTools()).tools.find((tool) => tool.name === 'mcp__up__lamp');
    expect(lamp?.icons).toEqual(icons);
    expect(lamp?.execution).toEqual({ taskSupport: 'forbidden' });
  } finally {
    await client.close();
  }
});
