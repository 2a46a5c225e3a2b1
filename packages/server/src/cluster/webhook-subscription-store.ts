/**
 * `WebhookSubscriptionStore` (v1): the webhook subscriptions of the Events extension that replicas
 * share, so a subscription made on one replica is delivered by any and outlives the replica that
 * took it. A subscription is stored with its TTL and the cursor its deliveries have reached; one
 * replica at a time delivers it, holding a lease it renews (a replica that dies stops renewing,
 * the lease lapses, and another takes over from the stored cursor); the cursor only moves by
 * compare-and-set, so a replica that lost its lease cannot move it. An optional capability of a
 * `ClusterState` (`webhookSubscriptions`): the memory and Redis states have it, a custom state
 * without it still serves everything else. The in-process store is here too.
 */
import { ServerError, ServerErrorCode } from '../errors/server-error.js';

/** One stored webhook subscription: what any replica needs to deliver it. */
export interface StoredWebhookSubscription {
  /** The derived subscription id (`sub_…`). */
  id: string;
  principal: string;
  /** The event type, as the subscriber named it. */
  name: string;
  arguments: Record<string, unknown>;
  url: string;
  /** The Standard Webhooks signing secret (kept in the store: every replica signs with it). */
  secret: string;
  /** When it ends unless refreshed (epoch milliseconds). */
  expiresAt: number;
  /** Where delivery resumes (the source's cursor; `null`: from now). */
  cursor: string | null;
}

/** The shared webhook subscriptions and their delivery leases. */
export interface WebhookSubscriptionStore {
  readonly specificationVersion: 'v1';
  /**
   * Stores a subscription until its `expiresAt`; an existing one (same id) takes the new secret,
   * URL and expiry but keeps its stored cursor (a refresh does not rewind deliveries).
   */
  putWebhookSubscription(subscription: StoredWebhookSubscription): Promise<StoredWebhookSubscription>;
  /** The live subscription with this id, if any. */
  getWebhookSubscription(id: string): Promise<StoredWebhookSubscription | undefined>;
  /** Ends a subscription (and its lease); whether it existed. */
  deleteWebhookSubscription(id: string): Promise<boolean>;
  /** The ids of the live subscriptions. */
  listWebhookSubscriptions(): Promise<string[]>;
  /** Takes the delivery lease of `id` for `holder` for `ttlMs`, or renews it when `holder` has it; whether it holds it now. */
  acquireWebhookLease(id: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Gives the lease up (when `holder` has it), so another replica may take over at once. */
  releaseWebhookLease(id: string, holder: string): Promise<void>;
  /** Moves the stored cursor from `from` to `to`; false (nothing changed) when it is not at `from` or the subscription is gone. */
  advanceWebhookCursor(id: string, from: string | null, to: string | null): Promise<boolean>;
}

/** The store of a cluster state, or a clear error naming who asked for it. */
export function webhookStoreOf(
  cluster: {
    readonly replicaId: string;
    readonly webhookSubscriptions?: WebhookSubscriptionStore | undefined;
  },
  who: string,
): WebhookSubscriptionStore {
  const store = cluster.webhookSubscriptions;
  if (store?.specificationVersion === 'v1') return store;
  throw new ServerError({
    code: ServerErrorCode.ConfigInvalid,
    message: `${who}: webhook delivery needs a cluster state with webhookSubscriptions (a WebhookSubscriptionStore v1); createMemoryClusterState and createRedisClusterState have one, add it to your own or turn webhooks off.`,
  });
}

/** The in-process store: one replica's subscriptions, leases and cursors. */
export function createMemoryWebhookSubscriptionStore(): WebhookSubscriptionStore {
  const subscriptions = new Map<string, StoredWebhookSubscription>();
  const leases = new Map<string, { holder: string; expiresAt: number }>();
  const live = (id: string): StoredWebhookSubscription | undefined => {
    const found = subscriptions.get(id);
    if (found !== undefined && found.expiresAt <= Date.now()) {
      subscriptions.delete(id);
      leases.delete(id);
      return undefined;
    }
    return found;
  };
  return {
    specificationVersion: 'v1',
    async putWebhookSubscription(subscription) {
      const existing = live(subscription.id);
      const stored = {
        ...subscription,
        cursor: existing === undefined ? subscription.cursor : existing.cursor,
      };
      subscriptions.set(subscription.id, stored);
      return { ...stored };
    },
    async getWebhookSubscription(id) {
      const found = live(id);
      return found === undefined ? undefined : { ...found };
    },
    async deleteWebhookSubscription(id) {
      leases.delete(id);
      return live(id) !== undefined && subscriptions.delete(id);
    },
    async listWebhookSubscriptions() {
      return [...subscriptions.keys()].filter((id) => live(id) !== undefined);
    },
    async acquireWebhookLease(id, holder, ttlMs) {
      const lease = leases.get(id);
      if (lease !== undefined && lease.holder !== holder && lease.expiresAt > Date.now()) return false;
      leases.set(id, { holder, expiresAt: Date.now() + ttlMs });
      return true;
    },
    async releaseWebhookLease(id, holder) {
      if (leases.get(id)?.holder === holder) leases.delete(id);
    },
    async advanceWebhookCursor(id, from, to) {
      const found = live(id);
      if (found === undefined || found.cursor !== from) return false;
      found.cursor = to;
      return true;
    },
  };
}
