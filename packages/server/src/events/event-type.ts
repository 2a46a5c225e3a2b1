/**
 * What an event type is (SEP-3415, `io.modelcontextprotocol/events`): a name a client subscribes to
 * with arguments, the schemas of those arguments and of the payload, the delivery modes offered,
 * and the occurrence shape every mode carries (`{eventId, name, timestamp, data, cursor}`).
 */
import type { JsonSchema } from '@switchboard/core';

/** The extension identifier declared under `capabilities.extensions`. */
export const eventsExtensionId = 'io.modelcontextprotocol/events';

/** How occurrences reach a client: `events/poll`, an `events/stream` request, or signed webhooks. */
export type EventDeliveryMode = 'poll' | 'push' | 'webhook';

/** Every delivery mode, in the order `events/list` names them. */
export const eventDeliveryModes: readonly EventDeliveryMode[] = Object.freeze(['poll', 'push', 'webhook']);

/** One event type a server offers. */
export interface EventTypeDefinition {
  /** The name clients subscribe to (`events/poll`'s `name`). */
  name: string;
  /** What the event means and when it fires (for the model). @default none */
  description?: string;
  /** JSON Schema of the subscription arguments. @default an object with any properties */
  inputSchema?: JsonSchema;
  /** JSON Schema of an occurrence's `data`. @default none */
  payloadSchema?: JsonSchema;
  /** The delivery modes offered for it. @default all three */
  delivery?: readonly EventDeliveryMode[];
  /**
   * Whether an occurrence belongs to a subscription with these arguments (a filter such as "only
   * service X"). @default every occurrence belongs to every subscription
   */
  matches?(args: Readonly<Record<string, unknown>>, data: unknown): boolean;
}

/** One delivered event, as every delivery mode carries it. */
export interface EventOccurrence {
  /** Stable across retries and replays: clients deduplicate on it. */
  eventId: string;
  name: string;
  /** When it happened (ISO 8601). */
  timestamp: string;
  data: unknown;
  /** The position after this event: poll or stream again from here to resume. */
  cursor: string | null;
}

/** An event type as `events/list` lists it. */
export interface ListedEventType {
  name: string;
  description?: string;
  delivery: EventDeliveryMode[];
  inputSchema: JsonSchema;
  payloadSchema?: JsonSchema;
}
