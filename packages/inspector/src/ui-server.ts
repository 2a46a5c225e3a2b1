/**
 * The HTTP server of the inspector (`switchboard ui`): loopback only (it binds 127.0.0.1), every request through
 * the guard (Host, Origin, token), then the live stream, the API, or the page's files. A request
 * that fails gets a JSON error with a code, and the process keeps serving.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '@switchboard/core';
import { silentLogger } from '@switchboard/core';
import { createSandboxServer, type SandboxServerHandle } from './sandbox-server.js';
import { toUiErrorAnswer, UiError, UiErrorCode } from './ui-error.js';
import { createUiRequestGuard } from './ui-request-guard.js';
import { matchUiRoute } from './ui-routes.js';
import type { UiSession } from './ui-session.js';
import { createUiStaticFiles, locateStaticDir } from './ui-static-files.js';

/** Options of {@link createUiServer}. */
export interface UiServerOptions {
  session: UiSession;
  /** The port to listen on; 0 picks a free one. @default 0 */
  port?: number;
  /** The token every request must carry. @default 32 random bytes, base64url */
  token?: string;
  /** Where the page's files are. @default `dist/page` of this package */
  staticDir?: string;
  /** Largest request body. @default 1 MiB */
  maxBodyBytes?: number;
  /** Where failures of the server itself go. @default silentLogger */
  logger?: Logger;
}

/** A listening UI server. */
export interface UiServerHandle {
  /** The URL to open: `http://127.0.0.1:PORT/?token=…`. */
  readonly url: string;
  /** `http://127.0.0.1:PORT`. */
  readonly origin: string;
  readonly port: number;
  readonly token: string;
  /** Whether the page's files are there (`index.html` in the static folder). */
  readonly pageBuilt: boolean;
  /** Stops listening and ends every open connection (live streams included). The session stays open. */
  close(): Promise<void>;
}

/** Headers every answer carries. */
const commonHeaders = {
  'x-content-type-options': 'nosniff',
  // The token travels in the first URL: never in a Referer.
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

/** Starts the server on 127.0.0.1. */
export async function createUiServer(options: UiServerOptions): Promise<UiServerHandle> {
  const { session } = options;
  const token = options.token ?? randomBytes(32).toString('base64url');
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  const logger = options.logger ?? silentLogger;
  const staticDir = options.staticDir ?? locateStaticDir();
  let sandbox: SandboxServerHandle | undefined;
  const files = createUiStaticFiles(staticDir, () => sandbox?.origin);
  let port = 0;
  const guard = createUiRequestGuard({ token, port: () => port });

  const answerJson = (response: ServerResponse, status: number, body: unknown, headers = {}) => {
    const text = JSON.stringify(body);
    response.writeHead(status, {
      ...commonHeaders,
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(text),
      'cache-control': 'no-store',
      ...headers,
    });
    response.end(text);
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', `http://127.0.0.1:${port}`);
    const outcome = guard.check(request, url);
    const cookie = outcome.setCookie ? { 'set-cookie': outcome.setCookie } : {};
    if (outcome.redirectTo !== undefined) {
      response.writeHead(303, { ...commonHeaders, ...cookie, location: outcome.redirectTo }).end();
      return;
    }
    const method = request.method ?? 'GET';
    if (url.pathname === '/api/events') {
      if (method !== 'GET') throw methodNotAllowed(url.pathname, ['GET']);
      for (const [name, value] of Object.entries({ ...commonHeaders, ...cookie }))
        response.setHeader(name, value);
      session.events.serve(request, response, session.initialEvents());
      return;
    }
    if (url.pathname.startsWith('/api/')) {
      const match = matchUiRoute(method, url.pathname);
      if (match === undefined) {
        throw new UiError({
          code: UiErrorCode.NotFound,
          message: `No API route ${method} ${url.pathname}; see ui-api.ts of @switchboard/inspector for the routes.`,
          context: { path: url.pathname },
        });
      }
      if ('allowed' in match) throw methodNotAllowed(url.pathname, match.allowed);
      const body = await readJsonBody(request, maxBodyBytes);
      const answer = await match.route.handle(session, {
        params: match.params,
        query: url.searchParams,
        body,
      });
      answerJson(response, answer.status ?? 200, answer.body, cookie);
      return;
    }
    if (method !== 'GET' && method !== 'HEAD') throw methodNotAllowed(url.pathname, ['GET', 'HEAD']);
    for (const [name, value] of Object.entries({ ...commonHeaders, ...cookie }))
      response.setHeader(name, value);
    await files.serve(url.pathname, response, method === 'HEAD');
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      const answer = toUiErrorAnswer(error, session.redact);
      if (answer.status >= 500) logger.warn({ code: answer.body.error.code }, answer.body.error.message);
      if (response.headersSent) {
        response.end();
        return;
      }
      answerJson(response, answer.status, answer.body);
    });
  });
  // A browser keeps idle connections; a live stream never ends by itself.
  server.keepAliveTimeout = 5_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  // MCP Apps render from another origin (this other port), which knows no token.
  try {
    sandbox = await createSandboxServer({
      document: (viewId) => session.apps.document(viewId),
      hostOrigin: () => origin,
      staticDir,
    });
  } catch (error) {
    server.close();
    throw error;
  }
  const sandboxServer = sandbox;
  session.apps.bindSandbox({
    origin: sandboxServer.origin,
    hostOrigin: origin,
    ports: [port, sandboxServer.port],
  });
  return {
    url: `${origin}/?token=${token}`,
    origin,
    port,
    token,
    pageBuilt: files.built(),
    close: async () => {
      await Promise.all([
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
        sandboxServer.close(),
      ]);
    },
  };
}

function methodNotAllowed(path: string, allowed: string[]): UiError {
  return new UiError({
    code: UiErrorCode.MethodNotAllowed,
    message: `${path} takes ${allowed.join(', ')}.`,
    context: { path, allowed },
  });
}

/** The request's JSON body; undefined when it has none. */
async function readJsonBody(request: IncomingMessage, maxBytes: number): Promise<unknown> {
  if (request.method === 'GET' || request.method === 'HEAD') return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      throw new UiError({
        code: UiErrorCode.BodyTooLarge,
        message: `The request body is over ${maxBytes} bytes; the API takes JSON of at most that.`,
        context: { maxBytes },
      });
    }
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return undefined;
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch (error) {
    throw new UiError({
      code: UiErrorCode.BadRequest,
      message: `The request body is not JSON (${(error as Error).message}).`,
    });
  }
}
