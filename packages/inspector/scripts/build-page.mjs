/**
 * Run by `pnpm build` after tsc: bundles the inspector's page (src/page/, Preact + TSX) into
 * dist/page/ — index.html, app.js and app.css (uPlot's stylesheet included) — which the inspector's
 * process (`switchboard ui`) serves as static files. Names are fixed, not hashed: the process serves
 * only this one build, from its own package, so there is no cache to bust.
 *
 * The page's budget is 300 kB gzipped (issue 16): the build prints each file's gzipped size and
 * fails when the total is over, so a heavy import is caught where it is added.
 */
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist', 'page');
const budgetBytes = 300 * 1024;

rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });

await build({
  entryPoints: { app: join(root, 'src', 'page', 'main.tsx') },
  outdir,
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'browser',
  target: ['es2022', 'chrome111', 'firefox115', 'safari16'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  legalComments: 'none',
  logLevel: 'warning',
  define: { 'process.env.NODE_ENV': '"production"' },
});
copyFileSync(join(root, 'src', 'page', 'index.html'), join(outdir, 'index.html'));

const files = ['index.html', 'app.js', 'app.css'];
let totalGzip = 0;
const rows = files.map((file) => {
  const bytes = readFileSync(join(outdir, file));
  const gzip = gzipSync(bytes, { level: 9 }).length;
  totalGzip += gzip;
  return `  ${file.padEnd(11)} ${kB(bytes.length).padStart(9)}  ${kB(gzip).padStart(9)} gzipped`;
});
console.log(
  `build-page: dist/page/\n${rows.join('\n')}\n  total ${kB(totalGzip)} gzipped (budget ${kB(budgetBytes)})`,
);
if (totalGzip > budgetBytes) {
  throw new Error(
    `build-page: the page is ${kB(totalGzip)} gzipped, over its ${kB(budgetBytes)} budget: find the heavy import in packages/inspector/src/page (esbuild --metafile shows what each module weighs) and drop or lazy-load it.`,
  );
}

function kB(bytes) {
  return `${(bytes / 1024).toFixed(1)} kB`;
}
