/**
 * MCP Apps through the inspector's API, against the official example App servers over stdio: an
 * ended call of an app tool opens a view whose sandbox documents (another loopback origin, no
 * token) carry the app's HTML under the CSP its resource declares; the app's requests relayed by
 * the page reach its own server (tools/call as a call of the page, app-only tools included;
 * resources/read), are logged on the app channel, and anything else is refused by code.
 */
import { appServerStdio } from '@switchboard/test-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appContentSecurityPolicy } from '../src/app-content-security-policy.js';
import type { UiAppView, UiCall, UiCallStarted, UiErrorBody, UiLogEntry } from '../src/ui-api.js';
import { type EventReader, eventOf, startUi, type UiHarness } from './inspector-harness.js';

let ui: UiHarness;
let events: EventReader;

beforeAll(async () => {
  ui = await startUi({
    basic: appServerStdio('server-basic-vanillajs', { approval: 'never' }),
    monitor: appServerStdio('server-system-monitor', { approval: 'never' }),
  });
  events = await ui.events();
});
afterAll(async () => {
  await ui?.close();
});

/** Calls a tool from the page and opens the app of its result. */
async function openAppOf(server: string, tool: string): Promise<UiAppView> {
  const started = await ui.api<UiCallStarted>('POST', '/api/calls', { server, tool, arguments: {} });
  expect(started.status).toBe(202);
  const { callId } = started.body;
  await events.next(eventOf('call-end', (event) => event.call.callId === callId));
  const opened = await ui.api<UiAppView>('POST', '/api/apps', { callId });
  expect(opened.status).toBe(200);
  return opened.body;
}

function appRequest<T>(view: UiAppView, method: string, params?: unknown) {
  return ui.api<T>('POST', `/api/apps/${view.viewId}/requests`, { method, params });
}

describe('inspector: MCP Apps', () => {
  it('opens the app of an ended call: the tool, its input and result, a sandbox of another origin', async () => {
    const view = await openAppOf('basic', 'get-time');
    expect(view.server).toBe('basic');
    expect(view.resourceUri).toBe('ui://get-time/mcp-app.html');
    expect(view.tool.name).toBe('get-time');
    // As the server listed it (ext-apps' registerAppTool writes both spellings).
    expect(view.tool._meta).toEqual({
      ui: { resourceUri: 'ui://get-time/mcp-app.html' },
      'ui/resourceUri': 'ui://get-time/mcp-app.html',
    });
    expect(view.toolInput).toEqual({ arguments: {} });
    expect((view.toolResult as { structuredContent: { time: string } }).structuredContent.time).toMatch(
      /^\d{4}-/,
    );
    expect(view.sandboxOrigin).not.toBe(ui.server.origin);
    expect(view.sandboxUrl.startsWith(`${view.sandboxOrigin}/views/${view.viewId}/`)).toBe(true);

    // No token needed, none given: the proxy page may be framed by the inspector's page only.
    const proxy = await fetch(view.sandboxUrl);
    expect(proxy.status).toBe(200);
    expect(proxy.headers.get('content-security-policy')).toContain(`frame-ancestors ${ui.server.origin}`);
    expect(await proxy.text()).toContain('sandbox-proxy.js');
    // The app's HTML, under the spec's default CSP (it declared no domain): no network at all.
    const app = await fetch(`${view.sandboxUrl}app`);
    expect(app.status).toBe(200);
    const csp = app.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("connect-src 'none'");
    expect(csp).toContain("default-src 'none'");
    expect(await app.text()).toContain('get-time');
    // The page may frame the sandbox origin, and only it.
    const page = await fetch(`${ui.server.origin}/`, { headers: { 'x-switchboard-token': ui.server.token } });
    expect(page.headers.get('content-security-policy')).toContain(`frame-src ${view.sandboxOrigin}`);
  });

  it("relays the app's tools/call to its server as a call of the page, logged on the app channel", async () => {
    const view = await openAppOf('basic', 'get-time');
    const answer = await appRequest<{ structuredContent: { time: string } }>(view, 'tools/call', {
      name: 'get-time',
      arguments: {},
    });
    expect(answer.status).toBe(200);
    expect(answer.body.structuredContent.time).toMatch(/^\d{4}-/);
    const calls = (await ui.api<UiCall[]>('GET', '/api/calls')).body;
    expect(calls.at(-1)?.app).toEqual({ viewId: view.viewId, resourceUri: 'ui://get-time/mcp-app.html' });
    const log = (await ui.api<UiLogEntry[]>('GET', '/api/log?server=basic')).body;
    const appEntries = log.filter((entry) => entry.channel === 'app');
    expect(appEntries.slice(-2).map((entry) => [entry.direction, entry.method])).toEqual([
      ['in', 'tools/call'],
      ['out', 'tools/call'],
    ]);
  });

  it("reads a resource of the app's server for the app", async () => {
    const view = await openAppOf('basic', 'get-time');
    const answer = await appRequest<{ contents: Array<{ uri: string; mimeType?: string }> }>(
      view,
      'resources/read',
      { uri: 'ui://get-time/mcp-app.html' },
    );
    expect(answer.status).toBe(200);
    expect(answer.body.contents[0]?.mimeType).toBe('text/html;profile=mcp-app');
  });

  it('lets an app call its app-only tool, and refuses another server’s tool and other methods', async () => {
    const monitor = await openAppOf('monitor', 'get-system-info');
    const polled = await appRequest<{ structuredContent: { uptime: unknown } }>(monitor, 'tools/call', {
      name: 'poll-system-stats',
      arguments: {},
    });
    expect(polled.status).toBe(200);
    expect(polled.body.structuredContent.uptime).toBeDefined();

    const basic = await openAppOf('basic', 'get-time');
    const foreign = await appRequest<UiErrorBody>(basic, 'tools/call', { name: 'poll-system-stats' });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.code).toBe('APP_REQUEST_REFUSED');
    const sampling = await appRequest<UiErrorBody>(basic, 'sampling/createMessage', {});
    expect(sampling.status).toBe(403);
    expect(sampling.body.error.code).toBe('APP_REQUEST_REFUSED');
  });

  it('closes a view: its sandbox documents and requests are gone', async () => {
    const view = await openAppOf('basic', 'get-time');
    expect((await ui.api('DELETE', `/api/apps/${view.viewId}`)).status).toBe(200);
    expect((await fetch(view.sandboxUrl)).status).toBe(404);
    const after = await appRequest<UiErrorBody>(view, 'tools/call', { name: 'get-time' });
    expect(after.status).toBe(404);
    expect(after.body.error.code).toBe('UI_UNKNOWN_APP');
  });
});

describe('appContentSecurityPolicy', () => {
  it("grants the declared origins, never one of the inspector's ports nor a malformed source", () => {
    const policy = appContentSecurityPolicy(
      {
        connectDomains: [
          'https://api.example.com',
          'http://127.0.0.1:4000',
          "https://a.example 'unsafe-eval'",
        ],
        resourceDomains: ['https://cdn.example.com', 'http://localhost:*'],
      },
      { frameAncestors: ['http://127.0.0.1:5000'], forbiddenPorts: [4000, 5000] },
    );
    expect(policy.granted).toEqual({
      connectDomains: ['https://api.example.com'],
      resourceDomains: ['https://cdn.example.com'],
    });
    expect(policy.refused.map((refusal) => refusal.source)).toEqual([
      'http://127.0.0.1:4000',
      "https://a.example 'unsafe-eval'",
      'http://localhost:*',
    ]);
    expect(policy.header).toContain('connect-src https://api.example.com;');
    expect(policy.header).toContain("script-src 'self' 'unsafe-inline' https://cdn.example.com;");
    expect(policy.header).toContain('frame-ancestors http://127.0.0.1:5000');
    expect(policy.header).not.toContain('unsafe-eval');
  });
});
