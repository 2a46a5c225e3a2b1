/**
 * The built-in `ClusterState`: everything in this process. One replica behaves exactly as a
 * server without a cluster: revocations, logs and counters live here and expire here; change
 * events, forwarded responses and relayed requests have no other replica to reach (a request
 * relayed to this replica's own id is answered here).
 */
import { randomUUID } from 'node:crypto';
import { ServerError, ServerErrorCode } from '../errors/server-error.js';
import type {
  ClusterLogEntry,
  ClusterState,
  ForwardedRequestHandler,
  ForwardedResponse,
} from './cluster-state.js';
import { createMemoryTaskOwnerIndex } from './task-owner-index.js';
import { createMemoryWebhookSubscriptionStore } from './webhook-subscription-store.js';

/** Options of {@link createMemoryClusterState}. */
export interface MemoryClusterStateOptions {
  /** This replica's id. @default a random id */
  replicaId?: string;
}

interface Expiring<T> {
  value: T;
  expiresAt: number;
}

/** Drops expired entries once a map grows (no timer: nothing runs while idle). */
function sweep<T>(map: Map<string, Expiring<T>>, now: number): void {
  if (map.size < 1024) return;
  for (const [key, entry] of map) if (entry.expiresAt <= now) map.delete(key);
}

/** Creates the in-process cluster state. */
export function createMemoryClusterState(options: MemoryClusterStateOptions = {}): ClusterState {
  const revoked = new Map<string, Expiring<true>>();
  const counters = new Map<string, Expiring<number>>();
  const logs = new Map<string, Expiring<ClusterLogEntry[]>>();
  const waiters = new Map<string, Set<() => void>>();
  const forwarded = new Set<(response: ForwardedResponse) => void>();
  let requestHandler: ForwardedRequestHandler | undefined;
  const replicaId = options.replicaId ?? randomUUID().slice(0, 8);
  return {
    specificationVersion: 'v1',
    replicaId,
    shared: false,
    operations: 0,
    webhookSubscriptions: createMemoryWebhookSubscriptionStore(),
    taskOwners: createMemoryTaskOwnerIndex(),
    async ready() {
      return true;
    },
    async revokeSession(sessionKey, ttlMs) {
      const now = Date.now();
      sweep(revoked, now);
      revoked.set(sessionKey, { value: true, expiresAt: now + ttlMs });
    },
    async isSessionRevoked(sessionKey) {
      const entry = revoked.get(sessionKey);
      return entry !== undefined && entry.expiresAt > Date.now();
    },
    async appendLog(logKey, entry, ttlMs) {
      const now = Date.now();
      sweep(logs, now);
      const log = logs.get(logKey) ?? { value: [], expiresAt: 0 };
      log.value.push(entry);
      log.expiresAt = now + ttlMs;
      logs.set(logKey, log);
      for (const wake of waiters.get(logKey) ?? []) wake();
    },
    async *readLog(logKey, afterSeq, { signal, follow }) {
      let seen = afterSeq;
      while (!signal.aborted) {
        const entries = logs.get(logKey)?.value ?? [];
        for (const entry of entries) {
          if (entry.seq <= seen) continue;
          seen = entry.seq;
          yield entry;
          if ('end' in entry) return;
        }
        if (!follow || !logs.has(logKey)) return;
        await new Promise<void>((resolve) => {
          const set = waiters.get(logKey) ?? new Set();
          const wake = () => {
            set.delete(wake);
            signal.removeEventListener('abort', wake);
            resolve();
          };
          set.add(wake);
          waiters.set(logKey, set);
          signal.addEventListener('abort', wake, { once: true });
        });
      }
    },
    async countCall(counterKey, windowMs) {
      const now = Date.now();
      sweep(counters, now);
      const current = counters.get(counterKey);
      if (current === undefined || current.expiresAt <= now) {
        counters.set(counterKey, { value: 1, expiresAt: now + windowMs });
        return { count: 1, resetInMs: windowMs };
      }
      current.value += 1;
      return { count: current.value, resetInMs: current.expiresAt - now };
    },
    // One process: its session objects already hold their subscriptions.
    async changeSubscription() {},
    async subscriptionsOf() {
      return [];
    },
    onRemoteSubscription() {
      return () => {};
    },
    publishEvent() {},
    onRemoteEvent() {
      return () => {};
    },
    async forwardResponse(target, response) {
      // One process: the only replica to reach is this one.
      if (target === replicaId) for (const listener of forwarded) listener(response);
    },
    onForwardedResponse(listener) {
      forwarded.add(listener);
      return () => forwarded.delete(listener);
    },
    async forwardRequest(target, payload, { onPartial, signal }) {
      const handler = target === replicaId ? requestHandler : undefined;
      if (handler === undefined) {
        throw new ServerError({
          code: ServerErrorCode.ReplicaUnreachable,
          message: `Replica ${target} is not reachable: this cluster state is in-process (createMemoryClusterState), so it reaches only replica ${replicaId}${target === replicaId ? ', which has no handler installed' : ''}.`,
          context: { replica: target },
        });
      }
      // A JSON round trip, as over a real backend: the handler never shares objects with the caller.
      const copy = (value: unknown) => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));
      return copy(
        await handler(copy(payload), {
          from: replicaId,
          partial: (value) => onPartial?.(copy(value)),
          signal: signal ?? new AbortController().signal,
        }),
      );
    },
    onForwardedRequest(handler) {
      requestHandler = handler;
      return () => {
        if (requestHandler === handler) requestHandler = undefined;
      };
    },
    async close() {
      revoked.clear();
      counters.clear();
      logs.clear();
    },
  };
}
