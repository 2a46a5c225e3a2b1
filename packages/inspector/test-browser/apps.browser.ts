/**
 * MCP Apps in the page, against the official example App servers (started with this Node over
 * stdio): the result of an app tool renders in its app — the sandbox frame loads, the AppBridge
 * handshake completes and the app shows the tool's result — and a call the app makes goes through
 * the page's approval prompt to the server (seen on the wire in the protocol log, and its answer
 * back in the app). The app runs in an opaque origin that cannot reach the inspector's API. An
 * app-only tool (server-system-monitor's `poll-system-stats`) is marked so, kept from the selection
 * playground, and called by its app.
 */
import { appServerStdio } from '@switchboard/test-helpers';
import type { Frame, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { UiCall, UiLogEntry, UiSelection } from '../src/ui-api.js';
import { useUiHarness } from './ui-harness.js';
import { apiRequest } from './ui-http.js';
import { expectText, LIVE_TIMEOUT_MS, resultRegion, toolHash, visibleText } from './ui-page.js';

/** The `tools/call` requests the process sent to `server` (the wire, not the app's channel). */
async function toolCallsSent(
  harness: ReturnType<typeof useUiHarness>,
  server: string,
): Promise<UiLogEntry[]> {
  const log = await apiRequest<UiLogEntry[]>(harness.ui, 'GET', `/api/log?server=${server}`);
  return log.filter(
    (entry) =>
      entry.channel === undefined &&
      entry.direction === 'out' &&
      entry.type === 'request' &&
      entry.method === 'tools/call',
  );
}

/** The `time` a get-time call answered. */
function timeOf(call: UiCall | undefined): string | undefined {
  return (call?.result as { structuredContent?: { time?: string } } | undefined)?.structuredContent?.time;
}

/** The frame the app's own document runs in (inside the sandbox proxy's frame). */
async function appFrame(page: Page): Promise<Frame> {
  let found: Frame | undefined;
  await expect
    .poll(
      () => {
        found = page.frames().find((frame) => frame.url().endsWith('/app'));
        return found !== undefined;
      },
      { timeout: LIVE_TIMEOUT_MS },
    )
    .toBe(true);
  return found as Frame;
}

/** Waits for the app of the shown result to finish its handshake and receive the result. */
async function expectAppReady(page: Page): Promise<void> {
  const app = resultRegion(page).locator('[data-app-state]');
  await expect
    .poll(async () => ((await app.count()) > 0 ? await app.getAttribute('data-app-state') : 'absent'), {
      timeout: LIVE_TIMEOUT_MS,
    })
    .toBe('ready');
}

describe('switchboard ui: MCP Apps', () => {
  const harness = useUiHarness({
    only: [],
    extraServers: {
      basic: appServerStdio('server-basic-vanillajs'),
      // Its app polls every few seconds: no approval prompt for each poll.
      monitor: appServerStdio('server-system-monitor', { approval: 'never' }),
    },
  });

  it('renders get-time in its app, and a call made inside the app reaches the server', async () => {
    const page = await harness.open(toolHash('basic', 'get-time'));
    harness.readmeImage('ui-app');
    await page.getByRole('button', { name: 'Call tool', exact: true }).click();
    // get-time has no readOnlyHint: the policy asks, as for any call of the page.
    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    await expectAppReady(page);
    const [first] = await apiRequest<UiCall[]>(harness.ui, 'GET', '/api/calls');
    const firstTime = timeOf(first);
    expect(firstTime).toMatch(/^\d{4}-\d\d-\d\dT/);

    // The app got the tool result through the AppBridge and shows it.
    const app = await appFrame(page);
    await expect
      .poll(() => visibleText(app.locator('body')), { timeout: LIVE_TIMEOUT_MS })
      .toContain(firstTime);
    expect(await toolCallsSent(harness, 'basic')).toHaveLength(1);

    // Its own button calls get-time through the host: the page's approval prompt, marked as the app's.
    await app.getByRole('button', { name: 'Get Server Time' }).click();
    const dialog = page.getByRole('dialog');
    await expectText(dialog, /Asked by the MCP App ui:\/\/get-time\/mcp-app\.html/);
    await dialog.getByRole('button', { name: 'Approve', exact: true }).click();
    await expect
      .poll(async () => (await toolCallsSent(harness, 'basic')).length, { timeout: LIVE_TIMEOUT_MS })
      .toBe(2);
    const byApp = (await apiRequest<UiCall[]>(harness.ui, 'GET', '/api/calls')).find(
      (call) => call.app !== undefined,
    );
    expect(byApp?.state).toBe('done');
    const secondTime = timeOf(byApp);
    expect(secondTime).not.toBe(firstTime);
    // The server's answer went back into the app.
    await expect
      .poll(() => visibleText(app.locator('body')), { timeout: LIVE_TIMEOUT_MS })
      .toContain(secondTime);
    // The protocol log shows the app's request and its answer on the app channel.
    const appEntries = (await apiRequest<UiLogEntry[]>(harness.ui, 'GET', '/api/log?server=basic')).filter(
      (entry) => entry.channel === 'app',
    );
    expect(appEntries.map((entry) => [entry.direction, entry.type, entry.method])).toEqual([
      ['in', 'request', 'tools/call'],
      ['out', 'response', 'tools/call'],
    ]);
  });

  it('runs the app in an opaque origin that cannot reach the inspector, and toggles to the raw result', async () => {
    const page = await harness.open(toolHash('basic', 'get-time'));
    await page.getByRole('button', { name: 'Call tool', exact: true }).click();
    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    await expectAppReady(page);
    const app = await appFrame(page);
    expect(await app.evaluate(() => self.origin)).toBe('null');
    expect(new URL(app.url()).origin).not.toBe(harness.ui.origin);
    // The CSP of an app that declared no domains: no network at all, the inspector's API included.
    const reached = await app.evaluate(async (url) => {
      try {
        await fetch(url, { credentials: 'include' });
        return 'reached';
      } catch {
        return 'blocked';
      }
    }, `${harness.ui.origin}/api/servers`);
    expect(reached).toBe('blocked');

    await resultRegion(page).getByRole('radio', { name: 'Raw result' }).check();
    await expect.poll(() => resultRegion(page).locator('iframe').count()).toBe(0);
    expect(await visibleText(resultRegion(page))).toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d/);
    await resultRegion(page).getByRole('radio', { name: 'App' }).check();
    await expectAppReady(page);
  });

  it('marks an app-only tool, keeps it from the playground, and lets its app call it', async () => {
    const page = await harness.open('#/servers/monitor');
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'poll-system-stats' }) });
    await expectText(row, /app only/);
    const selection = await apiRequest<UiSelection>(harness.ui, 'POST', '/api/select', {
      query: 'poll system stats cpu memory uptime',
      signals: 'lexical',
    });
    expect(selection.ranking.map((tool) => tool.name)).not.toContain('mcp__monitor__poll-system-stats');
    expect(selection.ranking.map((tool) => tool.name)).toContain('mcp__monitor__get-system-info');

    await page.goto(`${harness.ui.url}${toolHash('monitor', 'get-system-info')}`);
    await page.getByRole('button', { name: 'Call tool', exact: true }).click();
    await expectAppReady(page);
    // On the tool result the app starts polling its app-only tool through the host.
    await expect
      .poll(
        async () =>
          (await toolCallsSent(harness, 'monitor')).some(
            (entry) => (entry.message as { params?: { name?: string } }).params?.name === 'poll-system-stats',
          ),
        { timeout: LIVE_TIMEOUT_MS },
      )
      .toBe(true);
    const polled = (await apiRequest<UiCall[]>(harness.ui, 'GET', '/api/calls')).find(
      (call) => call.tool === 'poll-system-stats' && call.state === 'done',
    );
    expect(polled?.app?.resourceUri).toBe('ui://system-monitor/mcp-app.html');
  });
});
