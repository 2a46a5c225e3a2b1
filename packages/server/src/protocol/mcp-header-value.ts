/**
 * Values of the SEP-2243 headers (`Mcp-Name`, `Mcp-Param-*`): sent literally, or as
 * `=?base64?<RFC 4648 base64 of UTF-8>?=` when not plain visible ASCII. Only a value both starting
 * with the prefix and ending with the suffix is base64; anything else is literal.
 */
const prefix = '=?base64?';
const suffix = '?=';
// Canonical padding required (the spec's examples and the conformance suite's invalid-padding case).
const canonicalBase64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The decoded value of a header; undefined for a malformed base64 value. */
export function decodeMcpHeaderValue(value: string): string | undefined {
  if (
    !(value.length >= prefix.length + suffix.length && value.startsWith(prefix) && value.endsWith(suffix))
  ) {
    return value;
  }
  const encoded = value.slice(prefix.length, value.length - suffix.length);
  if (!canonicalBase64.test(encoded)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(encoded, 'base64'));
  } catch {
    return undefined;
  }
}

/** A primitive argument as a header value compares it (undefined for non-primitives). */
export function headerTextOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}
