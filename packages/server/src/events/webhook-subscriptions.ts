/**
 * The webhook subscriptions of an event hub (`events/subscribe`): soft state with a TTL the client
 * refreshes by subscribing again. A subscription's id is derived from who subscribed to what and
 * where (principal, event name, arguments, URL), so subscribing is idempotent and a refresh finds
 * its subscription. Each subscription delivers its events in order, one POST at a time: a 2xx
 * acknowledges, 410 Gone ends the subscription, anything else is retried after the next backoff
 * delay with the same `webhook-id` (re-signed with a fresh timestamp); an event that exhausts the
 * delays is dropped so one bad event does not stall the rest.
 */
import { createHash } from 'node:crypto';
import type { Logger } from '@switchboard/core';
import { ServerError, ServerErrorCode } from '../errors/server-error.js';
import type { LoggedEvent } from './event-log.js';
import type { WebhookPolicy } from './event-source.js';
import type { EventOccurrence } from './event-type.js';
import { postSigned, type VerificationFailure, verifyEndpoint } from './webhook-delivery.js';

/** Webhook delivery settings of an event hub. */
export interface WebhookOptions extends WebhookPolicy {
  /** Longest (and default) lifetime of a subscription between refreshes. @default 86_400_000 (24 h) */
  maxTtlMs?: number;
  /** Waits before each retry of a failed delivery; their number is the retries. @default [1000, 5000, 30000, 120000, 600000] */
  retryDelaysMs?: readonly number[];
  /** Time limit of one POST. @default 10_000 */
  timeoutMs?: number;
  /** Most subscriptions held at once. @default 1000 */
  maxSubscriptions?: number;
}

/** What a subscribe asks for. */
export interface WebhookRegistration {
  principal: string;
  name: string;
  args: Record<string, unknown>;
  url: string;
  secret: string;
  ttlMs: number | undefined;
  /** Replay from this position (its events are queued first); undefined subscribes from now. */
  fromSeq: number | undefined;
}

/** Why a subscribe was refused. */
export type SubscribeRefusal = { kind: 'exhausted' } | { kind: 'endpoint'; reason: VerificationFailure };

interface Subscription {
  readonly id: string;
  readonly principal: string;
  readonly name: string;
  readonly args: Record<string, unknown>;
  readonly url: string;
  secret: string;
  expiresAt: number;
  readonly queue: LoggedEvent[];
  attempts: number;
  sending: boolean;
  timer: NodeJS.Timeout | undefined;
}

/** What the registry needs of its hub. */
export interface WebhookHubParts {
  logger: Logger;
  occurrence(entry: LoggedEvent): EventOccurrence;
  belongs(name: string, args: Readonly<Record<string, unknown>>, entry: LoggedEvent): boolean;
  backlog(name: string, args: Readonly<Record<string, unknown>>, fromSeq: number): LoggedEvent[];
}

/** The default waits before each retry of a failed delivery. */
export const defaultWebhookRetryDelaysMs: readonly number[] = Object.freeze([
  1000, 5000, 30_000, 120_000, 600_000,
]);

/** The coded error of an unsubscribe that names no subscription of the caller's. */
export function noWebhookSubscriptionError(name: string): ServerError {
  return new ServerError({
    code: ServerErrorCode.EventTypeNotFound,
    message: `No webhook subscription of yours to "${name}" with these arguments posts to that URL.`,
    data: { name },
  });
}

/** The coded error a refused subscribe answers with. */
export function subscribeRefusalError(refusal: SubscribeRefusal): ServerError {
  return refusal.kind === 'exhausted'
    ? new ServerError({
        code: ServerErrorCode.EventsExhausted,
        message: 'The server holds as many webhook subscriptions as it allows; unsubscribe one first.',
      })
    : new ServerError({
        code: ServerErrorCode.WebhookEndpointFailed,
        message: `The callback endpoint failed verification (${refusal.reason}): it must answer the signed verification POST with 2xx and {"challenge": <the same value>}.`,
        data: { reason: refusal.reason },
      });
}

/** JSON with object keys sorted, so equal arguments give equal ids. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The derived id of a subscription. */
export function webhookSubscriptionId(principal: string, name: string, args: unknown, url: string): string {
  const digest = createHash('sha256')
    .update(`${principal}\0${name}\0${canonicalJson(args)}\0${url}`)
    .digest();
  return `sub_${digest.toString('base64url').slice(0, 32)}`;
}

/** The webhook subscriptions of one hub, and their deliveries. */
export class WebhookSubscriptions {
  readonly maxTtlMs: number;
  /** The settings it was made with. */
  readonly options: WebhookOptions;
  readonly #parts: WebhookHubParts;
  readonly #retryDelaysMs: readonly number[];
  readonly #byId = new Map<string, Subscription>();

  constructor(options: WebhookOptions, parts: WebhookHubParts) {
    this.options = options;
    this.#parts = parts;
    this.maxTtlMs = options.maxTtlMs ?? 86_400_000;
    this.#retryDelaysMs = options.retryDelaysMs ?? defaultWebhookRetryDelaysMs;
  }

  /** How many are held (expired ones are dropped first). */
  get size(): number {
    this.#sweep();
    return this.#byId.size;
  }

  /** Creates or refreshes a subscription; resolves to its id and expiry, or why it was refused. */
  async subscribe(
    request: WebhookRegistration,
  ): Promise<{ id: string; expiresAt: number } | SubscribeRefusal> {
    this.#sweep();
    const id = webhookSubscriptionId(request.principal, request.name, request.args, request.url);
    const ttl = Math.min(request.ttlMs ?? this.maxTtlMs, this.maxTtlMs);
    const existing = this.#byId.get(id);
    if (existing === undefined && this.#byId.size >= (this.options.maxSubscriptions ?? 1000)) {
      return { kind: 'exhausted' };
    }
    // A new endpoint, or a new secret for it, proves again that it wants the deliveries.
    if (existing?.secret !== request.secret) {
      const failure = await verifyEndpoint(this.#target(id, request.url, request.secret));
      if (failure !== undefined) return { kind: 'endpoint', reason: failure };
    }
    if (existing !== undefined) {
      existing.secret = request.secret;
      existing.expiresAt = Date.now() + ttl;
      return { id, expiresAt: existing.expiresAt };
    }
    const subscription: Subscription = {
      id,
      principal: request.principal,
      name: request.name,
      args: request.args,
      url: request.url,
      secret: request.secret,
      expiresAt: Date.now() + ttl,
      queue:
        request.fromSeq === undefined ? [] : this.#parts.backlog(request.name, request.args, request.fromSeq),
      attempts: 0,
      sending: false,
      timer: undefined,
    };
    this.#byId.set(id, subscription);
    void this.#pump(subscription);
    return { id, expiresAt: subscription.expiresAt };
  }

  /** Ends the caller's subscription to `name` with `args` at `url`; whether it existed. */
  unsubscribe(principal: string, name: string, args: unknown, url: string): boolean {
    const id = webhookSubscriptionId(principal, name, args, url);
    const subscription = this.#byId.get(id);
    if (subscription === undefined) return false;
    this.#remove(subscription);
    return true;
  }

  /** Queues a new occurrence for every live subscription it belongs to. */
  deliver(entry: LoggedEvent): void {
    this.#sweep();
    for (const subscription of this.#byId.values()) {
      if (!this.#parts.belongs(subscription.name, subscription.args, entry)) continue;
      subscription.queue.push(entry);
      void this.#pump(subscription);
    }
  }

  /** Stops every delivery. */
  close(): void {
    for (const subscription of [...this.#byId.values()]) this.#remove(subscription);
  }

  #target(id: string, url: string, secret: string) {
    return { url, secret, subscriptionId: id, timeoutMs: this.options.timeoutMs ?? 10_000 };
  }

  #sweep(): void {
    const now = Date.now();
    for (const subscription of this.#byId.values()) {
      if (subscription.expiresAt <= now) this.#remove(subscription);
    }
  }

  #remove(subscription: Subscription): void {
    clearTimeout(subscription.timer);
    subscription.queue.length = 0;
    this.#byId.delete(subscription.id);
  }

  /** Sends the queue head until the queue is empty, a retry waits, or the subscription ends. */
  async #pump(subscription: Subscription): Promise<void> {
    if (subscription.sending || subscription.timer !== undefined) return;
    subscription.sending = true;
    try {
      while (subscription.queue.length > 0 && this.#byId.get(subscription.id) === subscription) {
        const entry = subscription.queue[0] as LoggedEvent;
        const occurrence = this.#parts.occurrence(entry);
        const outcome = await postSigned(
          this.#target(subscription.id, subscription.url, subscription.secret),
          occurrence.eventId,
          JSON.stringify(occurrence),
        );
        if (outcome.status >= 200 && outcome.status < 300) {
          subscription.queue.shift();
          subscription.attempts = 0;
          continue;
        }
        if (outcome.status === 410) {
          this.#parts.logger.info(
            { subscription: subscription.id },
            'webhook endpoint answered 410: subscription ended',
          );
          this.#remove(subscription);
          return;
        }
        const delay = this.#retryDelaysMs[subscription.attempts];
        subscription.attempts += 1;
        if (delay === undefined) {
          this.#parts.logger.warn(
            { subscription: subscription.id, eventId: occurrence.eventId, status: outcome.status },
            'webhook delivery failed on every retry: event dropped',
          );
          subscription.queue.shift();
          subscription.attempts = 0;
          continue;
        }
        subscription.timer = setTimeout(() => {
          subscription.timer = undefined;
          void this.#pump(subscription);
        }, delay);
        subscription.timer.unref();
        return;
      }
    } finally {
      subscription.sending = false;
    }
  }
}
