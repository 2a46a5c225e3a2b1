/**
 * Carries a server's change events (list changed, resource updated) to the other replicas and
 * theirs to it, over the cluster state. A local event reaches local streams through the server's
 * own bus and is published once; a remote event is put on the local bus and not published again,
 * so each stream of each replica gets each change exactly once.
 */
import type { ServerEvent, ServerEventBus } from '@modelcontextprotocol/server';
import type { ClusterEvents } from './cluster-state.js';

/** Bridges `bus` and `cluster`; returns the function that stops it. */
export function bridgeServerEvents(bus: ServerEventBus, cluster: ClusterEvents): () => void {
  let injecting: ServerEvent | undefined;
  const stopLocal = bus.subscribe((event) => {
    // The bus delivers synchronously: the event being injected is the one arriving here.
    if (event === injecting) return;
    cluster.publishEvent(event);
  });
  const stopRemote = cluster.onRemoteEvent((event) => {
    injecting = event;
    try {
      bus.publish(event);
    } finally {
      injecting = undefined;
    }
  });
  return () => {
    stopLocal();
    stopRemote();
  };
}
