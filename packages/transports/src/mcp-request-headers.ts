/**
 * The HTTP headers a 2026-07-28 (modern) request carries besides its body: `MCP-Protocol-Version`,
 * `Mcp-Method` and `Mcp-Name` (streamable-http "Request Metadata"), with the spec's value encoding.
 * Legacy (2025-era) messages carry no `_meta` envelope and get none of them from here, so their
 * bytes stay what a 2025 client sends.
 */
import { type JSONRPCMessage, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/client';
import { mcpNameFieldOf } from '@switchboard/core';

const base64Prefix = '=?base64?';
const base64Suffix = '?=';

/** True when `value` can go into a header as is: visible ASCII, inner spaces/tabs, no edge whitespace. */
function isPlainHeaderValue(value: string): boolean {
  if (value.startsWith(base64Prefix) && value.endsWith(base64Suffix)) return false;
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    const inner = code === 0x20 || code === 0x09;
    if (inner ? index === 0 || index === value.length - 1 : code < 0x21 || code > 0x7e) return false;
  }
  return true;
}

/**
 * A value fit for `Mcp-Name` or `Mcp-Param-{Name}`: unchanged when it is a safe plain-ASCII field
 * value, otherwise `=?base64?{UTF-8 as Base64}?=` (also for plain values that look like the sentinel).
 */
export function encodeMcpHeaderValue(value: string): string {
  return isPlainHeaderValue(value)
    ? value
    : `${base64Prefix}${Buffer.from(value, 'utf8').toString('base64')}${base64Suffix}`;
}

/** The protocol version a message's `_meta` envelope declares; undefined for legacy messages. */
export function envelopeProtocolVersion(message: JSONRPCMessage): string | undefined {
  if (!('method' in message)) return undefined;
  const meta = (message.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
  const version = meta?.[PROTOCOL_VERSION_META_KEY];
  return typeof version === 'string' ? version : undefined;
}

/**
 * Adds the standard headers of a modern message to `headers` (lower-case names): the version its
 * envelope declares (or `connectionVersion` for a message without one, once a modern era was
 * negotiated), `Mcp-Method`, and `Mcp-Name` where the method has a name source.
 */
export function addStandardRequestHeaders(
  headers: Record<string, string>,
  message: JSONRPCMessage,
  connectionVersion: string | undefined,
): void {
  if (!('method' in message)) {
    if (connectionVersion !== undefined) headers['mcp-protocol-version'] = connectionVersion;
    return;
  }
  const declared = envelopeProtocolVersion(message);
  const version = declared ?? connectionVersion;
  if (version !== undefined) headers['mcp-protocol-version'] = version;
  // Mcp-Method and Mcp-Name are 2026-07-28 vocabulary: only enveloped (modern) messages get them.
  if (declared === undefined) return;
  headers['mcp-method'] = message.method;
  const field = mcpNameFieldOf(message.method);
  if (field === undefined) return;
  const value = (message.params as Record<string, unknown> | undefined)?.[field];
  if (typeof value === 'string') headers['mcp-name'] = encodeMcpHeaderValue(value);
}

/** Header names a caller's per-message `headers` may not set: the transport derives them. */
export const reservedRequestHeaders: ReadonlySet<string> = new Set([
  'authorization',
  'content-type',
  'content-length',
  'accept',
  'mcp-protocol-version',
  'mcp-method',
  'mcp-name',
  'mcp-session-id',
  'last-event-id',
]);
