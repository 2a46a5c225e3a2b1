/**
 * The opaque cursor of an event hub: `sbe1.<epoch>.<seq>`, the position after event number `seq` of
 * one hub's life (`epoch`, random per process). A cursor of another life cannot be continued from
 * exactly (its events are gone), so the hub answers it from its oldest retained event with
 * `truncated: true` rather than refusing it.
 */

/** A decoded cursor. */
export interface EventCursor {
  epoch: string;
  seq: number;
}

const prefix = 'sbe1.';

/** The cursor after event `seq` of the hub life `epoch`. */
export function encodeEventCursor(cursor: EventCursor): string {
  return `${prefix}${cursor.epoch}.${cursor.seq}`;
}

/** The position a cursor names, or undefined when it is not one of ours. */
export function decodeEventCursor(text: string): EventCursor | undefined {
  if (!text.startsWith(prefix)) return undefined;
  const [epoch, seqText, ...rest] = text.slice(prefix.length).split('.');
  if (epoch === undefined || epoch === '' || seqText === undefined || rest.length > 0) return undefined;
  const seq = Number(seqText);
  return Number.isSafeInteger(seq) && seq >= 0 ? { epoch, seq } : undefined;
}
