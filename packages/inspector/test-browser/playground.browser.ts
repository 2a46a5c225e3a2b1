/**
 * The selection playground and the Metrics view over the connected tools: "add two numbers" puts
 * server-everything's get-sum first in the "Ranking" list; both views pass the axe check.
 */
import { describe, expect, it } from 'vitest';
import { findAccessibilityViolations, formatViolations } from './accessibility.js';
import { useUiHarness } from './ui-harness.js';
import { callThroughApi } from './ui-http.js';
import { expectServerConnected, expectText, LIVE_TIMEOUT_MS } from './ui-page.js';

describe('switchboard ui: playground and metrics', () => {
  const harness = useUiHarness();

  it('ranks get-sum first for "add two numbers"', async () => {
    const page = await harness.open('#/servers');
    await expectServerConnected(page, 'everything');
    await expectServerConnected(page, 'files');
    await page.getByRole('link', { name: 'Playground', exact: true }).click();
    harness.readmeImage('ui-playground');
    await page.getByRole('textbox', { name: 'Query', exact: true }).fill('add two numbers');
    await page.getByRole('button', { name: 'Select', exact: true }).click();
    const ranking = page.getByRole('list', { name: 'Ranking', exact: true });
    await ranking.getByRole('listitem').first().waitFor({ timeout: LIVE_TIMEOUT_MS });
    await expectText(ranking.getByRole('listitem').first(), /get-sum/);
    // The other tools are ranked too (the list is longer than the one that matched).
    expect(await ranking.getByRole('listitem').count()).toBeGreaterThan(1);
  });

  it('the Playground view has no serious or critical accessibility violations', async () => {
    const page = await harness.open('#/playground');
    await page.getByRole('textbox', { name: 'Query', exact: true }).fill('read a file');
    await page.getByRole('button', { name: 'Select', exact: true }).click();
    await page.getByRole('list', { name: 'Ranking', exact: true }).getByRole('listitem').first().waitFor();
    const violations = await findAccessibilityViolations(page);
    expect(violations, formatViolations('Playground', violations)).toEqual([]);
  });

  it('the Metrics view shows the calls made and has no serious or critical accessibility violations', async () => {
    for (let i = 0; i < 3; i++) {
      const call = await callThroughApi(harness.ui, {
        server: 'everything',
        tool: 'get-sum',
        arguments: { a: i, b: 1 },
      });
      expect(call.state).toBe('done');
    }
    const page = await harness.open('#/metrics');
    // The calls-per-tool table counts the three calls of this session.
    const row = page.getByRole('row').filter({ has: page.getByText('get-sum', { exact: true }) });
    await expectText(row, /^\s*get-sum\s+everything\s+3\s+0\b/);
    const violations = await findAccessibilityViolations(page);
    expect(violations, formatViolations('Metrics', violations)).toEqual([]);
  });
});
