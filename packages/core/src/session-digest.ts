/**
 * `mcp.session.id` without the session id: a 2025 HTTP session id is a bearer of the session
 * (whoever presents it speaks in it), so telemetry records the first 32 hex digits of its SHA-256
 * instead. One function for both sides of a hop — the client and the server import it from here —
 * so the client's and the server's spans of one session carry the same value. On core's Node-only
 * subpath (`@switchboard/core/node`): it needs `node:crypto`, which core's root entry does not load.
 */
import { createHash } from 'node:crypto';

let last: { id: string; digest: string } | undefined;

/**
 * The `mcp.session.id` of a session id: the first 32 hex digits of its SHA-256 (the last one is
 * remembered: a connection keeps its session).
 */
export function digestSessionId(id: string): string {
  if (last?.id === id) return last.digest;
  const digest = createHash('sha256').update(id).digest('hex').slice(0, 32);
  last = { id, digest };
  return digest;
}
