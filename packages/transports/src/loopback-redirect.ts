/**
 * The loopback redirect of a terminal sign-in (RFC 8252): a local HTTP server on 127.0.0.1 that the
 * browser comes back to with the authorization code or the refusal, matched to the sign-in by its
 * `state`. The response's `iss` is handed on as received, for the flow to check against the issuer it
 * expects (RFC 9207) before anything from it is used.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SwitchboardError } from '@switchboard/core';
import { AuthorizationErrorCode } from './authorization-error-code.js';

/** Options of {@link startLoopbackRedirect}. */
export interface LoopbackRedirectOptions {
  /** Port on 127.0.0.1; 0 picks a free one. @default 0 */
  port?: number;
  /** Path of the redirect URI. @default '/callback' */
  path?: string;
  /** How long to wait for the browser to come back. @default 300000 */
  timeoutMs?: number;
}

/**
 * What the browser brought back to the loopback redirect: a code, or the authorization server's
 * refusal. `iss` (RFC 9207) is as received: check it against the authorization server's issuer
 * before using the code or showing the refusal's text (both may come from a mixed-up server).
 */
export type AuthorizationResponse =
  | { code: string; iss?: string }
  | { error: string; errorDescription?: string; iss?: string };

/** A local HTTP server that receives the authorization server's redirect (RFC 8252 loopback redirect). */
export interface LoopbackRedirect {
  /** The redirect URI to register and send, e.g. `http://127.0.0.1:53682/callback`. */
  readonly redirectUrl: string;
  /** Resolves once the browser arrives with the expected `state` and a code or an error. */
  waitForResponse(expectedState: string | undefined): Promise<AuthorizationResponse>;
  /** Stops listening. */
  close(): Promise<void>;
}

const page = (title: string, text: string) =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><body style="font-family:sans-serif"><h1>${title}</h1><p>${text}</p></body>`;

/** Starts the loopback redirect server on 127.0.0.1. */
export async function startLoopbackRedirect(
  options: LoopbackRedirectOptions = {},
): Promise<LoopbackRedirect> {
  const path = options.path ?? '/callback';
  const timeoutMs = options.timeoutMs ?? 300_000;
  let settle: ((result: { response: AuthorizationResponse; state?: string }) => void) | undefined;
  const arrived = new Promise<{ response: AuthorizationResponse; state?: string }>((resolve) => {
    settle = resolve;
  });
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== path) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    const error = url.searchParams.get('error');
    const code = url.searchParams.get('code');
    const state = url.searchParams.get('state') ?? undefined;
    const iss = url.searchParams.get('iss') ?? undefined;
    const issued = iss !== undefined ? { iss } : {};
    const stated = state !== undefined ? { state } : {};
    if (error !== null) {
      const description = url.searchParams.get('error_description') ?? undefined;
      response
        .writeHead(400, { 'content-type': 'text/html; charset=utf-8' })
        .end(page('Sign-in failed', 'The authorization server refused the sign-in. You can close this tab.'));
      settle?.({
        response: {
          error,
          ...(description !== undefined ? { errorDescription: description } : {}),
          ...issued,
        },
        ...stated,
      });
      return;
    }
    if (code === null) {
      response.writeHead(400, { 'content-type': 'text/plain' }).end('Missing code');
      return;
    }
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', connection: 'close' })
      .end(page('Signed in', 'Switchboard received the authorization. You can close this tab.'));
    settle?.({ response: { code, ...issued }, ...stated });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (cause: NodeJS.ErrnoException) =>
      reject(
        new SwitchboardError({
          code: AuthorizationErrorCode.AuthFailed,
          message: `Cannot listen on 127.0.0.1:${options.port ?? 0} for the sign-in redirect (${cause.code ?? cause.message}). Free the port or choose another one (auth.redirectPort).`,
          context: { port: options.port ?? 0 },
          cause,
        }),
      ),
    );
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const redirectUrl = `http://127.0.0.1:${port}${path}`;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return {
    redirectUrl,
    async waitForResponse(expectedState) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new SwitchboardError({
                code: AuthorizationErrorCode.AuthTimeout,
                message: `No sign-in arrived at ${redirectUrl} within ${Math.round(timeoutMs / 1000)} s. Run the sign-in again and finish it in the browser.`,
              }),
            ),
          timeoutMs,
        );
        timer.unref();
      });
      try {
        const result = await Promise.race([arrived, timeout]);
        if (expectedState !== undefined && result.state !== expectedState) {
          throw new SwitchboardError({
            code: AuthorizationErrorCode.AuthFailed,
            message:
              'The sign-in redirect carried a different state than the one sent (possible CSRF). Sign in again.',
          });
        }
        return result.response;
      } finally {
        clearTimeout(timer);
      }
    },
    close,
  };
}
