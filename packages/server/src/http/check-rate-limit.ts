/**
 * The shared rate limit of `tools/call`: per principal and tool, counted in the cluster state in
 * fixed one-minute windows (a window opens with the first call of its principal and tool).
 * Requests without a `tools/call` cost no lookup.
 */
import { createHash } from 'node:crypto';
import type { JSONRPCRequest } from '@modelcontextprotocol/server';
import type { CallCounters } from '../cluster/cluster-state.js';
import { ServerError, ServerErrorCode } from '../errors/server-error.js';
import { failureOf, type GuardResult } from './http-failure.js';

const windowMs = 60_000;

function toolOf(message: JSONRPCRequest): string | undefined {
  if (message.method !== 'tools/call') return undefined;
  const name = (message.params as { name?: unknown } | undefined)?.name;
  return typeof name === 'string' ? name : undefined;
}

/** Counts the `tools/call`s among `requests`; the first over the limit is refused (429). */
export function checkRateLimit(
  cluster: CallCounters,
  callsPerMinute: number,
  principal: string,
  requests: readonly JSONRPCRequest[],
): Promise<GuardResult> | undefined {
  const calls = requests.filter((message) => toolOf(message) !== undefined);
  if (calls.length === 0) return undefined;
  // The principal is hashed: counter keys never carry a subject or token prefix in clear.
  const who = createHash('sha256').update(principal).digest('hex').slice(0, 24);
  return (async (): Promise<GuardResult> => {
    for (const message of calls) {
      const tool = toolOf(message) as string;
      let counted: { count: number; resetInMs: number };
      try {
        counted = await cluster.countCall(`${who}:${encodeURIComponent(tool).slice(0, 200)}`, windowMs);
      } catch (error) {
        return failureOf(error, message.id);
      }
      if (counted.count <= callsPerMinute) continue;
      const retryAfterSeconds = Math.max(1, Math.ceil(counted.resetInMs / 1000));
      return failureOf(
        new ServerError({
          code: ServerErrorCode.RateLimited,
          message: `Rate limit exceeded for tool "${tool}": ${callsPerMinute} calls per minute per caller; retry in ${retryAfterSeconds} s.`,
          data: { tool, callsPerMinute, retryAfterSeconds },
        }),
        message.id,
      );
    }
    return { ok: true };
  })();
}
