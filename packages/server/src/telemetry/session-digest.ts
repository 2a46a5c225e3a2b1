/**
 * `mcp.session.id` without the session id: a 2025 HTTP session id is a bearer of the session
 * (whoever presents it speaks in it), so telemetry records the first 32 hex digits of its SHA-256
 * instead — the same digest the Switchboard client records, so the two sides still match.
 */
import { createHash } from 'node:crypto';

let last: { id: string; digest: string } | undefined;

/** The digest of a session id (the last one is remembered: a connection keeps its session). */
export function digestSessionId(id: string): string {
  if (last?.id === id) return last.digest;
  const digest = createHash('sha256').update(id).digest('hex').slice(0, 32);
  last = { id, digest };
  return digest;
}
