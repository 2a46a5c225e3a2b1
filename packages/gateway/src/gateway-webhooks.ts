/**
 * Webhook delivery of the upstreams' events through the gateway (`events/subscribe`). The gateway
 * is the webhook sender toward its subscriber: it consumes the upstream by polls from a stored
 * cursor and posts each event signed (Standard Webhooks, the server's `postSigned`, `webhook-id` =
 * the event's stable id). Subscriptions live in the cluster state's `WebhookSubscriptionStore`, so
 * every replica sees them: one replica at a time delivers a subscription, holding its lease; the
 * stored cursor moves only after a 2xx, by compare-and-set. When that replica dies its lease
 * lapses and another takes over from the stored cursor: no event is lost, and at most the one in
 * flight is posted again, with the same `webhook-id` for the receiver to drop. A single process
 * works the same way over its in-process store.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '@switchboard/core';
import {
  type ClusterState,
  createMemoryWebhookSubscriptionStore,
  defaultWebhookRetryDelaysMs,
  type EventOccurrence,
  type EventPollAnswer,
  type EventRequest,
  noWebhookSubscriptionError,
  postSigned,
  type StoredWebhookSubscription,
  subscribeRefusalError,
  verifyEndpoint,
  type WebhookOptions,
  type WebhookSubscribeRequest,
  type WebhookSubscriptionStore,
  webhookStoreOf,
  webhookSubscriptionId,
} from '@switchboard/server';

/** Webhook delivery through the gateway (`createGateway({ webhooks })`). */
export interface GatewayWebhookOptions extends WebhookOptions {
  /**
   * Where subscriptions, their cursors and delivery leases are kept: the cluster state the
   * replicas share (the one given to `serve`), so a subscription survives the replica that took
   * it. It must have `webhookSubscriptions` (the memory and Redis states do).
   * @default an in-process store (one replica)
   */
  cluster?: ClusterState;
  /**
   * How long a replica's claim on delivering a subscription lasts unless renewed (it renews at a
   * third of it); a replica that dies hands over after at most this long. Keep it above `timeoutMs`.
   * @default 30_000
   */
  leaseTtlMs?: number;
  /** Longest wait between polls of the upstream while it has nothing new. @default 5000 */
  pollIntervalMs?: number;
}

/** What delivery needs of the gateway's event source: its relayed poll. */
export interface WebhookEventSource {
  pollEvents(request: EventRequest & { maxEvents: number }): Promise<EventPollAnswer>;
}

type SendOutcome = 'delivered' | 'dropped' | 'gone' | 'stopped';

/** The gateway's webhook subscriptions and their deliveries, on one replica. */
export class GatewayWebhooks {
  readonly policy: WebhookOptions;
  readonly #source: WebhookEventSource;
  readonly #logger: Logger;
  readonly #store: WebhookSubscriptionStore;
  readonly #holder = randomUUID();
  readonly #leaseTtlMs: number;
  readonly #pollIntervalMs: number;
  readonly #retryDelaysMs: readonly number[];
  readonly #maxTtlMs: number;
  /** Subscriptions this replica delivers now, by id. */
  readonly #workers = new Map<string, AbortController>();
  readonly #scan: NodeJS.Timeout;
  #closed = false;

  constructor(source: WebhookEventSource, options: GatewayWebhookOptions, logger: Logger) {
    this.policy = options;
    this.#source = source;
    this.#logger = logger;
    this.#store =
      options.cluster === undefined
        ? createMemoryWebhookSubscriptionStore()
        : webhookStoreOf(options.cluster, 'createGateway({ webhooks: { cluster } })');
    this.#leaseTtlMs = options.leaseTtlMs ?? 30_000;
    this.#pollIntervalMs = options.pollIntervalMs ?? 5000;
    this.#retryDelaysMs = options.retryDelaysMs ?? defaultWebhookRetryDelaysMs;
    this.#maxTtlMs = options.maxTtlMs ?? 86_400_000;
    // Every replica looks for subscriptions nobody delivers (new ones, or a dead replica's).
    this.#scan = setInterval(() => void this.#claimAll(), Math.max(10, this.#leaseTtlMs / 3));
    this.#scan.unref();
  }

  /** Creates or refreshes a subscription (the server has checked the params, URL and caller). */
  async subscribe(
    request: WebhookSubscribeRequest,
  ): Promise<{ id: string; refreshBefore: string; cursor: string | null }> {
    // The relayed poll checks the type, its arguments and the cursor, and says where "now" is.
    const wanted = { name: request.name, arguments: request.arguments, maxEvents: 1 };
    const now = await this.#source.pollEvents({ ...wanted, cursor: null });
    if (request.cursor !== null) await this.#source.pollEvents({ ...wanted, cursor: request.cursor });
    const id = webhookSubscriptionId(request.principal, request.name, request.arguments, request.url);
    const existing = await this.#store.getWebhookSubscription(id);
    if (
      existing === undefined &&
      (await this.#store.listWebhookSubscriptions()).length >= (this.policy.maxSubscriptions ?? 1000)
    ) {
      throw subscribeRefusalError({ kind: 'exhausted' });
    }
    // A new endpoint, or a new secret for it, proves again that it wants the deliveries.
    if (existing?.secret !== request.secret) {
      const failure = await verifyEndpoint(this.#target(id, request.url, request.secret));
      if (failure !== undefined) throw subscribeRefusalError({ kind: 'endpoint', reason: failure });
    }
    const stored = await this.#store.putWebhookSubscription({
      id,
      principal: request.principal,
      name: request.name,
      arguments: request.arguments,
      url: request.url,
      secret: request.secret,
      expiresAt: Date.now() + Math.min(request.ttlMs ?? this.#maxTtlMs, this.#maxTtlMs),
      cursor: request.cursor ?? now.cursor,
    });
    void this.#claim(id);
    return { id, refreshBefore: new Date(stored.expiresAt).toISOString(), cursor: stored.cursor };
  }

  /** Ends the caller's subscription everywhere; no replica posts for it once this resolves. */
  async unsubscribe(request: Omit<WebhookSubscribeRequest, 'secret' | 'ttlMs' | 'cursor'>): Promise<void> {
    const id = webhookSubscriptionId(request.principal, request.name, request.arguments, request.url);
    this.#workers.get(id)?.abort();
    if (!(await this.#store.deleteWebhookSubscription(id))) throw noWebhookSubscriptionError(request.name);
  }

  /** Stops delivering here and gives the leases up, so another replica takes over at once. */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#scan);
    const held = [...this.#workers.entries()];
    for (const [, worker] of held) worker.abort();
    await Promise.all(
      held.map(([id]) => this.#store.releaseWebhookLease(id, this.#holder).catch(() => undefined)),
    );
  }

  #target(subscriptionId: string, url: string, secret: string) {
    return { url, secret, subscriptionId, timeoutMs: this.policy.timeoutMs ?? 10_000 };
  }

  async #claimAll(): Promise<void> {
    try {
      for (const id of await this.#store.listWebhookSubscriptions()) await this.#claim(id);
    } catch (error) {
      this.#logger.warn(
        { error: error instanceof Error ? error.message : String(error) },
        'gateway: webhook subscriptions could not be read; retrying',
      );
    }
  }

  /** Starts delivering `id` here when no replica holds its lease. */
  async #claim(id: string): Promise<void> {
    if (this.#closed || this.#workers.has(id)) return;
    const worker = new AbortController();
    this.#workers.set(id, worker);
    const held = await this.#store.acquireWebhookLease(id, this.#holder, this.#leaseTtlMs).catch(() => false);
    if (!held || this.#closed) {
      this.#workers.delete(id);
      return;
    }
    void this.#deliver(id, worker);
  }

  /** Delivers one subscription while this replica holds its lease. */
  async #deliver(id: string, worker: AbortController): Promise<void> {
    const { signal } = worker;
    const renew = setInterval(async () => {
      const held = await this.#store
        .acquireWebhookLease(id, this.#holder, this.#leaseTtlMs)
        .catch(() => false);
      if (!held) worker.abort();
    }, this.#leaseTtlMs / 3);
    renew.unref();
    try {
      while (!signal.aborted) {
        const subscription = await this.#store.getWebhookSubscription(id);
        if (subscription === undefined) return;
        const answer = await this.#poll(subscription);
        if (answer === undefined) {
          await pause(this.#pollIntervalMs, signal);
          continue;
        }
        if (answer.truncated) {
          this.#logger.warn(
            { subscription: id, name: subscription.name },
            'gateway: the upstream lost events after the stored cursor (truncated); delivering from its oldest kept',
          );
        }
        let cursor = subscription.cursor;
        for (const event of answer.events) {
          const outcome = await this.#send(id, event, signal);
          if (outcome === 'stopped') return;
          if (outcome === 'gone') {
            this.#logger.info({ subscription: id }, 'webhook endpoint answered 410: subscription ended');
            await this.#store.deleteWebhookSubscription(id);
            return;
          }
          // Another holder moved it (this one lost its lease): it delivers from there.
          if (!(await this.#store.advanceWebhookCursor(id, cursor, event.cursor))) return;
          cursor = event.cursor;
        }
        if (
          answer.cursor !== cursor &&
          !(await this.#store.advanceWebhookCursor(id, cursor, answer.cursor))
        ) {
          return;
        }
        if (!answer.hasMore) {
          await pause(Math.min(answer.nextPollMs ?? this.#pollIntervalMs, this.#pollIntervalMs), signal);
        }
      }
    } catch (error) {
      this.#logger.warn(
        { subscription: id, error: error instanceof Error ? error.message : String(error) },
        'gateway: webhook delivery stopped; a replica takes it up again',
      );
    } finally {
      clearInterval(renew);
      if (this.#workers.get(id) === worker) this.#workers.delete(id);
      await this.#store.releaseWebhookLease(id, this.#holder).catch(() => undefined);
    }
  }

  /** The next events of the subscription from the upstream, or undefined when the poll failed (logged). */
  async #poll(subscription: StoredWebhookSubscription): Promise<EventPollAnswer | undefined> {
    try {
      return await this.#source.pollEvents({
        name: subscription.name,
        arguments: subscription.arguments,
        cursor: subscription.cursor,
        maxEvents: 100,
      });
    } catch (error) {
      this.#logger.warn(
        { subscription: subscription.id, error: error instanceof Error ? error.message : String(error) },
        'gateway: polling the upstream for a webhook subscription failed; retrying',
      );
      return undefined;
    }
  }

  /** Posts one event until a 2xx, a 410, the retries run out, or this replica stops delivering. */
  async #send(id: string, event: EventOccurrence, signal: AbortSignal): Promise<SendOutcome> {
    const body = JSON.stringify(event);
    for (let attempt = 0; ; attempt += 1) {
      // Read before every POST: nothing is posted once an unsubscribe resolved, and a refreshed
      // secret signs at once.
      const subscription = await this.#store.getWebhookSubscription(id);
      if (subscription === undefined || signal.aborted) return 'stopped';
      const outcome = await postSigned(
        this.#target(id, subscription.url, subscription.secret),
        event.eventId,
        body,
      );
      // The lease was lost meanwhile: the cursor is the next holder's to move (it posts this event again).
      if (signal.aborted) return 'stopped';
      if (outcome.status >= 200 && outcome.status < 300) return 'delivered';
      if (outcome.status === 410) return 'gone';
      const delay = this.#retryDelaysMs[attempt];
      if (delay === undefined) {
        this.#logger.warn(
          { subscription: id, eventId: event.eventId, status: outcome.status },
          'webhook delivery failed on every retry: event dropped',
        );
        return 'dropped';
      }
      await pause(delay, signal);
    }
  }
}

/** Waits `ms`, or less when `signal` aborts. */
async function pause(ms: number, signal: AbortSignal): Promise<void> {
  await sleep(ms, undefined, { signal, ref: false }).catch(() => undefined);
}
