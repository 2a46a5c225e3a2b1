/**
 * Who may talk to `switchboard ui`. The process can call every configured tool and run commands,
 * so every request — the page's files included — must prove it comes from the person who started
 * it, through their browser, on this machine:
 * - `Host` must be this server's loopback address (`127.0.0.1:PORT` or `localhost:PORT`): a page
 *   of any site whose DNS name was re-pointed at 127.0.0.1 (DNS rebinding) sends its own name;
 * - a browser's `Origin` must be this server's own, and `Sec-Fetch-Site`, where the browser sends
 *   it, `same-origin` or `none` (typed or opened URL): another site — or another local port, which
 *   a browser counts as the same site — is refused;
 * - the token printed with the URL: `?token=` once (answered with an HttpOnly, SameSite=Strict
 *   cookie, and a page load is sent on to the same URL without it, so the token leaves the
 *   address bar and the history), then that cookie or an `X-Switchboard-Token` header.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { UiError, UiErrorCode } from './ui-error.js';

/** The header a non-browser client sends the token in. */
export const tokenHeader = 'x-switchboard-token';

/**
 * The cookie holding the token. Cookies ignore ports: two `switchboard ui` processes on one
 * machine would overwrite each other's cookie under one name, so the port is part of it.
 */
export function tokenCookieName(port: number): string {
  return `switchboard_ui_token_${port}`;
}

/** What a request that passed the guard needs done besides its answer. */
export interface GuardOutcome {
  /** A `Set-Cookie` header to send (the token came in the query). */
  setCookie?: string;
  /** Where to send a page load whose URL carried the token (the same URL without it). */
  redirectTo?: string;
}

/** Options of {@link createUiRequestGuard}. */
export interface UiRequestGuardOptions {
  token: string;
  /** The port the server listens on (known once it listens). */
  port(): number;
}

/** Checks requests; {@link UiRequestGuard.check} throws a 403 `UiError` for a refused one. */
export interface UiRequestGuard {
  check(request: IncomingMessage, url: URL): GuardOutcome;
}

/** Creates the guard of one server. */
export function createUiRequestGuard(options: UiRequestGuardOptions): UiRequestGuard {
  const expected = Buffer.from(options.token);
  const matches = (candidate: string | undefined): boolean => {
    if (candidate === undefined) return false;
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  };

  return {
    check(request, url) {
      const port = options.port();
      const hosts = [`127.0.0.1:${port}`, `localhost:${port}`];
      const host = request.headers.host?.toLowerCase();
      if (host === undefined || !hosts.includes(host)) {
        throw new UiError({
          code: UiErrorCode.HostRefused,
          message: `Refused: this server answers only requests for ${hosts.join(' or ')}, not for ${host === undefined ? 'no Host' : `"${host}"`} (a guard against DNS rebinding). Open the URL switchboard ui printed.`,
          context: { host: host ?? null },
        });
      }
      const origin = request.headers.origin;
      if (origin !== undefined && !hosts.some((allowed) => origin.toLowerCase() === `http://${allowed}`)) {
        throw new UiError({
          code: UiErrorCode.OriginRefused,
          message: `Refused: requests from another origin ("${origin}") may not use switchboard ui; only its own page (http://${hosts[0]}) may.`,
          context: { origin },
        });
      }
      const site = request.headers['sec-fetch-site'];
      if (site !== undefined && site !== 'same-origin' && site !== 'none') {
        throw new UiError({
          code: UiErrorCode.OriginRefused,
          message: `Refused: a ${site} request (from another page of this browser) may not use switchboard ui; only its own page may.`,
          context: { secFetchSite: site },
        });
      }
      const queryToken = url.searchParams.get('token') ?? undefined;
      if (queryToken !== undefined) {
        if (!matches(queryToken)) throw tokenRefused(port, 'the token in the URL is not this process’s');
        const outcome: GuardOutcome = {
          setCookie: `${tokenCookieName(port)}=${options.token}; HttpOnly; SameSite=Strict; Path=/`,
        };
        if ((request.method === 'GET' || request.method === 'HEAD') && !url.pathname.startsWith('/api/')) {
          const clean = new URL(url.href);
          clean.searchParams.delete('token');
          outcome.redirectTo = `${clean.pathname}${clean.search}`;
        }
        return outcome;
      }
      const header = request.headers[tokenHeader];
      if (typeof header === 'string') {
        if (matches(header)) return {};
        throw tokenRefused(port, `the ${tokenHeader} header is not this process’s token`);
      }
      if (matches(cookieValue(request.headers.cookie, tokenCookieName(port)))) return {};
      throw tokenRefused(port, 'the request carries no token');
    },
  };
}

function tokenRefused(port: number, why: string): UiError {
  return new UiError({
    code: UiErrorCode.TokenRequired,
    message: `Refused: ${why}. Open the URL switchboard ui printed (http://127.0.0.1:${port}/?token=…); a script sends the token in an X-Switchboard-Token header.`,
  });
}

/** The value of cookie `name` in a `Cookie` header. */
function cookieValue(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0) continue;
    if (part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return undefined;
}
