/**
 * The Server Card (SEP-2127) in a server's view: a site whose config entry is only its URL
 * publishes a card (at `/.well-known/mcp/server-card.json`) naming its endpoint, a real
 * server-everything over Streamable HTTP. The inspector connects through the card's endpoint, and
 * the server's view shows the card: name, version, endpoint, protocol versions, where it was read.
 * A stdio server shows no card section; the view passes the axe check.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type EverythingHttpServer, startEverythingHttp } from '@switchboard/test-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAccessibilityViolations, formatViolations } from './accessibility.js';
import { useUiHarness } from './ui-harness.js';
import { expectServerConnected, expectText, visibleText } from './ui-page.js';

const options: { extraServers: Record<string, unknown> } = { extraServers: {} };
let everything: EverythingHttpServer | undefined;
let site: Server | undefined;

// Registered before the harness's hooks, so the site is up when its config is written.
beforeAll(async () => {
  everything = await startEverythingHttp('streamableHttp');
  const card = {
    $schema: 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json',
    name: 'io.example/everything',
    version: '2026.8.31',
    title: 'Everything, by card',
    description: 'The reference server, found through its Server Card.',
    remotes: [
      {
        type: 'streamable-http',
        url: everything.url,
        supportedProtocolVersions: ['2025-11-25', '2025-06-18'],
      },
    ],
  };
  site = createServer((request, response) => {
    if (request.url === '/.well-known/mcp/server-card.json') {
      response.writeHead(200, { 'content-type': 'application/mcp-server-card+json' });
      response.end(JSON.stringify(card));
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => site?.listen(0, '127.0.0.1', resolve));
  const { port } = site.address() as AddressInfo;
  options.extraServers.carded = { url: `http://127.0.0.1:${port}` };
}, 60_000);

afterAll(async () => {
  await new Promise((resolve) => (site ? site.close(resolve) : resolve(undefined)));
  await everything?.close();
});

describe('switchboard ui: server card', () => {
  const harness = useUiHarness(options);

  it('shows the card of a server configured by its site URL, connected through the card’s endpoint', async () => {
    const page = await harness.open('#/servers');
    await expectServerConnected(page, 'carded');
    await page.goto(`${harness.ui.url}#/servers/carded`);
    const card = page.getByRole('region', { name: 'Server Card', exact: true });
    await expectText(card, /Everything, by card 2026\.8\.31/);
    const text = await visibleText(card);
    expect(text).toContain('The reference server, found through its Server Card.');
    expect(text).toContain(everything?.url as string);
    expect(text).toContain('2025-11-25, 2025-06-18');
    expect(text).toMatch(/Read from\s+http:\/\/127\.0\.0\.1:\d+\/\.well-known\/mcp\/server-card\.json/);
    const violations = await findAccessibilityViolations(page);
    expect(violations, formatViolations('Server view with a card', violations)).toEqual([]);
  });

  it('shows no card section for a stdio server', async () => {
    const page = await harness.open('#/servers/everything');
    await page.getByRole('link', { name: 'echo', exact: true }).first().waitFor();
    expect(await page.getByRole('region', { name: 'Server Card', exact: true }).count()).toBe(0);
  });
});
