/**
 * The fast test of a re-listing: is a listed tool's model-visible definition the very same as the
 * one reviewed last time? A structural comparison of the two objects costs a fraction of writing
 * the canonical text (sorted keys, string building) that a digest needs, and a server lists the
 * same definitions again far more often than it changes one. Conservative: `false` only sends the
 * tool down the full path (canonical text, then compared), never past a change.
 */
import type { TrustableTool } from './tool-definition-digest.js';

/** True when the model-visible parts of `a` and `b` are structurally equal. */
export function sameModelVisibleDefinition(a: TrustableTool, b: TrustableTool): boolean {
  return (
    a.name === b.name &&
    a.title === b.title &&
    a.description === b.description &&
    sameJson(a.inputSchema, b.inputSchema) &&
    sameJson(a.outputSchema, b.outputSchema) &&
    sameJson(a.annotations, b.annotations) &&
    sameJson(a._meta?.ui, b._meta?.ui)
  );
}

/**
 * Structural equality of two JSON values (same keys, same values; key order ignored). Keys are
 * read with `Object.keys`, and a key at the same index on both sides needs no presence lookup (a
 * server writes its schemas in one order): 1.3× faster than `for…in` with `Object.hasOwn` on the
 * 1,000 catalogue tools of `bench:trust`.
 */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index++) if (!sameJson(a[index], b[index])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const leftKeys = Object.keys(left);
  const rightKeys = Object.keys(right);
  if (leftKeys.length !== rightKeys.length) return false;
  for (let index = 0; index < leftKeys.length; index++) {
    const key = leftKeys[index] as string;
    if (rightKeys[index] !== key && !Object.hasOwn(right, key)) return false;
    if (!sameJson(left[key], right[key])) return false;
  }
  return true;
}
