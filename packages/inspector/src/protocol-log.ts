/**
 * The protocol log of `switchboard ui`: the last N JSON-RPC messages of every server, in a ring
 * buffer (memory stays bounded however long the page stays open), each classified and — for
 * responses — named after the method of the request it answers. New entries reach listeners in
 * batches: a chatty server (progress every few ms) costs one live event per batch, not per message.
 */
import type { ProtocolMessageEvent } from '@switchboard/client';
import type { UiLogEntry } from './ui-api.js';

/** Options of {@link createProtocolLog}. */
export interface ProtocolLogOptions {
  /** Entries kept; older ones are dropped. @default 20000 */
  capacity?: number;
  /** How long new entries gather before listeners hear of them. @default 50 */
  batchMs?: number;
  /** Applied to each message before it is kept (the session's redaction). @default none */
  redact?: <T>(value: T) => T;
}

/** The log. */
export interface ProtocolLog {
  /**
   * Records one message of `server` (`channel: 'app'`: between an MCP App of that server rendered
   * in the page and this process, `in` being the app's).
   */
  append(server: string, event: ProtocolMessageEvent, channel?: 'app'): UiLogEntry;
  /** Entries after `since` (a `seq`), of one server or all, oldest first; at most `limit` (the newest). */
  entries(filter?: { server?: string; since?: number; limit?: number }): UiLogEntry[];
  /** Hears of new entries, a batch at a time. Returns the unsubscribe function. */
  subscribe(listener: (entries: UiLogEntry[]) => void): () => void;
  /** Entries kept now. */
  readonly size: number;
  /** Delivers the batch waiting, if any, and stops the timer. */
  flush(): void;
}

type JsonRpcFields = { id?: string | number; method?: string; result?: unknown; error?: unknown };

/** Requests whose answer has not been seen are forgotten beyond this many (a server that never answers). */
const maxOpenRequests = 10_000;

/** Creates a protocol log. */
export function createProtocolLog(options: ProtocolLogOptions = {}): ProtocolLog {
  const capacity = options.capacity ?? 20_000;
  const batchMs = options.batchMs ?? 50;
  const redact = options.redact ?? (<T>(value: T) => value);
  const ring: Array<UiLogEntry | undefined> = new Array(capacity);
  let next = 0;
  let size = 0;
  let seq = 0;
  // The method of each request awaiting its answer, by server, direction and id.
  const openRequests = new Map<string, string>();
  const listeners = new Set<(entries: UiLogEntry[]) => void>();
  let batch: UiLogEntry[] = [];
  let timer: NodeJS.Timeout | undefined;

  const deliver = () => {
    timer = undefined;
    if (batch.length === 0) return;
    const entries = batch;
    batch = [];
    for (const listener of listeners) listener(entries);
  };

  const keyOf = (server: string, direction: string, id: string | number, channel: string) =>
    `${server}\u0000${channel}\u0000${direction}\u0000${typeof id}:${id}`;

  const classify = (
    server: string,
    event: ProtocolMessageEvent,
    channel: 'app' | undefined,
  ): Omit<UiLogEntry, 'seq' | 'at' | 'message'> => {
    const message = event.message as JsonRpcFields;
    const base = { server, direction: event.direction, ...(channel === undefined ? {} : { channel }) };
    const lane = channel ?? 'server';
    if (typeof message.method === 'string') {
      if (message.id === undefined) return { ...base, type: 'notification', method: message.method };
      openRequests.set(keyOf(server, event.direction, message.id, lane), message.method);
      if (openRequests.size > maxOpenRequests)
        openRequests.delete(openRequests.keys().next().value as string);
      return { ...base, type: 'request', method: message.method, id: message.id };
    }
    // An answer travels the other way from its request.
    const requestDirection = event.direction === 'in' ? 'out' : 'in';
    const id = message.id;
    let method: string | undefined;
    if (id !== undefined && id !== null) {
      const key = keyOf(server, requestDirection, id, lane);
      method = openRequests.get(key);
      openRequests.delete(key);
    }
    return {
      ...base,
      type: message.error !== undefined ? 'error' : 'response',
      ...(method === undefined ? {} : { method }),
      ...(id === undefined || id === null ? {} : { id }),
    };
  };

  return {
    append(server, event, channel) {
      const entry: UiLogEntry = {
        seq: ++seq,
        at: new Date().toISOString(),
        ...classify(server, event, channel),
        message: redact(event.message),
      };
      ring[next] = entry;
      next = (next + 1) % capacity;
      size = Math.min(size + 1, capacity);
      if (listeners.size > 0) {
        batch.push(entry);
        timer ??= setTimeout(deliver, batchMs);
        timer.unref?.();
      }
      return entry;
    },
    entries(filter = {}) {
      const since = filter.since ?? 0;
      const found: UiLogEntry[] = [];
      const start = (next - size + capacity) % capacity;
      for (let offset = 0; offset < size; offset++) {
        const entry = ring[(start + offset) % capacity] as UiLogEntry;
        if (entry.seq <= since) continue;
        if (filter.server !== undefined && entry.server !== filter.server) continue;
        found.push(entry);
      }
      return filter.limit !== undefined && found.length > filter.limit
        ? found.slice(found.length - filter.limit)
        : found;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    get size() {
      return size;
    },
    flush() {
      if (timer) clearTimeout(timer);
      deliver();
    },
  };
}
