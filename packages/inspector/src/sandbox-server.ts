/**
 * The sandbox origin of MCP Apps rendered by the inspector: a second HTTP server on 127.0.0.1, on
 * a port of its own — so a different origin from the inspector's page, as the spec asks of web
 * hosts — that serves, per app view, two documents and nothing else:
 * - `/views/<id>/`: the sandbox proxy, framed by the inspector's page only. Its script
 *   (`sandbox-proxy.js`, built with the page) relays JSON-RPC messages between the page and the app;
 * - `/views/<id>/app`: the app's HTML, with the CSP its resource declares as an HTTP header
 *   (`app-content-security-policy.ts`), loaded by the proxy into a frame sandboxed without
 *   `allow-same-origin`: the app runs in an origin of its own (opaque), with no cookie, no storage
 *   and no script access to the proxy or the page, and its requests carry `Origin: null`.
 * This server knows no token and takes no API call; view ids are 128 random bits, a view lives
 * while the page shows it. `Host` must be this loopback address (DNS rebinding).
 */
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/** What the sandbox serves for one app view. */
export interface SandboxDocument {
  /** The app's HTML. */
  html: string;
  /** Its `Content-Security-Policy` header. */
  csp: string;
  /** The inner frame's `allow` (Permissions Policy), from the resource's `permissions`. */
  allow: string;
}

/** Options of {@link createSandboxServer}. */
export interface SandboxServerOptions {
  /** The document of a view, or undefined when there is no such view (any more). */
  document(viewId: string): SandboxDocument | undefined;
  /** The inspector page's origin: the only one that may frame the proxy and talk to it. */
  hostOrigin(): string;
  /** Where `sandbox-proxy.js` is (the page's build folder). */
  staticDir: string | undefined;
}

/** A listening sandbox server. */
export interface SandboxServerHandle {
  /** `http://127.0.0.1:PORT`. */
  readonly origin: string;
  readonly port: number;
  close(): Promise<void>;
}

const commonHeaders = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

const viewPath = /^\/views\/([A-Za-z0-9_-]{16,64})\/(app|sandbox-proxy\.js)?$/;

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/** The proxy page of a view: its script, the host origin it trusts, the app frame's `allow`. */
function proxyPage(hostOrigin: string, allow: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="switchboard-host-origin" content="${escapeAttribute(hostOrigin)}">
<meta name="switchboard-app-allow" content="${escapeAttribute(allow)}">
<title>MCP App sandbox</title>
<style>html,body{margin:0;padding:0;height:100%;overflow:hidden;background:transparent}iframe{display:block;border:0;width:100%;height:100%}</style>
</head>
<body><script src="sandbox-proxy.js"></script></body>
</html>
`;
}

/** Starts the sandbox server on 127.0.0.1 (port 0: a free one). */
export async function createSandboxServer(options: SandboxServerOptions): Promise<SandboxServerHandle> {
  let port = 0;
  let proxyScript: Promise<Buffer | undefined> | undefined;
  const script = () => {
    proxyScript ??=
      options.staticDir === undefined
        ? Promise.resolve(undefined)
        : readFile(join(options.staticDir, 'sandbox-proxy.js')).catch(() => undefined);
    return proxyScript;
  };

  const refuse = (response: ServerResponse, status: number, text: string) => {
    response.writeHead(status, { ...commonHeaders, 'content-type': 'text/plain; charset=utf-8' });
    response.end(text);
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const host = request.headers.host?.toLowerCase();
    if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) {
      refuse(response, 403, 'Refused: this sandbox answers only requests for its own loopback address.');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      refuse(response, 405, 'The sandbox serves GET only.');
      return;
    }
    const path = new URL(request.url ?? '/', `http://127.0.0.1:${port}`).pathname;
    const match = viewPath.exec(path);
    const document = match ? options.document(match[1] as string) : undefined;
    if (match === null || document === undefined) {
      refuse(response, 404, 'No such app view (closed, or never opened).');
      return;
    }
    const hostOrigin = options.hostOrigin();
    const part = match[2];
    if (part === 'sandbox-proxy.js') {
      const body = await script();
      if (body === undefined) {
        refuse(response, 503, 'The sandbox proxy is not built: pnpm --filter @switchboard/inspector build.');
        return;
      }
      response.writeHead(200, { ...commonHeaders, 'content-type': 'text/javascript; charset=utf-8' });
      response.end(request.method === 'HEAD' ? undefined : body);
      return;
    }
    const isApp = part === 'app';
    const body = isApp ? document.html : proxyPage(hostOrigin, document.allow);
    response.writeHead(200, {
      ...commonHeaders,
      'content-type': 'text/html; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'content-security-policy': isApp
        ? document.csp
        : [
            "default-src 'none'",
            "script-src 'self'",
            "style-src 'unsafe-inline'",
            "frame-src 'self'",
            "base-uri 'none'",
            "form-action 'none'",
            `frame-ancestors ${hostOrigin}`,
          ].join('; '),
    });
    response.end(request.method === 'HEAD' ? undefined : body);
  };

  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) refuse(response, 500, 'The sandbox failed to answer.');
      else response.end();
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
