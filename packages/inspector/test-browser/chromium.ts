/**
 * Debian's Chromium under playwright-core, with the flags that keep it quiet on a closed network
 * (no background downloads, no QUIC, no sync) and a profile of its own that is deleted afterwards.
 * Never Playwright's downloaded browsers: `scripts/chromium.sh` installs the one we drive.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

/** Where the browser is: `SWITCHBOARD_CHROMIUM` (what `scripts/chromium.sh` printed) or Debian's path. */
export const chromiumPath = process.env.SWITCHBOARD_CHROMIUM || '/usr/bin/chromium';

/** The command-line flags every launch uses. */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A running Chromium with one browsing context; `close` ends it and removes its profile. */
export interface ChromiumSession {
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Fails, never skips, when the browser is missing: a suite that passes without having run in a
 * browser would say something untrue.
 */
export function assertChromiumInstalled(): void {
  if (!existsSync(chromiumPath)) {
    throw new Error(
      `Chromium not found at ${chromiumPath}: the browser tests drive Debian's chromium. ` +
        'Run scripts/chromium.sh (installs it with apt-get, as root or via sudo), or set SWITCHBOARD_CHROMIUM to its path.',
    );
  }
}

/** Starts headless Chromium with a fresh user-data-dir. */
export async function launchChromium(
  options: { viewport?: { width: number; height: number } } = {},
): Promise<ChromiumSession> {
  assertChromiumInstalled();
  const profile = mkdtempSync(join(tmpdir(), 'switchboard-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: chromiumArgs,
    viewport: options.viewport ?? { width: 1280, height: 800 },
  });
  return {
    context,
    async close() {
      await context.close().catch(() => {});
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
