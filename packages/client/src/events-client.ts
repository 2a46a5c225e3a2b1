/**
 * The Events extension (SEP-3415, `io.modelcontextprotocol/events`) from the client side: list a
 * server's event types, poll them, hold an `events/stream` open, and subscribe a webhook. Every
 * answer carries the cursor to resume from: keep the last one and pass it back after a disconnect
 * or restart to miss nothing (`truncated: true` says the server could not keep everything since).
 * The SDK has no Events client, so this speaks the wire itself through the connection's engine.
 */
import { ClientError, ClientErrorCode } from './client-error.js';
import type { StreamHandlers } from './request-engine.js';

/** How an event type is delivered. */
export type EventDeliveryMode = 'poll' | 'push' | 'webhook';

/** An event type a server offers (`events/list`). */
export interface EventType {
  name: string;
  description?: string;
  delivery: EventDeliveryMode[];
  inputSchema: Record<string, unknown>;
  payloadSchema?: Record<string, unknown>;
}

/** One event occurrence, as every delivery mode carries it. */
export interface EventOccurrence {
  /** Stable across retries and replays: deduplicate on it. */
  eventId: string;
  name: string;
  timestamp: string;
  data: unknown;
  /** Resume after this event from here. */
  cursor: string | null;
}

/** Options of {@link EventsClient.poll}. */
export interface EventPollOptions {
  /** Where the last answer ended; `null` or absent starts now (no events, just the cursor). */
  cursor?: string | null;
  /** Most events to return. @default the server's page size */
  maxEvents?: number;
}

/** What a poll returned. */
export interface EventPollResult {
  events: EventOccurrence[];
  /** Poll from here next. */
  cursor: string | null;
  /** Events after the cursor were lost before this read (the server's buffer moved on). */
  truncated: boolean;
  /** More events are waiting: poll again now. */
  hasMore: boolean;
  /** How long the server asks the client to wait before the next poll. */
  nextPollMs?: number;
}

/** Options of {@link EventsClient.stream}. */
export interface EventStreamOptions {
  /** Resume after this cursor; `null` or absent starts now. */
  cursor?: string | null;
  /** Each event, in order. */
  onEvent(event: EventOccurrence): void;
  /** The server confirmed the stream (`truncated`: events after the cursor were lost). */
  onActive?(info: { cursor: string | null; truncated: boolean }): void;
  /** The stream ended (undefined when the client closed it or the server ended it gracefully). */
  onEnd?(error: Error | undefined): void;
}

/** An open `events/stream`. */
export interface EventStream {
  /** The cursor of the last event or heartbeat: where to resume if the stream breaks. */
  readonly cursor: string | null;
  /** Resolves once the server confirmed the stream; rejects if it refused it. */
  readonly active: Promise<void>;
  /** Closes the stream (cancels the request). */
  close(): Promise<void>;
}

/** A webhook subscription's callback. */
export interface WebhookDelivery {
  /** The https URL the server posts to. */
  url: string;
  /** The Standard Webhooks secret (`whsec_…`) it signs with; the receiver verifies with the same. */
  secret: string;
}

/** Options of {@link EventsClient.subscribe}. */
export interface WebhookSubscribeOptions extends WebhookDelivery {
  /** Replay from this cursor first. @default from now */
  cursor?: string | null;
  /** Lifetime asked for (the server may shorten it). @default the server's */
  ttlMs?: number;
}

/** What a webhook subscribe returned. */
export interface WebhookSubscription {
  /** The server's id of it (the `X-MCP-Subscription-Id` of its deliveries). */
  id: string;
  /** Subscribe again before this time (ISO 8601) to keep it. */
  refreshBefore: string;
  cursor: string | null;
}

/** The Events extension of one connection. */
export interface EventsClient {
  /** The server's event types. */
  list(): Promise<EventType[]>;
  /** The occurrences of `name` for `args` after `options.cursor`. */
  poll(name: string, args?: Record<string, unknown>, options?: EventPollOptions): Promise<EventPollResult>;
  /** Opens an `events/stream` of `name` for `args`. */
  stream(name: string, args: Record<string, unknown>, options: EventStreamOptions): EventStream;
  /** Creates or refreshes a webhook subscription. */
  subscribe(
    name: string,
    args: Record<string, unknown>,
    options: WebhookSubscribeOptions,
  ): Promise<WebhookSubscription>;
  /** Ends a webhook subscription. */
  unsubscribe(
    name: string,
    args: Record<string, unknown>,
    delivery: Pick<WebhookDelivery, 'url'>,
  ): Promise<void>;
}

/** What the events client sends through (the connection's façade provides it). */
export interface EventsChannel {
  /** Throws a `ClientError` with code `EVENTS_UNAVAILABLE` when the server does not offer the extension. */
  assertAvailable(): void;
  request(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>>;
  openStream(method: string, params: Record<string, unknown>, handlers: StreamHandlers): () => Promise<void>;
  /** The error a failed request becomes (a `ClientError` naming the server). */
  toError(error: unknown, operation: string): Error;
}

function occurrenceOf(value: unknown): EventOccurrence {
  const event = (value ?? {}) as Record<string, unknown>;
  return {
    eventId: String(event.eventId),
    name: String(event.name),
    timestamp: String(event.timestamp),
    data: event.data,
    cursor: typeof event.cursor === 'string' ? event.cursor : null,
  };
}

function cursorOf(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

class ChannelEventsClient implements EventsClient {
  constructor(private readonly channel: EventsChannel) {}

  async list(): Promise<EventType[]> {
    this.channel.assertAvailable();
    const types: EventType[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.channel.request('events/list', cursor === undefined ? {} : { cursor });
      types.push(...((page.events ?? []) as EventType[]));
      cursor = typeof page.nextCursor === 'string' ? page.nextCursor : undefined;
    } while (cursor !== undefined);
    return types;
  }

  async poll(
    name: string,
    args: Record<string, unknown> = {},
    options: EventPollOptions = {},
  ): Promise<EventPollResult> {
    this.channel.assertAvailable();
    const result = await this.channel.request('events/poll', {
      name,
      arguments: args,
      cursor: options.cursor ?? null,
      ...(options.maxEvents !== undefined ? { maxEvents: options.maxEvents } : {}),
    });
    return {
      events: ((result.events ?? []) as unknown[]).map(occurrenceOf),
      cursor: cursorOf(result.cursor),
      truncated: result.truncated === true,
      hasMore: result.hasMore === true,
      ...(typeof result.nextPollMs === 'number' ? { nextPollMs: result.nextPollMs } : {}),
    };
  }

  stream(name: string, args: Record<string, unknown>, options: EventStreamOptions): EventStream {
    this.channel.assertAvailable();
    let cursor = options.cursor ?? null;
    let settleActive: { resolve(): void; reject(error: Error): void } | undefined;
    const active = new Promise<void>((resolve, reject) => {
      settleActive = { resolve, reject };
    });
    // A refused stream rejects `active`; a caller that only uses onEnd must not see it unhandled.
    active.catch(() => {});
    let ended = false;
    const end = (error: Error | undefined) => {
      if (ended) return;
      ended = true;
      settleActive?.reject(error ?? new Error('events/stream ended before the server confirmed it'));
      options.onEnd?.(error);
    };
    const close = this.channel.openStream(
      'events/stream',
      { name, arguments: args, cursor },
      {
        acknowledged: () => {},
        notified: (method, params) => {
          if (method === 'notifications/events/active') {
            cursor = cursorOf(params.cursor) ?? cursor;
            options.onActive?.({ cursor, truncated: params.truncated === true });
            settleActive?.resolve();
          } else if (method === 'notifications/events/event') {
            const event = occurrenceOf(params);
            cursor = event.cursor ?? cursor;
            options.onEvent(event);
          } else if (method === 'notifications/events/heartbeat') {
            cursor = cursorOf(params.cursor) ?? cursor;
          }
        },
        completed: () => end(undefined),
        ended: (error) => end(this.channel.toError(error, 'events/stream')),
      },
    );
    return {
      get cursor() {
        return cursor;
      },
      active,
      close: async () => {
        await close();
        end(undefined);
      },
    };
  }

  async subscribe(
    name: string,
    args: Record<string, unknown>,
    options: WebhookSubscribeOptions,
  ): Promise<WebhookSubscription> {
    this.channel.assertAvailable();
    const result = await this.channel.request('events/subscribe', {
      name,
      arguments: args,
      delivery: { mode: 'webhook', url: options.url, secret: options.secret },
      cursor: options.cursor ?? null,
      ...(options.ttlMs !== undefined ? { ttlMs: options.ttlMs } : {}),
    });
    return {
      id: String(result.id),
      refreshBefore: String(result.refreshBefore),
      cursor: cursorOf(result.cursor),
    };
  }

  async unsubscribe(
    name: string,
    args: Record<string, unknown>,
    delivery: Pick<WebhookDelivery, 'url'>,
  ): Promise<void> {
    this.channel.assertAvailable();
    await this.channel.request('events/unsubscribe', {
      name,
      arguments: args,
      delivery: { mode: 'webhook', url: delivery.url },
    });
  }
}

/** The events client over a connection's channel. */
export function createEventsClient(channel: EventsChannel): EventsClient {
  return new ChannelEventsClient(channel);
}

/** The extension's id, as a server declares it in its capabilities' `extensions`. */
export const eventsExtensionId = 'io.modelcontextprotocol/events';

/**
 * The `assertAvailable` of a connection: throws `EVENTS_UNAVAILABLE`, naming the server and, on a
 * 2025 connection, why (the extension is defined for 2026-07-28 only), when the server declares no events.
 */
export function eventsAvailability(
  server: string,
  era: 'modern' | 'legacy',
  capabilities: () => object | undefined,
): () => void {
  return () => {
    const declared = (capabilities() as { extensions?: Record<string, unknown> } | undefined)?.extensions;
    if (declared?.[eventsExtensionId] !== undefined) return;
    throw new ClientError({
      code: ClientErrorCode.EventsUnavailable,
      message: `MCP server "${server}" does not offer events (it declares no ${eventsExtensionId} extension${era === 'modern' ? '' : '; the extension is defined for protocol 2026-07-28, and this connection speaks the 2025 protocol'}).`,
      context: { server },
    });
  };
}
