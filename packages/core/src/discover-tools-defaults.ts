/**
 * The defaults of the `discover_tools` meta-tool, in one table for its two builders, which cannot
 * share code: tool-selection's `createDiscoverToolsTool` (returns what it finds) and the gateway's
 * selector mode in the server (exposes what it finds). Each package depends on core, neither on
 * the other, so the table lives here.
 */

/** The defaults of every `discover_tools` tool. */
export const discoverToolsDefaults = Object.freeze({
  /** The tool's name, also its public name (never namespaced), and the selector's default `alwaysInclude`. */
  name: 'discover_tools',
  /**
   * Tools found when the caller gives no `limit`: the number `ToolSelector.select` returns by
   * default and the framework adapters offer per turn, so one discovery is one more selection.
   */
  limit: 8,
  /** Largest `limit` a caller may ask for: it bounds the schemas one result puts in a model's context. */
  maxLimit: 50,
} as const);
