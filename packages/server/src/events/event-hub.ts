/**
 * `createEventHub`: the event types a server offers and the occurrences it emits (SEP-3415). The
 * hub numbers every emitted occurrence in one bounded log, and every delivery mode reads that log:
 * `events/poll` and `events/stream` replay from a cursor, webhook subscriptions queue what belongs
 * to them. Hand the hub to `createMcpServer({ events })`; call `emit` when something happens.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import {
  type ArgumentValidator,
  createArgumentValidator,
  type Logger,
  silentLogger,
} from '@switchboard/core';
import { ServerError, ServerErrorCode } from '../errors/server-error.js';
import { decodeEventCursor, encodeEventCursor } from './event-cursor.js';
import { EventLog, type LoggedEvent } from './event-log.js';
import type {
  EventPollAnswer,
  EventRequest,
  EventSource,
  EventStreamSink,
  WebhookPolicy,
  WebhookSubscribeRequest,
} from './event-source.js';
import {
  type EventDeliveryMode,
  type EventOccurrence,
  type EventTypeDefinition,
  eventDeliveryModes,
  type ListedEventType,
} from './event-type.js';
import {
  noWebhookSubscriptionError,
  subscribeRefusalError,
  type WebhookOptions,
  WebhookSubscriptions,
} from './webhook-subscriptions.js';

/** Options of {@link createEventHub}. */
export interface EventHubOptions {
  /** The event types offered. */
  types: readonly EventTypeDefinition[];
  /** Occurrences kept for replay (all types together); a cursor older than them reads `truncated`. @default 1000 */
  retain?: number;
  /** Webhook delivery (`events/subscribe`) settings. @default the defaults of {@link WebhookOptions} */
  webhooks?: WebhookOptions;
  /** Where delivery problems are logged. @default silentLogger */
  logger?: Logger;
}

/** Options of {@link EventHub.emit}. */
export interface EmitOptions {
  /** The upstream's stable id of the event (clients deduplicate on it). @default a random UUID */
  eventId?: string;
  /** When it happened. @default now */
  timestamp?: Date;
}

/** What a read from a cursor found. */
export interface EventReadResult {
  events: EventOccurrence[];
  cursor: string;
  truncated: boolean;
  hasMore: boolean;
}

/** The webhook side of a hub: the event source's subscribe and unsubscribe, and how many are held. */
export interface HubWebhooks {
  readonly policy: WebhookPolicy;
  /** Live subscriptions (expired ones dropped first). */
  readonly size: number;
  subscribe(
    request: WebhookSubscribeRequest,
  ): Promise<{ id: string; refreshBefore: string; cursor: string | null }>;
  unsubscribe(request: Omit<WebhookSubscribeRequest, 'secret' | 'ttlMs' | 'cursor'>): Promise<void>;
}

/** The event types of a server and the occurrences it emits; the server's `EventSource`. */
export interface EventHub extends EventSource {
  /** The offered types, as `events/list` lists them. */
  list(): ListedEventType[];
  /** The definition of a type, if offered. */
  get(name: string): EventTypeDefinition | undefined;
  /** Records an occurrence of `name` and hands it to every delivery mode. */
  emit(name: string, data: unknown, options?: EmitOptions): EventOccurrence;
  /** The cursor of "now": reading from it returns what is emitted later. */
  headCursor(): string;
  /**
   * The occurrences of `name` for `args` after `cursor` (at most `limit`); a cursor of another hub
   * life, or one whose next events were dropped, reads from the oldest retained with `truncated`.
   * Throws `EVENT_CURSOR_INVALID` for a cursor that is not the hub's.
   */
  read(name: string, args: Readonly<Record<string, unknown>>, cursor: string, limit: number): EventReadResult;
  /** Calls `listener` with every later occurrence of `name` for `args`; returns the stop function. */
  watch(
    name: string,
    args: Readonly<Record<string, unknown>>,
    listener: (event: EventOccurrence) => void,
  ): () => void;
  /** The webhook subscriptions. */
  readonly webhooks: HubWebhooks;
  /** Stops webhook deliveries. */
  close(): void;
}

class DefaultEventHub implements EventHub {
  readonly specificationVersion = 'v1' as const;
  readonly webhooks: HubWebhooks;
  readonly #subscriptions: WebhookSubscriptions;
  readonly #types = new Map<string, EventTypeDefinition>();
  readonly #epoch = randomBytes(6).toString('base64url').replaceAll('.', '');
  readonly #log: EventLog;
  readonly #validator: ArgumentValidator = createArgumentValidator();

  constructor(options: EventHubOptions) {
    for (const type of options.types ?? []) {
      if (typeof type?.name !== 'string' || type.name === '') {
        throw new ServerError({
          code: ServerErrorCode.ConfigInvalid,
          message: 'createEventHub: every event type needs a non-empty string name.',
        });
      }
      if (this.#types.has(type.name)) {
        throw new ServerError({
          code: ServerErrorCode.ConfigInvalid,
          message: `createEventHub: event type "${type.name}" is declared twice; give each type one definition.`,
        });
      }
      this.#types.set(type.name, type);
    }
    this.#log = new EventLog(options.retain ?? 1000);
    this.#subscriptions = new WebhookSubscriptions(options.webhooks ?? {}, {
      logger: options.logger ?? silentLogger,
      occurrence: (entry) => this.#occurrence(entry),
      belongs: (name, args, entry) => this.#belongs(name, args, entry),
      backlog: (name, args, fromSeq) =>
        this.#log.after(fromSeq, (entry) => this.#belongs(name, args, entry), Number.POSITIVE_INFINITY)
          .entries,
    });
    this.#log.listen((entry) => this.#subscriptions.deliver(entry));
    const subscriptions = this.#subscriptions;
    this.webhooks = {
      policy: options.webhooks ?? {},
      get size() {
        return subscriptions.size;
      },
      subscribe: (request) => this.#subscribe(request),
      unsubscribe: async (request) => {
        this.#check(request.name, 'webhook', request.arguments);
        if (!subscriptions.unsubscribe(request.principal, request.name, request.arguments, request.url)) {
          throw noWebhookSubscriptionError(request.name);
        }
      },
    };
  }

  listEventTypes(): ListedEventType[] {
    return this.list();
  }

  async pollEvents(request: EventRequest & { maxEvents: number }): Promise<EventPollAnswer> {
    this.#check(request.name, 'poll', request.arguments);
    // No cursor: the client starts now, so nothing from before is replayed.
    if (request.cursor === null) {
      return { events: [], cursor: this.headCursor(), truncated: false, hasMore: false };
    }
    return this.read(request.name, request.arguments, request.cursor, request.maxEvents);
  }

  async streamEvents(request: EventRequest, sink: EventStreamSink, signal: AbortSignal): Promise<void> {
    // Every check happens before the stream opens: a bad request is a plain error.
    this.#check(request.name, 'push', request.arguments);
    const { name, arguments: args, cursor } = request;
    const backlog = cursor === null ? undefined : this.read(name, args, cursor, Number.POSITIVE_INFINITY);
    // Replay and listening start in one turn, so nothing emitted in between is lost or repeated.
    sink.active({ cursor: cursor ?? this.headCursor(), truncated: backlog?.truncated ?? false });
    for (const event of backlog?.events ?? []) sink.event(event);
    const stop = this.watch(name, args, (event) => sink.event(event));
    await new Promise<void>((resolve) => {
      if (signal.aborted) resolve();
      else signal.addEventListener('abort', () => resolve(), { once: true });
    });
    stop();
  }

  list(): ListedEventType[] {
    return [...this.#types.values()].map((type) => ({
      name: type.name,
      ...(type.description !== undefined ? { description: type.description } : {}),
      delivery: [...(type.delivery ?? eventDeliveryModes)] as EventDeliveryMode[],
      inputSchema: type.inputSchema ?? { type: 'object' },
      ...(type.payloadSchema !== undefined ? { payloadSchema: type.payloadSchema } : {}),
    }));
  }

  get(name: string): EventTypeDefinition | undefined {
    return this.#types.get(name);
  }

  emit(name: string, data: unknown, options: EmitOptions = {}): EventOccurrence {
    if (!this.#types.has(name)) {
      throw new ServerError({
        code: ServerErrorCode.ConfigInvalid,
        message: `EventHub.emit: "${name}" is not a declared event type; declare it in createEventHub({ types }).`,
      });
    }
    const entry = this.#log.append({
      eventId: options.eventId ?? randomUUID(),
      name,
      timestamp: (options.timestamp ?? new Date()).toISOString(),
      data,
    });
    return this.#occurrence(entry);
  }

  headCursor(): string {
    return encodeEventCursor({ epoch: this.#epoch, seq: this.#log.head });
  }

  read(
    name: string,
    args: Readonly<Record<string, unknown>>,
    cursor: string,
    limit: number,
  ): EventReadResult {
    const position = decodeEventCursor(cursor);
    if (position === undefined) {
      throw new ServerError({
        code: ServerErrorCode.EventCursorInvalid,
        message: `The cursor ${JSON.stringify(cursor.slice(0, 80))} was not issued by this server; poll with cursor null to start from now.`,
      });
    }
    // Another life of the hub (a restart): what it held after the cursor is gone, so read what is
    // kept and say events may be missing.
    const otherLife = position.epoch !== this.#epoch || position.seq > this.#log.head;
    const from = otherLife ? this.#log.oldest - 1 : position.seq;
    const slice = this.#log.after(from, (entry) => this.#belongs(name, args, entry), limit);
    return {
      events: slice.entries.map((entry) => this.#occurrence(entry)),
      cursor: encodeEventCursor({ epoch: this.#epoch, seq: slice.endSeq }),
      truncated: otherLife || slice.truncated,
      hasMore: slice.hasMore,
    };
  }

  watch(
    name: string,
    args: Readonly<Record<string, unknown>>,
    listener: (event: EventOccurrence) => void,
  ): () => void {
    return this.#log.listen((entry) => {
      if (this.#belongs(name, args, entry)) listener(this.#occurrence(entry));
    });
  }

  close(): void {
    this.#subscriptions.close();
  }

  async #subscribe(request: WebhookSubscribeRequest) {
    this.#check(request.name, 'webhook', request.arguments);
    const outcome = await this.#subscriptions.subscribe({
      principal: request.principal,
      name: request.name,
      args: request.arguments,
      url: request.url,
      secret: request.secret,
      ttlMs: request.ttlMs,
      fromSeq: request.cursor === null ? undefined : this.#replayFrom(request.cursor),
    });
    if ('kind' in outcome) throw subscribeRefusalError(outcome);
    return {
      id: outcome.id,
      refreshBefore: new Date(outcome.expiresAt).toISOString(),
      cursor: this.headCursor(),
    };
  }

  /** Where a webhook subscription's `cursor` replays from (a cursor of another life: all retained). */
  #replayFrom(cursor: string): number {
    const position = decodeEventCursor(cursor);
    if (position === undefined) {
      throw new ServerError({
        code: ServerErrorCode.EventCursorInvalid,
        message: `The cursor ${JSON.stringify(cursor.slice(0, 80))} was not issued by this server; subscribe with cursor null to start from now.`,
      });
    }
    return position.epoch === this.#epoch && position.seq <= this.#log.head
      ? position.seq
      : this.#log.oldest - 1;
  }

  /** The type is offered, offers `mode`, and `args` match its `inputSchema`; else a coded error. */
  #check(name: string, mode: EventDeliveryMode, args: Record<string, unknown>): void {
    const type = this.#types.get(name);
    if (type === undefined) {
      throw new ServerError({
        code: ServerErrorCode.EventTypeNotFound,
        message: `No event type "${name}" is offered; call events/list for the offered types.`,
        data: { name },
      });
    }
    const modes = type.delivery ?? eventDeliveryModes;
    if (!modes.includes(mode)) {
      throw new ServerError({
        code: ServerErrorCode.EventDeliveryUnsupported,
        message: `Event type "${name}" is not delivered by ${mode}; it offers ${modes.join(', ')}.`,
        data: { name, mode },
      });
    }
    const checked = this.#validator.validate(
      { name, inputSchema: (type.inputSchema ?? { type: 'object' }) as never },
      args,
    );
    if (!checked.valid) {
      const problems = checked.problems.map((problem) => problem.message).join('; ');
      throw new ServerError({
        code: ServerErrorCode.InvalidParams,
        message: `The arguments do not match the inputSchema of event type "${name}": ${problems}.`,
        data: { name },
      });
    }
  }

  #belongs(name: string, args: Readonly<Record<string, unknown>>, entry: LoggedEvent): boolean {
    if (entry.name !== name) return false;
    const matches = this.#types.get(name)?.matches;
    return matches === undefined || matches(args, entry.data);
  }

  #occurrence(entry: LoggedEvent): EventOccurrence {
    return {
      eventId: entry.eventId,
      name: entry.name,
      timestamp: entry.timestamp,
      data: entry.data,
      cursor: encodeEventCursor({ epoch: this.#epoch, seq: entry.seq }),
    };
  }
}

/** Creates an event hub from its types. */
export function createEventHub(options: EventHubOptions): EventHub {
  return new DefaultEventHub(options);
}
