/**
 * Provider-safe names for a list of tools, one per tool. Registry names are unique already, but
 * two can meet after sanitising (`a.b` and `a_b`); the later one then gets a `_2` suffix, so a
 * name the model calls always finds its one tool.
 */
import { type RegisteredTool, sanitizeToolName } from '@switchboard/core';

/** The tools keyed by their provider-safe names, in the tools' order. */
export function toProviderToolNames(tools: readonly RegisteredTool[]): Map<string, RegisteredTool> {
  const named = new Map<string, RegisteredTool>();
  for (const tool of tools) {
    const base = sanitizeToolName(tool.name);
    let name = base;
    for (let suffix = 2; named.has(name); suffix++) name = `${base}_${suffix}`;
    named.set(name, tool);
  }
  return named;
}
