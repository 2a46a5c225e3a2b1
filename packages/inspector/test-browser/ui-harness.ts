/**
 * What every browser test file shares, wired into vitest's hooks: one temp config, one real
 * `switchboard ui` child and one Chromium per file; a fresh page per test, and a screenshot of it
 * when the test ends (passed or failed), named after the test. Teardown ends the browser and the
 * child and removes the temp folders even when a test failed.
 */
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { type ChromiumSession, launchChromium } from './chromium.js';
import { saveScreenshot, screenshotName } from './screenshots.js';
import { createUiConfig, type UiConfig } from './ui-config.js';
import { startUi, type UiProcess } from './ui-process.js';

/** The handles a test uses; read them inside tests (they are set by `beforeAll` / `beforeEach`). */
export interface UiHarness {
  readonly ui: UiProcess;
  readonly config: UiConfig;
  readonly page: Page;
  /** Opens the printed URL (token and all), with `hash` (`#/log`) when given: one navigation. */
  open(hash?: string): Promise<Page>;
  /** Also copy this test's screenshot to `docs/images/<name>.png` (see screenshots.ts). */
  readmeImage(name: string): void;
}

/** Registers the hooks in the calling test file and returns the harness. */
export function useUiHarness(options: Parameters<typeof createUiConfig>[0] = {}): UiHarness {
  let config: UiConfig | undefined;
  let ui: UiProcess | undefined;
  let chromium: ChromiumSession | undefined;
  let page: Page | undefined;
  let readme: string | undefined;

  beforeAll(async () => {
    config = createUiConfig(options);
    ui = await startUi(config);
    chromium = await launchChromium();
  });

  afterAll(async () => {
    await chromium?.close();
    await ui?.stop();
    config?.cleanup();
  });

  beforeEach(async () => {
    readme = undefined;
    page = await chromium!.context.newPage();
  });

  afterEach(async (context) => {
    if (!page) return;
    try {
      await saveScreenshot(page, screenshotName(context.task.name), readme ? { readmeImage: readme } : {});
    } finally {
      await page.close();
      page = undefined;
    }
  });

  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} is not ready: use the harness inside a test`);
    return value;
  };

  return {
    get ui() {
      return need(ui, 'switchboard ui');
    },
    get config() {
      return need(config, 'the config');
    },
    get page() {
      return need(page, 'the page');
    },
    async open(hash?: string) {
      const current = need(page, 'the page');
      const running = need(ui, 'switchboard ui');
      // Always the token URL: the page takes the token from it (and the process sets its cookie).
      await current.goto(hash === undefined ? running.url : `${running.url}${hash}`);
      return current;
    },
    readmeImage(name: string) {
      readme = name;
    },
  };
}
