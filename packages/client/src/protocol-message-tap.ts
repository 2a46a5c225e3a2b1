/**
 * A copy of every JSON-RPC message a connection sends and receives, for inspectors and protocol
 * logs (`switchboard ui`). The connection's request engine tells the tap of each message as it
 * leaves or arrives, so it sees both eras whole: the version probe (`server/discover`),
 * `initialize`, every call and every answer. Each message is handed over as a redacted copy (the
 * connection's secrets masked like its logs), never the object in flight.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import type { Redactor } from './redactor.js';

/** One message on the wire of a connection, already redacted. */
export interface ProtocolMessageEvent {
  /** `out`: this client → the server; `in`: the server → this client. */
  direction: 'in' | 'out';
  /** A redacted copy of the message (secrets replaced by `[REDACTED]`). */
  message: JSONRPCMessage;
}

/** Receives the messages of one connection. What it throws is ignored: a tap never breaks a connection. */
export type ProtocolMessageListener = (event: ProtocolMessageEvent) => void;

/** What the request engine calls for each message: `listener` gets a redacted copy. */
export function createProtocolTap(
  listener: ProtocolMessageListener,
  redactor: Redactor,
): (direction: ProtocolMessageEvent['direction'], message: JSONRPCMessage) => void {
  return (direction, message) => {
    try {
      listener({ direction, message: redactedCopy(message, redactor) });
    } catch {
      // The listener's problem, not the connection's.
    }
  };
}

/**
 * The message as JSON would carry it, every string (values and keys) redacted. Through JSON
 * because that is what went on the wire: `toJSON` and dropped `undefined`s come out as the server
 * saw them.
 */
function redactedCopy(message: JSONRPCMessage, redactor: Redactor): JSONRPCMessage {
  const text = JSON.stringify(message, (_key, value: unknown) => {
    if (typeof value === 'string') return redactor.redact(value);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    const record = value as Record<string, unknown>;
    if (Object.keys(record).every((key) => redactor.redact(key) === key)) return value;
    return Object.fromEntries(Object.entries(record).map(([key, item]) => [redactor.redact(key), item]));
  });
  return JSON.parse(text) as JSONRPCMessage;
}
