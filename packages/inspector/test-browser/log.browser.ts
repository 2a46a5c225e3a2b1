/**
 * The protocol log: the messages of a call appear in the "Protocol log" region, and with 10,000
 * entries in the ring buffer the view keeps only a screenful of rows in the DOM (virtualised) — a
 * count, not a timing; bench/ui.ts measures how fast it renders, filters and scrolls.
 */
import { describe, expect, it } from 'vitest';
import type { UiLogEntry } from '../src/ui-api.js';
import { findAccessibilityViolations, formatViolations } from './accessibility.js';
import { fillLog } from './fill-log.js';
import { useUiHarness } from './ui-harness.js';
import { apiRequest, callThroughApi } from './ui-http.js';
import { expectText, LIVE_TIMEOUT_MS, visibleText } from './ui-page.js';

describe('switchboard ui: protocol log', () => {
  const harness = useUiHarness();

  it('shows the JSON-RPC messages of a call', async () => {
    const call = await callThroughApi(harness.ui, {
      server: 'everything',
      tool: 'echo',
      arguments: { message: 'logged by the browser test' },
    });
    expect(call.state).toBe('done');
    const page = await harness.open('#/log');
    const log = page.getByRole('region', { name: 'Protocol log', exact: true });
    await log.waitFor({ timeout: LIVE_TIMEOUT_MS });
    await expectText(log, /tools\/call/);
    await expectText(log, /initialize|tools\/list/);
  });

  it('the Log view has no serious or critical accessibility violations', async () => {
    const page = await harness.open('#/log');
    const log = page.getByRole('region', { name: 'Protocol log', exact: true });
    await expectText(log, /tools\/call/);
    const violations = await findAccessibilityViolations(page);
    expect(violations, formatViolations('Log', violations)).toEqual([]);
  });

  it('keeps few DOM rows with 10,000 entries (virtualised)', async () => {
    await fillLog(harness.ui, 10_000);
    const entries = await apiRequest<UiLogEntry[]>(harness.ui, 'GET', '/api/log');
    expect(entries.length).toBeGreaterThanOrEqual(10_000);
    const page = await harness.open('#/log');
    const log = page.getByRole('region', { name: 'Protocol log', exact: true });
    const rows = log.getByRole('table', { name: 'Messages' }).getByRole('row');
    // Follow mode shows the newest messages: the last echo calls.
    await rows.filter({ hasText: 'log filler' }).first().waitFor({ timeout: LIVE_TIMEOUT_MS });
    // The page holds them all (its count says so) …
    await expectText(log, /of [\d,.\s]+ messages/);
    const counted = /of ([\d,.\s]+) messages/.exec(await visibleText(log))?.[1] ?? '0';
    expect(Number(counted.replace(/\D/g, ''))).toBeGreaterThanOrEqual(10_000);
    // … and renders a screenful of them.
    const rendered = await rows.count();
    expect(rendered).toBeGreaterThan(1);
    expect(rendered).toBeLessThan(200);
  });
});
