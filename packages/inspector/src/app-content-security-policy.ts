/**
 * The Content-Security-Policy an MCP App's document is served with, from its resource's
 * `_meta.ui.csp`: the spec's restrictive default (no network, no frames, inline scripts and styles
 * only), widened by exactly the origins the resource declares — and only those that are one origin
 * each and not this inspector's own ports (an app never reaches the inspector's API, whatever it
 * declares). Sent as an HTTP header by the sandbox origin, so neither the page nor the app can alter it.
 */
import type { UiAppCsp } from './ui-api.js';

/** The policy of one app document, and what of the declared CSP it grants. */
export interface AppContentSecurityPolicy {
  /** The `Content-Security-Policy` header value. */
  header: string;
  /** The declared origins kept (the rest were refused as malformed or as the inspector's own). */
  granted: UiAppCsp;
  /** Declared sources refused, with why, for the page and the log. */
  refused: Array<{ source: string; why: string }>;
}

/** Options of {@link appContentSecurityPolicy}. */
export interface AppContentSecurityPolicyOptions {
  /** Who may frame the app: the sandbox page's origin and the inspector page's. */
  frameAncestors: readonly string[];
  /** Loopback ports an app may never name (the inspector's and the sandbox's). */
  forbiddenPorts: readonly number[];
}

// One CSP host-source: scheme, host (a leading `*.` allowed), optional port and path; nothing that
// could end the token or the directive (spaces, `;`, `,`, quotes).
const hostSource =
  /^(https?|wss?):\/\/((?:\*\.)?[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*)(?::(\d{1,5}|\*))?(?:\/[A-Za-z0-9._~!$&()*+=:@%/-]*)?$/;
const cspKeys = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;
const loopbackHosts = new Set(['127.0.0.1', 'localhost']);

/** Whether a well-formed source reaches a forbidden loopback port (a `*` port reaches them all). */
function reachesForbidden(match: RegExpExecArray, forbiddenPorts: ReadonlySet<string>): boolean {
  const [, , host, port] = match;
  if (!loopbackHosts.has((host as string).toLowerCase())) return false;
  return port === '*' || forbiddenPorts.has(port ?? '');
}

/** Builds the policy of an app whose resource declared `csp` (undefined: the spec's default). */
export function appContentSecurityPolicy(
  csp: UiAppCsp | undefined,
  options: AppContentSecurityPolicyOptions,
): AppContentSecurityPolicy {
  const forbiddenPorts = new Set(options.forbiddenPorts.map(String));
  const granted: UiAppCsp = {};
  const refused: AppContentSecurityPolicy['refused'] = [];
  for (const key of cspKeys) {
    const declared = csp?.[key];
    if (!Array.isArray(declared)) continue;
    const kept: string[] = [];
    for (const source of declared) {
      const match = typeof source === 'string' ? hostSource.exec(source) : null;
      if (match === null) {
        refused.push({ source: String(source), why: `${key}: not one origin (scheme://host[:port][/path])` });
      } else if (reachesForbidden(match, forbiddenPorts)) {
        refused.push({ source: source as string, why: `${key}: the inspector's own origin` });
      } else {
        kept.push(source as string);
      }
    }
    granted[key] = kept;
  }
  const list = (sources: string[] | undefined) => (sources ?? []).join(' ');
  const resources = list(granted.resourceDomains);
  const directives = [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline' ${resources}`,
    `style-src 'self' 'unsafe-inline' ${resources}`,
    `img-src 'self' data: blob: ${resources}`,
    `font-src 'self' data: ${resources}`,
    `media-src 'self' data: blob: ${resources}`,
    // Workers of bundled apps start from blob: URLs.
    `worker-src 'self' blob: ${resources}`,
    granted.connectDomains?.length ? `connect-src ${list(granted.connectDomains)}` : "connect-src 'none'",
    granted.frameDomains?.length ? `frame-src ${list(granted.frameDomains)}` : "frame-src 'none'",
    granted.baseUriDomains?.length ? `base-uri ${list(granted.baseUriDomains)}` : "base-uri 'self'",
    "object-src 'none'",
    // A form cannot send what the app shows anywhere; only the inspector may frame the app.
    "form-action 'none'",
    `frame-ancestors ${options.frameAncestors.join(' ')}`,
  ];
  return { header: directives.map((directive) => directive.trim()).join('; '), granted, refused };
}
