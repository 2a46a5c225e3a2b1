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
import {
  type EventDeliveryMode,
  type EventOccurrence,
  type EventTypeDefinition,
  eventDeliveryModes,
  type ListedEventType,
} from './event-type.js';
import { type WebhookOptions, WebhookSubscriptions } from './webhook-subscriptions.js';

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

/** The event types of a server and the occurrences it emits. */
export interface EventHub {
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
  readonly webhooks: WebhookSubscriptions;
  /** Checks subscription arguments against the type's `inputSchema`; a problem list, empty when valid. */
  checkArguments(name: string, args: unknown): string[];
  /** Stops webhook deliveries. */
  close(): void;
}

class DefaultEventHub implements EventHub {
  readonly webhooks: WebhookSubscriptions;
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
    this.webhooks = new WebhookSubscriptions(options.webhooks ?? {}, {
      logger: options.logger ?? silentLogger,
      occurrence: (entry) => this.#occurrence(entry),
      belongs: (name, args, entry) => this.#belongs(name, args, entry),
      backlog: (name, args, fromSeq) =>
        this.#log.after(fromSeq, (entry) => this.#belongs(name, args, entry), Number.POSITIVE_INFINITY)
          .entries,
    });
    this.#log.listen((entry) => this.webhooks.deliver(entry));
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
    // Another life of the hub (a restart): everything it numbered is gone, so read what is kept.
    const otherLife = position.epoch !== this.#epoch || position.seq > this.#log.head;
    const from = otherLife ? this.#log.oldest - 1 : position.seq;
    const slice = this.#log.after(from, (entry) => this.#belongs(name, args, entry), limit);
    return {
      events: slice.entries.map((entry) => this.#occurrence(entry)),
      cursor: encodeEventCursor({ epoch: this.#epoch, seq: slice.endSeq }),
      truncated: otherLife ? position.seq > 0 || this.#log.oldest > 1 : slice.truncated,
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

  checkArguments(name: string, args: unknown): string[] {
    const type = this.#types.get(name);
    if (type === undefined) return [`"${name}" is not an offered event type`];
    const checked = this.#validator.validate(
      { name, inputSchema: (type.inputSchema ?? { type: 'object' }) as never },
      args ?? {},
    );
    return checked.valid
      ? []
      : checked.problems.map((problem) => `${problem.path || '(root)'}: ${problem.message}`);
  }

  close(): void {
    this.webhooks.close();
  }

  /** The position of a decoded cursor, for webhook replay (undefined: not ours, or "from now"). */
  seqOf(cursor: string): number | undefined {
    const position = decodeEventCursor(cursor);
    if (position === undefined) return undefined;
    return position.epoch === this.#epoch && position.seq <= this.#log.head
      ? position.seq
      : this.#log.oldest - 1;
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

/** The position a webhook subscription's `cursor` asks to replay from (undefined: from now). */
export function replayPosition(hub: EventHub, cursor: unknown): number | undefined {
  if (typeof cursor !== 'string' || !(hub instanceof DefaultEventHub)) return undefined;
  return hub.seqOf(cursor);
}

/** Creates an event hub from its types. */
export function createEventHub(options: EventHubOptions): EventHub {
  return new DefaultEventHub(options);
}
