/** The Server Card (SEP-2127) an HTTP server publishes: where, what it says, and that it stays current. */
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  createMcpServer,
  type ServeHandle,
  serve,
  serverCardMediaType,
  serverCardSchema,
} from '../src/index.js';

let handle: ServeHandle & { url: string };
const server = createMcpServer({
  name: 'card test',
  version: '2.3.4',
  title: 'Card Test Server',
  instructions: 'Answers questions about cards.\nMore lines.',
});
beforeAll(async () => {
  handle = (await serve(server, {
    transport: { type: 'http', port: 0, auth: { type: 'bearer', token: 'card-secret-token' } },
  })) as ServeHandle & { url: string };
});
afterAll(async () => {
  await handle.close();
  await server.close();
});

test('publishes the card at <endpoint>/server-card, derived from the server, without auth or secrets', async () => {
  const response = await fetch(`${handle.url}/server-card`, { headers: { accept: serverCardMediaType } });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe(serverCardMediaType);
  expect(response.headers.get('access-control-allow-origin')).toBe('*');
  const text = await response.text();
  expect(text).not.toContain('card-secret-token');
  const card = JSON.parse(text);
  const origin = new URL(handle.url).origin;
  expect(card).toEqual({
    $schema: serverCardSchema,
    name: `127.0.0.1/card-test`,
    version: '2.3.4',
    title: 'Card Test Server',
    description: 'Card Test Server',
    remotes: [
      {
        type: 'streamable-http',
        url: `${origin}/mcp`,
        supportedProtocolVersions: expect.arrayContaining(['2026-07-28', '2025-11-25']),
        headers: [expect.objectContaining({ name: 'Authorization', isRequired: true, isSecret: true })],
      },
    ],
  });
});

test('lists the card in /.well-known/mcp/catalog.json and serves it at /.well-known/mcp/server-card.json', async () => {
  const origin = new URL(handle.url).origin;
  const catalog = (await (await fetch(`${origin}/.well-known/mcp/catalog.json`)).json()) as {
    entries: Array<{ url: string }>;
  };
  expect(catalog).toEqual({
    specVersion: 'draft',
    entries: [
      {
        identifier: 'urn:air:127.0.0.1:card-test',
        displayName: 'Card Test Server',
        type: serverCardMediaType,
        url: `${origin}/mcp/server-card`,
      },
    ],
  });
  const fromCatalog = await (await fetch(catalog.entries[0]?.url as string)).json();
  const wellKnown = await (await fetch(`${origin}/.well-known/mcp/server-card.json`)).json();
  expect(wellKnown).toEqual(fromCatalog);
});

test('stays current: the endpoint follows the host the client reached, and a POST is refused', async () => {
  const origin = new URL(handle.url);
  const viaLocalhost = (await (await fetch(`http://localhost:${origin.port}/mcp/server-card`)).json()) as {
    name: string;
    remotes: Array<{ url: string }>;
  };
  expect(viaLocalhost.remotes[0]?.url).toBe(`http://localhost:${origin.port}/mcp`);
  expect(viaLocalhost.name).toBe('localhost/card-test');
  const posted = await fetch(`${handle.url}/server-card`, { method: 'POST', body: '{}' });
  expect(posted.status).toBe(405);
});

test('serverCard: false publishes none', async () => {
  const plain = createMcpServer({ name: 'no-card', version: '1.0.0' });
  const served = (await serve(plain, {
    transport: { type: 'http', port: 0, serverCard: false },
  })) as ServeHandle & { url: string };
  try {
    expect((await fetch(`${served.url}/server-card`)).status).toBe(404);
  } finally {
    await served.close();
    await plain.close();
  }
});
