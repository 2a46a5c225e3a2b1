/**
 * JSON-RPC framing shared by the transports that read raw text (stdio lines, WebSocket frames, HTTP
 * bodies): a cheap check of a message's or a batch's shape, parsing that never throws, and the
 * bounded excerpt by which errors quote a bad message, so a huge body never floods a log.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/client';

/** Longest excerpt of a bad message quoted in an error. */
const excerptLength = 200;

/** Shortens text for quoting in an error message. */
export function excerpt(text: string, length = excerptLength): string {
  return text.length > length ? `${text.slice(0, length)}… (${text.length} characters)` : text;
}

/**
 * A cheap structural check instead of a full schema validation: the SDK's `Protocol` looks at
 * every message again anyway, so validating here would parse each message twice.
 */
export function isJsonRpcMessage(value: unknown): value is JSONRPCMessage {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  return (
    record.jsonrpc === '2.0' && (typeof record.method === 'string' || 'result' in record || 'error' in record)
  );
}

/** The messages in a parsed JSON value: a message or a batch (array) of them; undefined when any is malformed. */
export function toJsonRpcMessages(value: unknown): JSONRPCMessage[] | undefined {
  if (Array.isArray(value)) return value.every(isJsonRpcMessage) ? value : undefined;
  return isJsonRpcMessage(value) ? [value] : undefined;
}

/** Parses one line or frame of text into JSON-RPC messages; undefined when it is not JSON or not JSON-RPC. */
export function parseJsonRpcMessages(text: string): JSONRPCMessage[] | undefined {
  try {
    return toJsonRpcMessages(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/** The text of a `ws` message event (a Buffer, an ArrayBuffer or a fragmented Buffer list). */
export function webSocketFrameText(data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean): string {
  return isBinary || !Array.isArray(data) ? data.toString() : Buffer.concat(data).toString();
}
