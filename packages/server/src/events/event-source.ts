/**
 * The extension point of the Events methods (`specificationVersion: 'v1'`): what a server serves
 * `events/*` from. The built-in one is an event hub (`createEventHub`); a gateway's is its
 * upstreams. The server parses and checks the wire params (shapes, cursor type, the webhook URL
 * policy, the caller) and keeps streams alive with heartbeats; a source answers for its types:
 * unknown names, modes not offered and arguments its schemas refuse are its coded `ServerError`s.
 */
import type { EventOccurrence, ListedEventType } from './event-type.js';

/** One subscription's request: the type, its arguments, and where to start (`null`: now). */
export interface EventRequest {
  name: string;
  arguments: Record<string, unknown>;
  cursor: string | null;
}

/** What one poll answered. */
export interface EventPollAnswer {
  events: EventOccurrence[];
  /** Poll from here next. */
  cursor: string | null;
  /** Events after the request's cursor were lost. */
  truncated: boolean;
  /** More are waiting (the answer stopped at its limit). */
  hasMore: boolean;
  /** How long to wait before the next poll. @default the server's poll interval */
  nextPollMs?: number;
}

/** Where a stream's confirmation and events go. */
export interface EventStreamSink {
  /** The stream is open, from `cursor` (`truncated`: events after the request's cursor were lost). */
  active(info: { cursor: string | null; truncated: boolean }): void;
  /** One event, in order. */
  event(event: EventOccurrence): void;
}

/** A webhook subscription request (the URL already allowed by the server's policy). */
export interface WebhookSubscribeRequest extends EventRequest {
  principal: string;
  url: string;
  secret: string;
  ttlMs: number | undefined;
}

/** Which callbacks and callers webhook subscriptions accept. */
export interface WebhookPolicy {
  /** Which callback URLs may be subscribed. @default https, not a loopback or private address literal */
  allowCallback?(url: URL): boolean;
  /** Who an unauthenticated caller subscribes as. @default none: webhook subscriptions need an authenticated caller */
  anonymousPrincipal?: string;
}

/** A source of events a server serves. */
export interface EventSource {
  readonly specificationVersion: 'v1';
  /** Whether it offers events now: the server declares the extension while it does. @default always */
  offersEvents?(): boolean;
  /** The offered types (`events/list`). */
  listEventTypes(): Promise<readonly ListedEventType[]> | readonly ListedEventType[];
  /** One poll; `maxEvents` is the most to return. */
  pollEvents(request: EventRequest & { maxEvents: number }): Promise<EventPollAnswer>;
  /**
   * Serves one stream: calls `sink.active` once, then `sink.event` per event, until `signal` aborts
   * (resolves then) or the source ends it (resolves). Refusals before `active` reject.
   */
  streamEvents(request: EventRequest, sink: EventStreamSink, signal: AbortSignal): Promise<void>;
  /** Webhook delivery; absent, `events/subscribe` is refused as unsupported. */
  readonly webhooks?: {
    readonly policy: WebhookPolicy;
    subscribe(
      request: WebhookSubscribeRequest,
    ): Promise<{ id: string; refreshBefore: string; cursor: string | null }>;
    unsubscribe(request: Omit<WebhookSubscribeRequest, 'secret' | 'ttlMs' | 'cursor'>): Promise<void>;
  };
}
