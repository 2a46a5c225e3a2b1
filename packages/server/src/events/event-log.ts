/**
 * The retained occurrences of an event hub, oldest first, numbered from 1: what polls and streams
 * replay from a cursor. Bounded by count; what falls off the front makes a cursor before it
 * `truncated`. Listeners hear every appended entry synchronously, so a reader that replays and then
 * listens in one turn misses nothing and sees nothing twice.
 */

/** One retained occurrence, before its cursor is written. */
export interface LoggedEvent {
  seq: number;
  eventId: string;
  name: string;
  timestamp: string;
  data: unknown;
}

/** What {@link EventLog.after} found. */
export interface LogSlice {
  entries: LoggedEvent[];
  /** Events after the position were dropped before they could be read. */
  truncated: boolean;
  /** The position the slice ends at (the last entry examined). */
  endSeq: number;
  /** More entries match after `endSeq` (the slice stopped at its limit). */
  hasMore: boolean;
}

/** A bounded, numbered log of occurrences. */
export class EventLog {
  readonly #retain: number;
  readonly #entries: LoggedEvent[] = [];
  readonly #listeners = new Set<(entry: LoggedEvent) => void>();
  #head = 0;

  constructor(retain: number) {
    this.#retain = retain;
  }

  /** The number of the newest event (0 before any). */
  get head(): number {
    return this.#head;
  }

  /** The number of the oldest retained event (`head + 1` when none is retained). */
  get oldest(): number {
    return this.#entries[0]?.seq ?? this.#head + 1;
  }

  append(event: Omit<LoggedEvent, 'seq'>): LoggedEvent {
    const entry = { ...event, seq: ++this.#head };
    this.#entries.push(entry);
    if (this.#entries.length > this.#retain) this.#entries.shift();
    for (const listener of this.#listeners) listener(entry);
    return entry;
  }

  /** The entries after `seq` that `accept` keeps, at most `limit`. */
  after(seq: number, accept: (entry: LoggedEvent) => boolean, limit: number): LogSlice {
    const truncated = seq + 1 < this.oldest;
    const entries: LoggedEvent[] = [];
    let endSeq = Math.max(seq, this.#head);
    let hasMore = false;
    for (const entry of this.#entries) {
      if (entry.seq <= seq || !accept(entry)) continue;
      if (entries.length === limit) {
        hasMore = true;
        endSeq = entries[entries.length - 1]?.seq ?? seq;
        break;
      }
      entries.push(entry);
    }
    return { entries, truncated, endSeq, hasMore };
  }

  /** Calls `listener` with every entry appended from now on; returns the stop function. */
  listen(listener: (entry: LoggedEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
