/**
 * A client's answer to a server→client request (elicitation, sampling, roots) may be POSTed to a
 * replica other than the one that asked. The request's id names the replica that sent it
 * (`replicaOfRequestId`); the answer goes there over the cluster state. One function for both
 * places answers arrive: 2025 sessions (`http-sessions.ts`) and stateless exchanges (`mcp-post.ts`).
 */
import type { JSONRPCResponse } from '@modelcontextprotocol/server';
import type { Logger } from '@switchboard/core';
import type { ResponseForwarding } from '../cluster/cluster-state.js';
import { replicaOfRequestId } from '../session/legacy-session.js';

/** Where answers are forwarded from: the cluster, this replica's id, where failures are logged. */
export interface AnswerForwarding {
  cluster: ResponseForwarding;
  /** This replica's id; undefined without one (then no id names another replica). */
  replicaId: string | undefined;
  logger: Logger;
}

/**
 * Sends `message` to the replica its id names, for its session `sessionId` ('' for a stateless
 * exchange); nothing when the id names no replica, or this one. Failures are logged: the asking
 * call then ends by its own timeout.
 */
export function forwardClientAnswer(
  forwarding: AnswerForwarding,
  sessionId: string,
  message: JSONRPCResponse,
): void {
  const owner = message.id === undefined ? undefined : replicaOfRequestId(message.id);
  if (owner === undefined || owner === forwarding.replicaId) return;
  forwarding.cluster.forwardResponse(owner, { sessionId, message }).catch((error: unknown) => {
    forwarding.logger.warn(
      { error: (error as Error).message },
      `cannot forward a client response to replica ${owner}`,
    );
  });
}
