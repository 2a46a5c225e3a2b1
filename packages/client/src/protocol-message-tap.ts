/**
 * A copy of every JSON-RPC message a connection sends and receives, for inspectors and protocol
 * logs (`switchboard ui`). Hooked on the transport itself, so it sees both eras whole: the version
 * probe (`server/discover`), `initialize`, the direct lane's tool calls and the SDK's requests.
 * Each message is handed over as a redacted copy (the connection's secrets masked like its logs),
 * never the object in flight, which the SDK and the lane go on using.
 */
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
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

type MessageHandler = NonNullable<Transport['onmessage']>;

/**
 * Makes `transport` tell `listener` of every message: `send` is wrapped, and `onmessage` becomes
 * an accessor whose setter wraps whatever handler the SDK (or the direct lane, which chains the
 * SDK's handler) assigns. A handler chained behind another wrapped one sees the same message
 * object again: the set of messages already received keeps each message to one event.
 */
export function tapProtocolMessages(
  transport: Transport,
  listener: ProtocolMessageListener,
  redactor: Redactor,
): void {
  const received = new WeakSet<object>();
  const tell = (direction: ProtocolMessageEvent['direction'], message: JSONRPCMessage): void => {
    try {
      listener({ direction, message: redactedCopy(message, redactor) });
    } catch {
      // The listener's problem, not the connection's.
    }
  };

  const send = transport.send;
  transport.send = function sendTapped(message, options) {
    tell('out', message);
    return send.call(this, message, options);
  };

  let wrapped: MessageHandler | undefined;
  const wrap = (handler: Transport['onmessage']): MessageHandler | undefined =>
    handler === undefined
      ? undefined
      : function receiveTapped(this: unknown, message, extra) {
          if (!received.has(message)) {
            received.add(message);
            tell('in', message);
          }
          return handler.call(this, message, extra);
        };
  wrapped = wrap(transport.onmessage);
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    enumerable: true,
    get: () => wrapped,
    set: (handler: Transport['onmessage']) => {
      wrapped = wrap(handler);
    },
  });
}

/**
 * The message as JSON would carry it, every string (values and keys) redacted. Through JSON
 * because that is what went on the wire: `toJSON`, dropped `undefined`s and the symbol-keyed marks
 * the client puts on `_meta` come out as the server saw them.
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
