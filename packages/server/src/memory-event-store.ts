/**
 * An in-memory, bounded `EventStore` for session mode: it lets a client that lost an SSE stream
 * (or whose stream the server closed on purpose, SEP-1699 polling) resume with `Last-Event-ID`.
 */
import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** Creates an event store keeping the last `maxEvents` events. */
export function createMemoryEventStore(maxEvents = 1000): EventStore {
  const events = new Map<string, { streamId: string; message: JSONRPCMessage }>();
  let counter = 0;
  return {
    async storeEvent(streamId, message) {
      counter += 1;
      // The stream id is part of the event id, so a replay can tell which stream to resume.
      const eventId = `${streamId}_${counter}`;
      events.set(eventId, { streamId, message });
      if (events.size > maxEvents) {
        const oldest = events.keys().next().value;
        if (oldest !== undefined) events.delete(oldest);
      }
      return eventId;
    },
    async getStreamIdForEventId(eventId) {
      return events.get(eventId)?.streamId ?? eventId.slice(0, eventId.lastIndexOf('_'));
    },
    async replayEventsAfter(lastEventId, { send }) {
      const streamId =
        events.get(lastEventId)?.streamId ?? lastEventId.slice(0, lastEventId.lastIndexOf('_'));
      let found = false;
      for (const [eventId, event] of events) {
        if (eventId === lastEventId) {
          found = true;
          continue;
        }
        if (!found || event.streamId !== streamId) continue;
        // Priming events carry no message; there is nothing to replay for them.
        if (Object.keys(event.message).length === 0) continue;
        await send(eventId, event.message);
      }
      return streamId;
    },
  };
}
