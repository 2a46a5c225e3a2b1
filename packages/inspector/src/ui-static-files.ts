/**
 * The page's files (`dist/page/`: index.html, app.js, app.css, …), found wherever the package runs
 * from: tsc's output in `dist/`, the sources in `src/` for tests, or an esbuild bundle of a program
 * that imports it (the `switchboard` bin keeps this package a real import) — so the folder is found
 * by walking up to the package's own `package.json`, not by a fixed relative path.
 *
 * The page's sources are `src/page/`, which tsc leaves out: the page's build writes `dist/page/`
 * whole, and nothing of the process lives there to be served as a page file.
 */
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UiError, UiErrorCode } from './ui-error.js';

const packageName = '@switchboard/inspector';

/** `dist/page` of the @switchboard/inspector package this module belongs to; undefined when no package root is found. */
export function locateStaticDir(from: string = import.meta.url): string | undefined {
  let directory = dirname(fileURLToPath(from));
  for (;;) {
    const manifest = join(directory, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === packageName) {
          return join(directory, 'dist', 'page');
        }
      } catch {
        // Not a readable manifest: keep walking up.
      }
    }
    const parent = dirname(directory);
    if (parent === directory) return undefined;
    directory = parent;
  }
}

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * What the page may load: its own scripts and styles; images and audio from results arrive as
 * `data:` URLs (or `blob:`); nothing from elsewhere, no framing by other sites; it frames only the
 * MCP Apps sandbox origin (`frameOrigin`), nothing at all without one.
 */
function contentSecurityPolicy(frameOrigin: string | undefined): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    frameOrigin === undefined ? "frame-src 'none'" : `frame-src ${frameOrigin}`,
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join('; ');
}

/** Serves the files of one folder. */
export interface UiStaticFiles {
  readonly directory: string | undefined;
  /** Whether the folder holds the page (`index.html`). */
  built(): boolean;
  /** Answers `pathname` from the folder (`/` and paths without an extension: `index.html`, the page's own routes). */
  serve(pathname: string, response: ServerResponse, headOnly: boolean): Promise<void>;
}

/**
 * Creates the file server of `directory` (undefined: every request says the page is missing);
 * `frameOrigin` answers the origin the page may frame (the MCP Apps sandbox), once known.
 */
export function createUiStaticFiles(
  directory: string | undefined,
  frameOrigin: () => string | undefined = () => undefined,
): UiStaticFiles {
  const root = directory === undefined ? undefined : resolve(directory);
  const missing = () =>
    new UiError({
      code: UiErrorCode.PageMissing,
      message: `The page of switchboard ui is not built${root ? ` (no ${join(root, 'index.html')})` : ''}. Build it with: pnpm --filter @switchboard/inspector build. The API under /api/ works without it.`,
      context: { directory: root ?? null },
    });

  const built = () => root !== undefined && existsSync(join(root, 'index.html'));
  return {
    directory: root,
    built,
    async serve(pathname, response, headOnly) {
      if (root === undefined || !built()) throw missing();
      let relative: string;
      try {
        relative = decodeURIComponent(pathname);
      } catch {
        throw notFound(pathname);
      }
      if (relative === '/' || extname(relative) === '') relative = '/index.html';
      const file = resolve(root, `.${relative}`);
      // `..` and encoded separators must not leave the folder.
      if (!file.startsWith(`${root}${sep}`)) throw notFound(pathname);
      let body: Buffer;
      try {
        body = await readFile(file);
      } catch {
        throw notFound(pathname);
      }
      const type = contentTypes[extname(file)] ?? 'application/octet-stream';
      response.writeHead(200, {
        'content-type': type,
        'content-length': body.length,
        // The token guards each request; nothing is worth caching across builds.
        'cache-control': 'no-cache',
        ...(type.startsWith('text/html')
          ? { 'content-security-policy': contentSecurityPolicy(frameOrigin()) }
          : {}),
      });
      response.end(headOnly ? undefined : body);
    },
  };
}

function notFound(pathname: string): UiError {
  return new UiError({
    code: UiErrorCode.NotFound,
    message: `No file ${pathname} in the page of switchboard ui.`,
    context: { path: pathname },
  });
}
