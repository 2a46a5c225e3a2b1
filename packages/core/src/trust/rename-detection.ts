/**
 * A removed tool and a new one with the same definition under another name are a rename, not a
 * new tool: naive pinning that keys on the definition alone would take the renamed tool for the
 * approved one, and pinning that keys on the name alone would not say what happened.
 */

import { canonicalJson } from './canonical-json.js';
import { canonicalToolDefinition, type TrustableTool } from './tool-definition-digest.js';

/** A pinned definition no longer listed: its name and canonical text. */
export interface RemovedDefinition {
  name: string;
  definition: string;
}

function withoutName(definition: string): string {
  const parsed = JSON.parse(definition) as Record<string, unknown>;
  parsed.name = '';
  return canonicalJson(parsed);
}

/**
 * For each added tool whose definition, name aside, equals a removed one's: the removed name.
 * Each removed definition is matched at most once.
 */
export function detectRenames(
  removed: readonly RemovedDefinition[],
  added: readonly TrustableTool[],
): Map<string, string> {
  const renames = new Map<string, string>();
  if (removed.length === 0 || added.length === 0) return renames;
  const byBody = new Map<string, string[]>();
  for (const entry of removed) {
    const body = withoutName(entry.definition);
    const names = byBody.get(body);
    if (names === undefined) byBody.set(body, [entry.name]);
    else names.push(entry.name);
  }
  for (const tool of added) {
    const names = byBody.get(canonicalToolDefinition(tool, { name: '' }));
    const previous = names?.shift();
    if (previous !== undefined) renames.set(tool.name, previous);
  }
  return renames;
}
