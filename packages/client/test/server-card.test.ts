// Server Cards (SEP-2127) on the client: a card is read before connecting (from the endpoint, the
// site's catalog or the well-known path), and a config that gives only a site's URL connects to the
// endpoint the card declares, at the protocol version it declares, against a real SDK v2 server.
import http from 'node:http';
import { listenOnRandomPort } from '@switchboard/test-helpers';
import { afterEach, expect, test } from 'vitest';
import { createMcpClient, fetchServerCard, type ServerCard, serverCardMediaType } from '../src/index.js';
import { type RunningMcpServer, startSdkV2Server } from './helpers/http-mcp-server.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

async function sdkServer(): Promise<RunningMcpServer> {
  const running = await startSdkV2Server({ legacy: 'stateless' });
  cleanups.push(() => running.close());
  return running;
}

/** A web site that publishes documents at fixed paths (a catalog, cards), 404 elsewhere. */
async function site(documents: (origin: string) => Record<string, unknown>): Promise<string> {
  let origin = '';
  const server = http.createServer((request, response) => {
    const document = documents(origin)[request.url ?? ''];
    if (document === undefined) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': serverCardMediaType }).end(JSON.stringify(document));
  });
  const listening = await listenOnRandomPort(server);
  cleanups.push(listening.close);
  origin = listening.origin;
  return origin;
}

const card = (url: string, versions?: string[]): ServerCard => ({
  $schema: 'https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json',
  name: 'test.example/weather',
  version: '1.2.0',
  description: 'Weather for tests.',
  remotes: [
    {
      type: 'streamable-http',
      url,
      ...(versions !== undefined ? { supportedProtocolVersions: versions } : {}),
    },
  ],
});

test('reads a card through the site catalog, the well-known path, or not at all', async () => {
  const mcp = await sdkServer();
  const viaCatalog = await site((origin) => ({
    '/.well-known/mcp/catalog.json': {
      specVersion: 'draft',
      entries: [
        { identifier: 'x', displayName: 'Other', type: 'text/html', url: `${origin}/ignored` },
        { identifier: 'y', displayName: 'Weather', type: serverCardMediaType, url: '/cards/weather.json' },
      ],
    },
    '/cards/weather.json': card(mcp.url),
  }));
  const found = await fetchServerCard(viaCatalog);
  expect(found).toEqual({ card: card(mcp.url), url: `${viaCatalog}/cards/weather.json` });
  const wellKnown = await site(() => ({ '/.well-known/mcp/server-card.json': card(mcp.url) }));
  expect((await fetchServerCard(wellKnown))?.url).toBe(`${wellKnown}/.well-known/mcp/server-card.json`);
  // An MCP server that publishes no card (and a site with a malformed one): none.
  expect(await fetchServerCard(mcp.url)).toBeUndefined();
  const malformed = await site(() => ({ '/.well-known/mcp/server-card.json': { name: 7 } }));
  expect(await fetchServerCard(malformed)).toBeUndefined();
});

test("a site's URL alone connects to the card's endpoint, at the 2025 version it declares, without probing", async () => {
  const mcp = await sdkServer();
  const origin = await site(() => ({ '/.well-known/mcp/server-card.json': card(mcp.url, ['2025-11-25']) }));
  const client = await createMcpClient('weather', { url: origin });
  cleanups.push(() => client.close());
  expect(client.era).toBe('legacy');
  expect(client.protocolVersion).toBe('2025-11-25');
  expect((await client.listTools()).length).toBeGreaterThan(0);
  expect(mcp.requests.map((request) => request.body?.method)).not.toContain('server/discover');
});

test("a site's URL alone connects to the card's endpoint in the modern era when the card lists it", async () => {
  const mcp = await sdkServer();
  const origin = await site(() => ({
    '/.well-known/mcp/server-card.json': card(mcp.url, ['2026-07-28', '2025-11-25']),
  }));
  const client = await createMcpClient('weather', { url: origin });
  cleanups.push(() => client.close());
  expect(client.era).toBe('modern');
  expect((await client.listTools()).length).toBeGreaterThan(0);
});
