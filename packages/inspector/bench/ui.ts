/**
 * `pnpm --filter @switchboard/inspector bench:ui [--runs N] [--steps N] [--json]`: how the page of
 * `switchboard ui` feels in Debian's Chromium, measured in one run against baselines from the
 * same run:
 *
 * - first page load: navigation start → the servers list shown (the server's name link in the
 *   DOM), a fresh browser context each run (empty cache), against a bare node:http static-file
 *   server serving the same bundle (navigation start → load event: the page cannot be shown
 *   sooner than its files arrive and run). Goal ≤ 1 s.
 * - the bundle: app.js + app.css gzipped (level 9, as build-page.mjs counts). Goal ≤ 300 kB.
 * - the log view with 10,000 messages: time to render it (navigation start → first log row), then
 *   per filter keystroke and per scroll step the time from the input to the next painted frame,
 *   against the same wait with no input (the frame floor), long tasks (> 50 ms) seen meanwhile, and
 *   the number of log rows in the DOM (virtualised: a screenful, not 10,000).
 *
 * - an MCP App's cost (server-basic-vanillajs's get-time, a fresh context each run): from the
 *   result shown (the app view mounting) to the app's first contentful paint (in the app's own
 *   frame, on the shared clock) and to the app ready (AppBridge handshake done, tool result
 *   delivered); then a second call on the same page (the AppBridge chunk cached). Beside the
 *   page's own first load.
 *
 * Cases run interleaved in rounds after one warm-up round, so a machine that slows down mid-run
 * slows every case alike. Prints median and p95 per case and the ratios.
 */
import { readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { appServerStdio, listenOnRandomPort } from '@switchboard/test-helpers';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import type { UiLogEntry } from '../src/ui-api.js';
import { assertChromiumInstalled, chromiumArgs, chromiumPath } from '../test-browser/chromium.js';
import { fillLog } from '../test-browser/fill-log.js';
import { createUiConfig } from '../test-browser/ui-config.js';
import { apiRequest } from '../test-browser/ui-http.js';
import { startUi, type UiProcess } from '../test-browser/ui-process.js';

const uiDir = fileURLToPath(new URL('../dist/page/', import.meta.url));
const LOG_ENTRIES = 10_000;

const json = process.argv.includes('--json');
const runs = numberFlag('--runs', Number(process.env.BENCH_RUNS ?? 15));
const steps = numberFlag('--steps', 30);

function numberFlag(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  const value = at === -1 ? fallback : Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} takes a whole number ≥ 1.`);
  return value;
}

function quantile(sorted: number[], q: number): number {
  const at = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[at] ?? Number.NaN;
}

interface Summary {
  name: string;
  runs: number;
  medianMs: number;
  p95Ms: number;
}

function summarise(name: string, samples: number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  return { name, runs: sorted.length, medianMs: quantile(sorted, 0.5), p95Ms: quantile(sorted, 0.95) };
}

// ---------------------------------------------------------------- the static-file floor

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** dist/page/ as plain files, nothing else: what serving the bundle costs by itself. */
async function startStaticFloor(): Promise<{ origin: string; server: Server }> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://floor').pathname;
    const file = normalize(join(uiDir, path === '/' ? 'index.html' : path));
    if (!file.startsWith(uiDir) || !statSync(file, { throwIfNoEntry: false })?.isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'Content-Type': types[extname(file)] ?? 'application/octet-stream' });
    response.end(readFileSync(file));
  });
  return { origin: (await listenOnRandomPort(server)).origin, server };
}

// ---------------------------------------------------------------- in-page marks

/**
 * Installed before any page script: records `performance.now()` (ms since navigation start) the
 * first time a link or button whose text is exactly the server's name, or a row of the protocol
 * log, is in the DOM. A MutationObserver sees it in the task that adds it, with no polling delay.
 */
function installMarks(serverName: string): void {
  const marks: Record<string, number> = {};
  (window as unknown as { __marks: Record<string, number> }).__marks = marks;
  const check = () => {
    if (marks.servers === undefined) {
      for (const element of document.querySelectorAll('a, button')) {
        if (element.textContent?.trim() === serverName) {
          marks.servers = performance.now();
          break;
        }
      }
    }
    if (marks.logRow === undefined) {
      if (document.querySelector('[aria-label="Protocol log"] tbody tr')) marks.logRow = performance.now();
    }
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true });
}

async function readMark(page: Page, name: 'servers' | 'logRow', timeoutMs = 30_000): Promise<number> {
  await page.waitForFunction(
    (mark) => (window as unknown as { __marks?: Record<string, number> }).__marks?.[mark] !== undefined,
    name,
    { timeout: timeoutMs, polling: 50 },
  );
  return page.evaluate(
    (mark) => (window as unknown as { __marks: Record<string, number> }).__marks[mark]!,
    name,
  );
}

async function loadEventEnd(page: Page): Promise<number> {
  await page.waitForFunction(
    () =>
      (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)
        ?.loadEventEnd,
    undefined,
    { polling: 50 },
  );
  return page.evaluate(
    () => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).loadEventEnd,
  );
}

// ---------------------------------------------------------------- first load

interface LoadSample {
  uiServersShown: number;
  uiLoadEvent: number;
  floorLoadEvent: number;
}

/** One first visit of the UI: navigation → servers list shown, and → load event. */
async function visitUi(
  browser: Browser,
  ui: UiProcess,
): Promise<{ serversShown: number; loadEvent: number }> {
  // A fresh context each time: no HTTP cache, no cookie — a first visit.
  const context = await freshContext(browser);
  const page = await context.newPage();
  await page.addInitScript(installMarks, 'everything');
  await page.goto(ui.url);
  const serversShown = await readMark(page, 'servers');
  const loadEvent = await loadEventEnd(page);
  await context.close();
  return { serversShown, loadEvent };
}

async function loadOnce(browser: Browser, ui: UiProcess, floorOrigin: string): Promise<LoadSample> {
  const visit = await visitUi(browser, ui);
  const floorContext = await freshContext(browser);
  const floorPage = await floorContext.newPage();
  await floorPage.goto(`${floorOrigin}/`);
  const floorLoadEvent = await loadEventEnd(floorPage);
  await floorContext.close();
  return { uiServersShown: visit.serversShown, uiLoadEvent: visit.loadEvent, floorLoadEvent };
}

// ---------------------------------------------------------------- the log view

interface LogFigures {
  entries: number;
  renderMs: Summary;
  filterWorkMs: Summary;
  filterFrameMs: Summary;
  scrollWorkMs: Summary;
  scrollFrameMs: Summary;
  floorFrameMs: Summary;
  longTasks: number;
  longestTaskMs: number;
  domRowsMax: number;
  filterMatched: boolean;
  /** Scroll steps whose rows were already replaced when their frame's rAF callback ran. */
  scrollRenderedInFrame: number;
}

/**
 * A context with an empty cache and no cookie. tsx compiles this file with esbuild's keepNames,
 * which wraps the functions handed to the page in a `__name(…)` helper the page lacks: define it.
 */
async function freshContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript({ content: 'globalThis.__name = (fn) => fn;' });
  return context;
}

async function measureLog(browser: Browser, ui: UiProcess): Promise<LogFigures> {
  const entries = (await apiRequest<UiLogEntry[]>(ui, 'GET', '/api/log')).length;
  const render: number[] = [];
  for (let run = 0; run < Math.max(3, Math.ceil(runs / 3)); run++) {
    const context = await freshContext(browser);
    const page = await context.newPage();
    await page.addInitScript(installMarks, 'everything');
    await page.goto(`${ui.url}#/log`);
    render.push(await readMark(page, 'logRow', 60_000));
    await context.close();
  }

  const context = await freshContext(browser);
  const page = await context.newPage();
  await page.goto(`${ui.url}#/log`);
  const log = page.getByRole('region', { name: 'Protocol log', exact: true });
  await log.locator('tbody tr').first().waitFor({ timeout: 60_000 });

  const figures = await page.evaluate(
    async ({ steps }) => {
      // The frame after the current task: two animation frames, then a task (quantised to frames).
      const nextFrame = () =>
        new Promise<void>((resolve) =>
          requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0))),
        );
      const long: number[] = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) long.push(entry.duration);
      }).observe({ type: 'longtask', buffered: false });
      const region = document.querySelector('[aria-label="Protocol log"]') as HTMLElement;
      const rows = () => region.querySelectorAll('tbody tr').length;
      let domRowsMax = rows();
      const scroller =
        [...region.querySelectorAll<HTMLElement>('*')].find(
          (element) =>
            element.scrollHeight > element.clientHeight + 10 &&
            /auto|scroll/.test(getComputedStyle(element).overflowY),
        ) ?? (document.scrollingElement as HTMLElement);

      /**
       * The work a scroll step costs: a scroll event is dispatched at the next frame, the
       * virtualiser's handler and Preact's render (a microtask) run then, before the frame's
       * animation-frame callbacks. So: the scroll event (a capture listener on window runs before
       * the element's own) → our rAF callback, with layout forced.
       */
      let scrollEventAt = Number.NaN;
      window.addEventListener(
        'scroll',
        (event) => {
          if (event.target === scroller) scrollEventAt = performance.now();
        },
        { capture: true, passive: true },
      );
      const firstRow = () => region.querySelector('tbody tr')?.getAttribute('aria-rowindex') ?? '';
      let renderedInFrame = 0;
      const scrollWork = (by: number) =>
        new Promise<number>((resolve) => {
          const before = firstRow();
          scrollEventAt = Number.NaN;
          scroller.scrollTop += by;
          requestAnimationFrame(() => {
            void region.offsetHeight;
            const elapsed = performance.now() - scrollEventAt;
            // Proof that the rows were replaced in this frame (so the work was measured).
            if (firstRow() !== before) renderedInFrame++;
            resolve(elapsed);
          });
        });

      // Follow mode shows the end of the log: start at the top, then step down.
      scroller.scrollTop = 0;
      await nextFrame();
      await nextFrame();
      const floorFrame: number[] = [];
      for (let i = 0; i < steps; i++) {
        const started = performance.now();
        await nextFrame();
        floorFrame.push(performance.now() - started);
      }

      // Scrolling: one screenful a step, down through the list.
      const scrollFrame: number[] = [];
      const scrollWorkMs: number[] = [];
      for (let i = 0; i < steps; i++) {
        scrollWorkMs.push(await scrollWork(scroller.clientHeight));
        domRowsMax = Math.max(domRowsMax, rows());
        await nextFrame();
        const started = performance.now();
        scroller.scrollTop += scroller.clientHeight;
        await nextFrame();
        scrollFrame.push(performance.now() - started);
        domRowsMax = Math.max(domRowsMax, rows());
      }

      // Filtering: one keystroke at a time into the log's text filter (the box labelled "Text").
      const filterBox =
        [...region.querySelectorAll<HTMLInputElement>('input')].find(
          (input) => input.labels?.[0]?.textContent?.trim() === 'Text',
        ) ?? null;
      const filterFrame: number[] = [];
      const filterWork: number[] = [];
      const typed = 'log filler 4242';
      const type = (value: string) => {
        filterBox!.value = value;
        filterBox!.dispatchEvent(new InputEvent('input', { bubbles: true }));
      };
      if (filterBox) {
        filterBox.focus();
        for (let i = 0; i < steps; i++) {
          // Type the string, then clear and type it again, until `steps` keystrokes are measured.
          const position = i % (typed.length + 1);
          const before = position === 0 ? '' : typed.slice(0, position);
          const value = position === typed.length ? '' : typed.slice(0, position + 1);
          // Work: the input handler, the filter over every entry, Preact's render (the microtask
          // the handler queued, which runs before this continuation) and the layout it causes.
          let started = performance.now();
          type(value);
          await null;
          void region.offsetHeight;
          filterWork.push(performance.now() - started);
          await nextFrame();
          // Frame: the same keystroke again, from the text before it, to the next painted frame.
          type(before);
          await nextFrame();
          started = performance.now();
          type(value);
          await nextFrame();
          filterFrame.push(performance.now() - started);
          domRowsMax = Math.max(domRowsMax, rows());
        }
        type(typed);
        await nextFrame();
      }
      const filterMatched =
        filterBox !== null && region.textContent?.includes(typed.slice('log '.length)) === true;
      return {
        floorFrame,
        scrollFrame,
        scrollWorkMs,
        filterFrame,
        filterWork,
        domRowsMax,
        long,
        filterMatched,
        filterFound: filterBox !== null,
        renderedInFrame,
      };
    },
    { steps },
  );
  await context.close();
  if (!figures.filterFound) throw new Error('bench:ui: the Log view has no text filter labelled "Text"');
  return {
    entries,
    renderMs: summarise('log view render (navigation → first row)', render),
    filterWorkMs: summarise('filter keystroke: work (→ DOM laid out)', figures.filterWork),
    scrollWorkMs: summarise('scroll step: work (event → DOM laid out)', figures.scrollWorkMs),
    filterFrameMs: summarise('filter keystroke → next frame', figures.filterFrame),
    scrollFrameMs: summarise('scroll step → next frame', figures.scrollFrame),
    floorFrameMs: summarise('floor: no input → next frame', figures.floorFrame),
    longTasks: figures.long.length,
    longestTaskMs: Math.max(0, ...figures.long),
    domRowsMax: figures.domRowsMax,
    filterMatched: figures.filterMatched,
    scrollRenderedInFrame: figures.renderedInFrame,
  };
}

// ---------------------------------------------------------------- an MCP App

interface AppSample {
  /** Result shown → the app's first contentful paint. */
  firstPaint: number;
  /** Result shown → the app has its tool result (handshake done). */
  ready: number;
  /** The same, for a second call on the same page (the bridge's chunk is loaded). */
  againReady: number;
}

/** Ms from the page's last `switchboard-app-open` mark to its last `switchboard-app-ready`, once there. */
async function appMarks(page: Page, count: number): Promise<{ openAt: number; ready: number }> {
  await page.waitForFunction(
    (count) => performance.getEntriesByName('switchboard-app-ready').length >= count,
    count,
    { timeout: 30_000, polling: 20 },
  );
  return page.evaluate(() => {
    const open = performance.getEntriesByName('switchboard-app-open').at(-1)!.startTime;
    const ready = performance.getEntriesByName('switchboard-app-ready').at(-1)!.startTime;
    return { openAt: performance.timeOrigin + open, ready: ready - open };
  });
}

/** One first visit of get-time's page: call it, and time its app. */
async function appOnce(browser: Browser, ui: UiProcess): Promise<AppSample> {
  const context = await freshContext(browser);
  const page = await context.newPage();
  await page.goto(`${ui.url}#/servers/basic/tools/get-time`);
  const call = page.getByRole('button', { name: 'Call tool', exact: true });
  await call.click({ timeout: 30_000 });
  const first = await appMarks(page, 1);
  const app = page.frames().find((frame) => frame.url().endsWith('/app'));
  if (app === undefined) throw new Error('bench:ui: the app frame is not in the page');
  await app.waitForFunction(
    () => performance.getEntriesByName('first-contentful-paint').length > 0,
    undefined,
    {
      polling: 20,
    },
  );
  const paintAt = await app.evaluate(
    () => performance.timeOrigin + performance.getEntriesByName('first-contentful-paint')[0]!.startTime,
  );
  await call.click();
  const again = await appMarks(page, 2);
  await context.close();
  return { firstPaint: paintAt - first.openAt, ready: first.ready, againReady: again.ready };
}

// ---------------------------------------------------------------- the run

async function main(): Promise<void> {
  assertChromiumInstalled();
  const bundle = ['app.js', 'app.css'].map((file) => {
    const bytes = readFileSync(join(uiDir, file));
    return { file, bytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length };
  });
  const gzipTotal = bundle.reduce((sum, file) => sum + file.gzipBytes, 0);

  const config = createUiConfig({
    only: ['everything'],
    extraServers: { basic: appServerStdio('server-basic-vanillajs', { approval: 'never' }) },
  });
  const ui = await startUi(config);
  const floor = await startStaticFloor();
  const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgs });
  try {
    // Wait until the server is connected, so the load measures the page, not the server's start.
    for (;;) {
      const servers = await apiRequest<Array<{ name: string; state: string }>>(ui, 'GET', '/api/servers');
      if (servers.filter((server) => server.state === 'connected').length === 2) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await loadOnce(browser, ui, floor.origin); // warm-up round, not counted
    const samples: LoadSample[] = [];
    for (let run = 0; run < runs; run++) samples.push(await loadOnce(browser, ui, floor.origin));
    const load = [
      summarise(
        'ui: navigation → servers list shown',
        samples.map((sample) => sample.uiServersShown),
      ),
      summarise(
        'ui: navigation → load event',
        samples.map((sample) => sample.uiLoadEvent),
      ),
      summarise(
        'static floor: navigation → load event',
        samples.map((sample) => sample.floorLoadEvent),
      ),
    ];

    await appOnce(browser, ui); // warm-up, not counted
    const appSamples: AppSample[] = [];
    for (let run = 0; run < runs; run++) appSamples.push(await appOnce(browser, ui));
    const app = [
      summarise(
        'app: result → app first paint',
        appSamples.map((sample) => sample.firstPaint),
      ),
      summarise(
        'app: result → app ready (result delivered)',
        appSamples.map((sample) => sample.ready),
      ),
      summarise(
        'app, second call: result → app ready',
        appSamples.map((sample) => sample.againReady),
      ),
    ];

    await fillLog(ui, LOG_ENTRIES);
    // The page loads the protocol log at start, whatever the view: the first load again, now with
    // a full log to fetch.
    const fullLogSamples: number[] = [];
    for (let run = 0; run < runs; run++) fullLogSamples.push((await visitUi(browser, ui)).serversShown);
    load.push(summarise(`ui, ${LOG_ENTRIES} log entries: → servers shown`, fullLogSamples));
    const log = await measureLog(browser, ui);

    const ratio = load[0]!.medianMs / load[2]!.medianMs;
    const result = {
      node: process.version,
      chromium: browser.version(),
      runs,
      steps,
      firstLoad: load,
      firstLoadRatioVsStaticFloor: ratio,
      bundle: { files: bundle, gzipTotal },
      app,
      appFirstPaintRatioVsFirstLoad: app[0]!.medianMs / load[0]!.medianMs,
      log,
    };
    if (json) {
      console.log(JSON.stringify(result, null, 2));
      return;
    }
    const line = (summary: Summary) =>
      `  ${summary.name.padEnd(44)} median ${summary.medianMs.toFixed(1).padStart(7)} ms   p95 ${summary.p95Ms.toFixed(1).padStart(7)} ms   (n=${summary.runs})`;
    console.log(`switchboard ui bench — Node ${process.version}, Chromium ${browser.version()}\n`);
    console.log('first page load (fresh context each run, server-everything connected):');
    for (const summary of load) console.log(line(summary));
    console.log(
      `  ratio servers-shown / static floor (medians): ${ratio.toFixed(2)}×   goal: servers shown ≤ 1000 ms`,
    );
    console.log('\nan MCP App (server-basic-vanillajs get-time, fresh context each run):');
    for (const summary of app) console.log(line(summary));
    console.log(
      `  ratio app first paint / the page's servers shown (medians): ${result.appFirstPaintRatioVsFirstLoad.toFixed(2)}×`,
    );
    console.log('\nbundle (gzip -9):');
    for (const file of bundle) {
      console.log(
        `  ${file.file.padEnd(10)} ${(file.bytes / 1024).toFixed(1).padStart(8)} kB  ${(file.gzipBytes / 1024).toFixed(1).padStart(7)} kB gzipped`,
      );
    }
    console.log(`  total ${(gzipTotal / 1024).toFixed(1)} kB gzipped   goal: ≤ 300 kB`);
    console.log(`\nlog view with ${log.entries} entries:`);
    for (const summary of [
      log.renderMs,
      log.filterWorkMs,
      log.scrollWorkMs,
      log.filterFrameMs,
      log.scrollFrameMs,
      log.floorFrameMs,
    ])
      console.log(line(summary));
    const overFloor = (summary: Summary) => (summary.medianMs / log.floorFrameMs.medianMs).toFixed(2);
    console.log(
      `  to the next frame over the no-input floor (medians): filter ${overFloor(log.filterFrameMs)}×, scroll ${overFloor(log.scrollFrameMs)}× (a frame is ${(1000 / 60).toFixed(1)} ms)`,
    );
    console.log(
      `  long tasks (> 50 ms) while scrolling and filtering: ${log.longTasks}, longest ${log.longestTaskMs.toFixed(0)} ms`,
    );
    console.log(`  log rows in the DOM (max seen): ${log.domRowsMax} of ${log.entries}`);
    console.log(`  filter found the typed entry: ${log.filterMatched}`);
    console.log(
      `  scroll steps whose rows changed within their frame: ${log.scrollRenderedInFrame} of ${steps}`,
    );
  } finally {
    await browser.close();
    await new Promise((resolve) => floor.server.close(resolve));
    await ui.stop();
    config.cleanup();
  }
}

await main();
