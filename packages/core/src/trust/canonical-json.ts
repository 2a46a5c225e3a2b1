/**
 * Canonical JSON (the shape of RFC 8785, JCS): object members sorted by their keys' UTF-16 code
 * units, no whitespace, numbers and strings as `JSON.stringify` writes them (which is what JCS
 * asks for), `undefined` and functions left out. Two structurally equal values give the same
 * text whatever their key order, so the text can be compared, hashed and stored.
 */

/** The canonical JSON text of `value` (a cycle is written as the string `"[Circular]"`). */
export function canonicalJson(value: unknown): string {
  return write(value, undefined);
}

function write(value: unknown, seen: Set<object> | undefined): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null || typeof value !== 'object') {
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return 'null';
    if (typeof value === 'bigint') return value.toString();
    return JSON.stringify(value) ?? 'null';
  }
  // Only objects inside objects can form a cycle, so the set is made on the first nesting.
  const path = seen ?? new Set<object>();
  if (path.has(value)) return '"[Circular]"';
  path.add(value);
  let text: string;
  if (Array.isArray(value)) {
    text = '[';
    for (let index = 0; index < value.length; index++) {
      if (index > 0) text += ',';
      text += write(value[index], path);
    }
    text += ']';
  } else {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort();
    text = '{';
    let first = true;
    for (const key of keys) {
      const item = record[key];
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
      if (!first) text += ',';
      first = false;
      text += `${JSON.stringify(key)}:${write(item, path)}`;
    }
    text += '}';
  }
  path.delete(value);
  return text;
}
