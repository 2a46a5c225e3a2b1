/**
 * The harness itself, before any `switchboard ui`: Debian's Chromium starts under playwright-core,
 * and the axe check reports a serious violation where there is one (so that its silence on the
 * real views means something).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAccessibilityViolations } from './accessibility.js';
import { assertChromiumInstalled, type ChromiumSession, chromiumPath, launchChromium } from './chromium.js';

// A test of its own, outside any hook: a machine without the browser shows a failed test that
// says what to run, not only a failed hook and skipped tests.
it('finds the Chromium the browser tests drive', () => {
  expect(() => assertChromiumInstalled(), chromiumPath).not.toThrow();
});

describe('browser harness', () => {
  let chromium: ChromiumSession;
  beforeAll(async () => {
    chromium = await launchChromium();
  });
  afterAll(async () => {
    await chromium?.close();
  });

  it('runs Debian chromium headless', async () => {
    const page = await chromium.context.newPage();
    await page.setContent('<main><h1>Switchboard</h1></main>');
    expect(await page.getByRole('heading', { name: 'Switchboard' }).count()).toBe(1);
    expect(await page.evaluate(() => navigator.userAgent)).toMatch(/HeadlessChrome\/\d+/);
    await page.close();
  });

  it('axe finds a critical violation on a broken page and none on a clean one', async () => {
    const page = await chromium.context.newPage();
    await page.setContent(
      '<!doctype html><html lang="en"><head><title>broken</title></head><body><main>' +
        '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><button></button></main></body></html>',
    );
    const broken = await findAccessibilityViolations(page);
    expect(broken.map((violation) => violation.rule)).toEqual(
      expect.arrayContaining(['image-alt', 'button-name']),
    );
    await page.setContent(
      '<!doctype html><html lang="en"><head><title>clean</title></head><body><main><h1>Clean</h1>' +
        '<img alt="a dot" src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><button>Go</button></main></body></html>',
    );
    expect(await findAccessibilityViolations(page)).toEqual([]);
    await page.close();
  });
});
