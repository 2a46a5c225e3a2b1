/**
 * What ties one HTTP server to the other replicas through the cluster state: the state itself (the
 * in-process default when none is given), 2025 sessions (sealed ids, revocation, shared
 * subscriptions), answers to server→client requests forwarded to the replica that asked, retries
 * of parked multi-round calls relayed to the replica holding them, and change events bridged
 * between the replicas' buses. Everything it subscribes to, `stop` unsubscribes.
 */
import { bridgeServerEvents } from '../cluster/bridge-server-events.js';
import type { ClusterState } from '../cluster/cluster-state.js';
import { createMemoryClusterState } from '../cluster/memory-cluster-state.js';
import { createSessionSealer } from '../cluster/session-sealer.js';
import type { McpServer } from '../server/mcp-server.js';
import { ExchangeSessions } from './exchange-sessions.js';
import type { AnswerForwarding } from './forward-client-answer.js';
import type { HttpConfig } from './http-options.js';
import { HttpSessions } from './http-sessions.js';
import type { HttpTransportOptions } from './http-transport-options.js';
import { answerRelayedRetries } from './retry-relay.js';

/** One HTTP server's links to the other replicas. */
export interface ClusterWiring {
  readonly cluster: ClusterState;
  /** 2025 sessions; undefined in stateless mode. */
  readonly sessions: HttpSessions | undefined;
  /** One-exchange sessions of 2025 stateless requests (server→client requests on a call's stream). */
  readonly exchanges: ExchangeSessions;
  /** Where a client's answer to another replica's request goes. */
  readonly forwarding: AnswerForwarding;
  /** The id parked runs name (the cluster's, where a replica id is configured). */
  readonly relayId: string | undefined;
  /** Unsubscribes from the cluster state and the bus, and ends the sessions. */
  stop(): void;
}

/** Wires `server` to the cluster state of `options` (or an in-process one). */
export function wireCluster(
  server: McpServer,
  options: HttpTransportOptions,
  config: HttpConfig,
): ClusterWiring {
  const replicaId = config.replicaId;
  const cluster = options.cluster ?? createMemoryClusterState(replicaId !== undefined ? { replicaId } : {});
  const sessions = options.session
    ? new HttpSessions(server, {
        retryIntervalMs: options.retryIntervalMs ?? 1000,
        idleTimeoutMs: options.sessionIdleTimeoutMs ?? 30 * 60 * 1000,
        logger: server.logger,
        cluster,
        maxAgeMs: options.sessionMaxAgeMs ?? 24 * 60 * 60 * 1000,
        ...(options.sessionKeys !== undefined
          ? { sealer: createSessionSealer({ keys: options.sessionKeys }) }
          : {}),
        ...(replicaId !== undefined ? { replicaId } : {}),
      })
    : undefined;
  const exchanges = new ExchangeSessions(replicaId);
  // Without sessions, a client's answer to a stateless exchange's request may reach another
  // replica; it comes back here (forwarded with no session id).
  const stopExchangeForwarding =
    sessions === undefined
      ? cluster.onForwardedResponse(({ sessionId, message }) => {
          if (sessionId === '') exchanges.resolve(message as never);
        })
      : undefined;
  // Retries of multi-round calls parked here may arrive at any replica: they are relayed here.
  const relayId = replicaId !== undefined ? cluster.replicaId : undefined;
  const stopRetryRelay =
    relayId !== undefined ? answerRelayedRetries(cluster, server.dispatcher, relayId) : undefined;
  // Change events cross replicas only when the state is shared; one process needs no bridge.
  const stopBridge = cluster.shared ? bridgeServerEvents(server.bus, cluster) : undefined;
  return {
    cluster,
    sessions,
    exchanges,
    forwarding: { cluster, replicaId, logger: server.logger },
    relayId,
    stop() {
      stopBridge?.();
      stopExchangeForwarding?.();
      stopRetryRelay?.();
      sessions?.close();
    },
  };
}
