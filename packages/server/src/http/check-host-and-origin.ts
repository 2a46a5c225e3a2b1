/**
 * DNS-rebinding protection: the `Host` header must name this machine (or an allowed host) when
 * bound to loopback, and a browser `Origin` must be a loopback or allowed origin. Pure functions.
 */
import { JsonRpcErrorCode } from '../errors/json-rpc-error-code.js';
import { failure, type GuardResult } from './http-failure.js';

const loopbackHosts = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** True for a host name or address that only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  return loopbackHosts.has(host.toLowerCase()) || host.startsWith('127.');
}

/** The host name of a `Host` header (port and brackets handled). */
export function hostnameOf(hostHeader: string): string {
  if (hostHeader.startsWith('[')) return hostHeader.slice(0, hostHeader.indexOf(']') + 1).toLowerCase();
  const colon = hostHeader.lastIndexOf(':');
  return (colon === -1 ? hostHeader : hostHeader.slice(0, colon)).toLowerCase();
}

/** Which hosts and origins pass. */
export interface HostPolicy {
  /** Check `Host` (bound to loopback, or allowed hosts configured). */
  checkHost: boolean;
  allowedHosts: ReadonlySet<string>;
  allowedOrigins: ReadonlySet<string>;
}

/** Checks the `Host` header. */
export function checkHost(hostHeader: string | undefined, policy: HostPolicy): GuardResult {
  if (!policy.checkHost) return { ok: true };
  const hostname = hostHeader ? hostnameOf(hostHeader) : '';
  if (isLoopbackHost(hostname) || policy.allowedHosts.has(hostname)) return { ok: true };
  return failure(
    403,
    JsonRpcErrorCode.TransportRefused,
    `Forbidden: Host "${hostHeader ?? ''}" is not allowed (DNS rebinding protection); add it to allowedHosts if it is yours.`,
  );
}

/** Checks the `Origin` header (absent: not a browser, passes). */
export function checkOrigin(origin: string | undefined, policy: HostPolicy): GuardResult {
  if (origin === undefined) return { ok: true };
  let originHost = '';
  try {
    originHost = new URL(origin).hostname;
  } catch {
    // `null` and other unparsable origins are refused below.
  }
  if (originHost !== '' && (isLoopbackHost(originHost) || policy.allowedOrigins.has(origin.toLowerCase()))) {
    return { ok: true };
  }
  return failure(
    403,
    JsonRpcErrorCode.TransportRefused,
    `Forbidden: Origin "${origin}" is not allowed (DNS rebinding protection); add it to allowedOrigins if it is yours.`,
  );
}
