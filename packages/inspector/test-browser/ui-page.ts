/**
 * Finding things in the page the way a screen-reader user does: by role and accessible name (the
 * names the issue fixes: a server's link is its name, "Call tool", the "Result" region, a field per
 * schema property labelled with the property's name, …). Waits poll the page; none is a timing
 * assertion, only an upper bound after which the test fails with what it saw.
 */
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/** How long a live change (a connection, an SSE event, a call's end) may take before a test fails. */
export const LIVE_TIMEOUT_MS = 30_000;

/**
 * The text a user sees in `locator` (its first match): rendered text, so the collapsed raw JSON of a
 * result or a hidden element does not count. Playwright's `innerText`, not the DOM property.
 */
export function visibleText(locator: Locator): Promise<string> {
  // biome-ignore lint/performance/useDomNodeTextContent: what is shown is the point; textContent includes hidden text.
  return locator.first().innerText();
}

/** The row of the Servers table whose name link is `server`. */
export function serverRow(page: Page, server: string): Locator {
  return page.getByRole('row').filter({ has: page.getByRole('link', { name: server, exact: true }) });
}

/** Waits until the server's row says `connected` (the word, not `disconnected`). */
export async function expectServerConnected(page: Page, server: string): Promise<void> {
  const row = serverRow(page, server);
  await expect
    .poll(async () => ((await row.count()) === 1 ? await visibleText(row) : `no row for ${server}`), {
      timeout: LIVE_TIMEOUT_MS,
      interval: 100,
    })
    .toMatch(/\bconnected\b/);
}

/** The region the result of a call is rendered in. */
export function resultRegion(page: Page): Locator {
  return page.getByRole('region', { name: 'Result', exact: true });
}

/** The call form's field of a schema property (its label is the property name, exactly). */
export function field(page: Page, property: string): Locator {
  return page.getByLabel(property, { exact: true });
}

/** Waits until `locator`'s visible text matches. */
export async function expectText(
  locator: Locator,
  pattern: RegExp,
  timeout = LIVE_TIMEOUT_MS,
): Promise<void> {
  await expect
    .poll(async () => ((await locator.count()) > 0 ? await visibleText(locator) : '(not in the page)'), {
      timeout,
      interval: 100,
    })
    .toMatch(pattern);
}

/** The hash of a tool's page: `#/servers/NAME/tools/TOOL`. */
export function toolHash(server: string, tool: string): string {
  return `#/servers/${encodeURIComponent(server)}/tools/${encodeURIComponent(tool)}`;
}
