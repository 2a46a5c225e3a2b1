/**
 * One screenshot per test under `test-browser/screenshots/` (gitignored): what the page looked like
 * when the test ended, passed or failed. The few the README shows are copied to `docs/images/` only
 * when `SWITCHBOARD_README_IMAGES=1`, so that an ordinary run (CI's) never rewrites tracked files.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const screenshotDir = join(here, 'screenshots');
const readmeImageDir = join(here, '..', '..', '..', 'docs', 'images');

/** A file name from a test's title: `calls echo through the form` → `calls-echo-through-the-form`. */
export function screenshotName(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 80);
}

/**
 * Saves `screenshots/<name>.png`; with `readmeImage`, also `docs/images/<readmeImage>.png` when
 * `SWITCHBOARD_README_IMAGES=1`.
 */
export async function saveScreenshot(
  page: Page,
  name: string,
  options: { readmeImage?: string } = {},
): Promise<string> {
  mkdirSync(screenshotDir, { recursive: true });
  const file = join(screenshotDir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  if (options.readmeImage && process.env.SWITCHBOARD_README_IMAGES === '1') {
    mkdirSync(readmeImageDir, { recursive: true });
    copyFileSync(file, join(readmeImageDir, `${options.readmeImage}.png`));
  }
  return file;
}
