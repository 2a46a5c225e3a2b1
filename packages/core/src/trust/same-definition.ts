/**
 * The fast test of a re-listing: is a listed tool's model-visible definition the very same as the
 * one reviewed last time? A structural comparison of the two objects costs a fraction of writing
 * the canonical text (sorted keys, string building) that a digest needs, and a server lists the
 * same definitions again far more often than it changes one. Conservative: `false` only sends the
 * tool down the full path (canonical text, then compared), never past a change.
 */
import { sameJsonValue as sameJson } from '../json-equal.js';
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
