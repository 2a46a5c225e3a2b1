/**
 * Run by `pnpm build` after tsc: bundles the inspector's page (src/page/, Preact + TSX) into
 * dist/page/ — index.html, app.js and app.css (uPlot's stylesheet included) — which the inspector's
 * process (`switchboard ui`) serves as static files. Entry names are fixed, not hashed: the process
 * serves only this one build, from its own package, so there is no cache to bust. What the page
 * loads on demand (the MCP Apps host: the AppBridge and the SDK under it) is split into `chunks/`;
 * the sandbox proxy of MCP Apps is built on its own (`sandbox-proxy.js`, served by the sandbox origin).
 *
 * The page's first load has a budget of 300 kB gzipped (issue 16), what it loads on demand 200 kB:
 * the build prints each file's gzipped size and fails when a total is over, so a heavy import is
 * caught where it is added.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist', 'page');
const budgetBytes = 300 * 1024;
const onDemandBudgetBytes = 200 * 1024;

rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });

const common = {
  outdir,
  bundle: true,
  minify: true,
  platform: 'browser',
  target: ['es2022', 'chrome111', 'firefox115', 'safari16'],
  legalComments: 'none',
  logLevel: 'warning',
  define: { 'process.env.NODE_ENV': '"production"' },
};
await build({
  ...common,
  entryPoints: { app: join(root, 'src', 'page', 'main.tsx') },
  format: 'esm',
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  jsx: 'automatic',
  jsxImportSource: 'preact',
});
await build({
  ...common,
  entryPoints: { 'sandbox-proxy': join(root, 'src', 'page', 'sandbox-proxy.ts') },
  format: 'iife',
});
copyFileSync(join(root, 'src', 'page', 'index.html'), join(outdir, 'index.html'));

const firstLoad = ['index.html', 'app.js', 'app.css'];
const onDemand = readdirSync(join(outdir, 'chunks')).map((file) => `chunks/${file}`);
const report = (files) => {
  let total = 0;
  const rows = files.map((file) => {
    const bytes = readFileSync(join(outdir, file));
    const gzip = gzipSync(bytes, { level: 9 }).length;
    total += gzip;
    return `  ${file.padEnd(34)} ${kB(bytes.length).padStart(9)}  ${kB(gzip).padStart(9)} gzipped`;
  });
  return { total, rows };
};
const first = report(firstLoad);
const later = report(onDemand);
console.log(
  `build-page: dist/page/\n${first.rows.join('\n')}\n  first load ${kB(first.total)} gzipped (budget ${kB(budgetBytes)})\n${later.rows.join('\n')}\n  on demand ${kB(later.total)} gzipped (budget ${kB(onDemandBudgetBytes)})`,
);
for (const [what, total, budget] of [
  ['first load', first.total, budgetBytes],
  ['on-demand part', later.total, onDemandBudgetBytes],
]) {
  if (total > budget) {
    throw new Error(
      `build-page: the page's ${what} is ${kB(total)} gzipped, over its ${kB(budget)} budget: find the heavy import in packages/inspector/src/page (esbuild --metafile shows what each module weighs) and drop or lazy-load it.`,
    );
  }
}

function kB(bytes) {
  return `${(bytes / 1024).toFixed(1)} kB`;
}
