/**
 * An in-memory, bounded event store for 2025 HTTP sessions: it lets a client that lost an SSE
 * stream (or whose stream the server closed on purpose, SEP-1699 polling) resume with
 * `Last-Event-ID`. Event ids carry their stream id and a sequence number, so an evicted event
 * still names its stream, and another replica finds the rest of the stream in the cluster log.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/server';

/** Where a session's events are kept for replay. */
export interface EventStore {
  /** Stores a message of a stream; returns its event id. An empty object is a priming event. */
  storeEvent(streamId: string, message: JSONRPCMessage | Record<string, never>): string;
  /** The stream an event id belongs to (undefined when the id is not one of ours). */
  streamOf(eventId: string): string | undefined;
  /** The messages of the event's stream after it, in order (priming events left out); a shared store answers asynchronously. */
  eventsAfter(eventId: string): StoredEvent[] | Promise<StoredEvent[]>;
}

/** One stored event. */
export interface StoredEvent {
  eventId: string;
  message: JSONRPCMessage;
}

/** The in-memory store: answers at once, and knows which ids it holds. */
export interface MemoryEventStore extends EventStore {
  eventsAfter(eventId: string): StoredEvent[];
  /** Whether the event is held here. */
  knows(eventId: string): boolean;
  /** Takes the next sequence number without storing an event (a stream's end marker). */
  nextSequence(): number;
}

/** Creates an event store keeping the last `maxEvents` events. */
export function createMemoryEventStore(maxEvents = 1000): MemoryEventStore {
  const events = new Map<string, { streamId: string; message: JSONRPCMessage | Record<string, never> }>();
  let counter = 0;
  const streamOf = (eventId: string): string | undefined => {
    const stored = events.get(eventId)?.streamId;
    if (stored !== undefined) return stored;
    const separator = eventId.lastIndexOf('_');
    return separator > 0 ? eventId.slice(0, separator) : undefined;
  };
  return {
    storeEvent(streamId, message) {
      counter += 1;
      const eventId = `${streamId}_${counter}`;
      events.set(eventId, { streamId, message });
      if (events.size > maxEvents) {
        const oldest = events.keys().next().value;
        if (oldest !== undefined) events.delete(oldest);
      }
      return eventId;
    },
    streamOf,
    knows: (eventId) => events.has(eventId),
    nextSequence() {
      counter += 1;
      return counter;
    },
    eventsAfter(eventId) {
      const streamId = streamOf(eventId);
      const after: Array<{ eventId: string; message: JSONRPCMessage }> = [];
      let found = !events.has(eventId);
      for (const [id, event] of events) {
        if (id === eventId) {
          found = true;
          continue;
        }
        if (!found || event.streamId !== streamId || Object.keys(event.message).length === 0) continue;
        after.push({ eventId: id, message: event.message as JSONRPCMessage });
      }
      return after;
    },
  };
}
