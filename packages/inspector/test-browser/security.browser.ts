/**
 * The process's guard, from outside the page: no token, a foreign Origin or a foreign Host is
 * refused with 403 (static files included), while the same request with the token and the page's
 * own Origin succeeds — so the refusals are the guard's doing, not a broken route. And the attack
 * the Origin check exists for, in a real browser: a page on another loopback port (same site, so
 * the SameSite=Strict cookie would go along) posts a call to the API; it is refused and never runs.
 */
import { createServer, type Server } from 'node:http';
import { listenOnRandomPort } from '@switchboard/test-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UiLogEntry } from '../src/ui-api.js';
import { useUiHarness } from './ui-harness.js';
import { apiRequest, rawRequest } from './ui-http.js';

describe('switchboard ui: token, Origin and Host', () => {
  const harness = useUiHarness();

  it('refuses a request without the token (403), API and static files alike', async () => {
    const { origin } = harness.ui;
    expect((await rawRequest(origin, '/api/servers')).status).toBe(403);
    expect((await rawRequest(origin, '/')).status).toBe(403);
    expect((await rawRequest(origin, '/app.js')).status).toBe(403);
    expect(
      (await rawRequest(origin, '/api/servers', { headers: { 'X-Switchboard-Token': 'wrong' } })).status,
    ).toBe(403);
    // The control: the token (header, or the printed URL's query) opens both.
    const withToken = await rawRequest(origin, '/api/servers', {
      headers: { 'X-Switchboard-Token': harness.ui.token },
    });
    expect(withToken.status).toBe(200);
    expect(Array.isArray(JSON.parse(withToken.body))).toBe(true);
    // The printed URL: the token becomes an HttpOnly, SameSite=Strict cookie (named after the port)
    // and the page load is sent on without it, so the token leaves the address bar.
    const printed = await rawRequest(origin, `/?token=${encodeURIComponent(harness.ui.token)}`);
    expect(printed.status).toBe(303);
    expect(printed.headers.location).toBe('/');
    const cookie = String(printed.headers['set-cookie']);
    expect(cookie).toMatch(/^switchboard_ui_token_\d+=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    const page = await rawRequest(origin, '/', { headers: { Cookie: cookie.split(';')[0]! } });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<html');
  });

  it('refuses a foreign Origin (403) even with the token, and accepts its own', async () => {
    const { origin, token } = harness.ui;
    const foreign = await rawRequest(origin, '/api/servers', {
      headers: { 'X-Switchboard-Token': token, Origin: 'http://evil.example' },
    });
    expect(foreign.status).toBe(403);
    const ownHostOtherPort = await rawRequest(origin, '/api/servers', {
      headers: { 'X-Switchboard-Token': token, Origin: 'http://127.0.0.1:1' },
    });
    expect(ownHostOtherPort.status).toBe(403);
    const own = await rawRequest(origin, '/api/servers', {
      headers: { 'X-Switchboard-Token': token, Origin: origin },
    });
    expect(own.status).toBe(200);
  });

  it('refuses a foreign Host (DNS rebinding) with 403', async () => {
    const { origin, token } = harness.ui;
    const rebound = await rawRequest(origin, '/api/servers', {
      headers: { 'X-Switchboard-Token': token, Host: 'evil.example' },
    });
    expect(rebound.status).toBe(403);
  });

  describe('a page on another loopback port', () => {
    let foreign: Server;
    let foreignOrigin: string;
    beforeAll(async () => {
      foreign = createServer((_request, response) => {
        response.writeHead(200, { 'Content-Type': 'text/html' });
        response.end('<!doctype html><html lang="en"><title>elsewhere</title><body>elsewhere</body></html>');
      });
      foreignOrigin = (await listenOnRandomPort(foreign)).origin;
    });
    afterAll(async () => {
      // The browser keeps its connection alive; close it, or close() waits for it.
      foreign.closeAllConnections();
      await new Promise((resolve) => foreign.close(resolve));
    });

    it('cannot start a call with the page’s cookie', async () => {
      // The real page first, in the same browser: it holds the token cookie now.
      const page = await harness.open();
      const cookies = await page.context().cookies(harness.ui.origin);
      expect(cookies.map((cookie) => cookie.name)).toContain(
        `switchboard_ui_token_${new URL(harness.ui.origin).port}`,
      );

      await page.goto(`${foreignOrigin}/`);
      const answered = page.waitForResponse((response) =>
        response.url().startsWith(`${harness.ui.origin}/api/calls`),
      );
      await page.evaluate(
        async ({ target }) => {
          // no-cors + text/plain: a "simple" request, sent without a preflight, cookie included.
          await fetch(`${target}/api/calls`, {
            method: 'POST',
            mode: 'no-cors',
            credentials: 'include',
            headers: { 'Content-Type': 'text/plain' },
            body: JSON.stringify({
              server: 'everything',
              tool: 'echo',
              arguments: { message: 'sent from elsewhere' },
            }),
          });
        },
        { target: harness.ui.origin },
      );
      expect((await answered).status()).toBe(403);
      const log = await apiRequest<UiLogEntry[]>(harness.ui, 'GET', '/api/log');
      expect(JSON.stringify(log)).not.toContain('sent from elsewhere');
    });
  });
});
