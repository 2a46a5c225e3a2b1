/**
 * Which webhook callback URLs a server posts to by default: https only, and not to a loopback,
 * private or link-local address written literally in the URL (a server posting wherever a client
 * says is a request-forgery tool). A host name is not resolved here; put an egress proxy in front
 * where names must be checked too, or pass your own `allowCallback`.
 */
import { isIP } from 'node:net';

const privateV4 = [
  /^127\./,
  /^10\./,
  /^192\.168\./,
  /^172\.(1[6-9]|2\d|3[01])\./,
  /^169\.254\./,
  /^0\./,
  /^100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\./,
];

/** Whether `host` (a URL's hostname) is a non-public address literal or `localhost`. */
function isLocalHost(host: string): boolean {
  const bare = host.startsWith('[') ? host.slice(1, -1).toLowerCase() : host.toLowerCase();
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  if (isIP(bare) === 4) return privateV4.some((pattern) => pattern.test(bare));
  if (isIP(bare) === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare)?.[1];
    if (mapped !== undefined) return privateV4.some((pattern) => pattern.test(mapped));
    return (
      bare === '::1' ||
      bare === '::' ||
      /^f[cd]/.test(bare) ||
      /^fe[89ab]/.test(bare) ||
      bare.startsWith('::ffff:')
    );
  }
  return false;
}

/** The default callback policy (see the file's comment). */
export function defaultAllowCallback(url: URL): boolean {
  return url.protocol === 'https:' && !isLocalHost(url.hostname);
}
