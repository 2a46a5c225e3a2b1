/**
 * The Servers view against the two real stdio servers of the config: both come up connected, each
 * named by a link that is exactly its name, and the view passes the axe check.
 */
import { describe, expect, it } from 'vitest';
import { findAccessibilityViolations, formatViolations } from './accessibility.js';
import { useUiHarness } from './ui-harness.js';
import { expectServerConnected, serverRow, visibleText } from './ui-page.js';

describe('switchboard ui: servers', () => {
  const harness = useUiHarness();

  it('lists server-everything and server-filesystem as connected', async () => {
    const page = await harness.open('#/servers');
    harness.readmeImage('ui-servers');
    await expectServerConnected(page, 'everything');
    await expectServerConnected(page, 'files');
    // The figures come from the servers themselves: server-everything has more than ten tools.
    const everything = await visibleText(serverRow(page, 'everything'));
    expect(everything).toMatch(/stdio/);
    expect(await page.getByRole('link', { name: 'everything', exact: true }).count()).toBe(1);
  });

  it('opens a server’s tools from its link', async () => {
    const page = await harness.open('#/servers');
    await expectServerConnected(page, 'everything');
    await page.getByRole('link', { name: 'everything', exact: true }).click();
    await page.getByRole('link', { name: 'echo', exact: true }).first().waitFor();
    expect(page.url()).toContain('#/servers/everything');
  });

  it('the Servers view has no serious or critical accessibility violations', async () => {
    const page = await harness.open('#/servers');
    await expectServerConnected(page, 'everything');
    const violations = await findAccessibilityViolations(page);
    expect(violations, formatViolations('Servers', violations)).toEqual([]);
  });

  it('the Tools view (every server’s tools) has no serious or critical accessibility violations', async () => {
    const page = await harness.open('#/tools');
    await page.getByRole('link', { name: 'write_file', exact: true }).first().waitFor();
    const violations = await findAccessibilityViolations(page);
    expect(violations, formatViolations('Tools', violations)).toEqual([]);
  });
});
