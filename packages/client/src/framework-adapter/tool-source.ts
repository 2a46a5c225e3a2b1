/**
 * Where a framework adapter takes its tools from: a `connectMcp` connection (or `loadMcpTools`
 * result), a registry, a list of registered tools, or a tool selection. A connection or registry
 * is read anew on each call, so the adapters follow `list_changed` and servers added at run time.
 */

import { discoverToolsDefaults, isModelFacing, type RegisteredTool } from '@switchboard/core';

/**
 * Tools an adapter offers: a connection (its servers' tools), a registry (every tool in it, local
 * ones such as `discover_tools` included: `connection.registry`), a list, or a selection.
 */
export type ToolSource =
  | { readonly tools: Readonly<Record<string, RegisteredTool>> }
  | { list(): RegisteredTool[] }
  | readonly RegisteredTool[]
  | readonly { readonly tool: RegisteredTool }[];

/**
 * Picks the tools relevant to a request (`createToolSelector` of `@switchboard/tool-selection`
 * fits: the client cannot import it, since tool selection sits beside the client, not under it).
 */
export interface ToolSelectorLike {
  select(
    query: string,
    options?: { k?: number; signal?: AbortSignal },
  ): Promise<ReadonlyArray<{ readonly tool: RegisteredTool }>>;
}

/** Per-turn tool selection of an adapter. */
export interface AdapterSelectOptions {
  selector: ToolSelectorLike;
  /** Tools offered per turn besides `alwaysInclude`. @default 8 */
  k?: number;
  /** Public names offered on every turn (when the source has them). @default ['discover_tools'] */
  alwaysInclude?: readonly string[];
}

/** Options every adapter takes about which tools it offers. */
export interface ToolSourceOptions {
  /** Offer tools whose approval policy says `deny` (they refuse every call). @default false: left out, so they cost no tokens */
  includeDenied?: boolean;
}

function isSelection(source: readonly unknown[]): source is readonly { readonly tool: RegisteredTool }[] {
  const first = source[0] as { tool?: unknown; name?: unknown } | undefined;
  return (
    first !== undefined && typeof first.tool === 'object' && first.tool !== null && !('inputSchema' in first)
  );
}

/**
 * The runnable tools of a source a model may be offered now, in its order: a tool no model may
 * see (an MCP App's own helper, `visibility: ["app"]`; core's `isModelFacing`) is never among them.
 */
export function toolsOf(source: ToolSource, options: ToolSourceOptions = {}): RegisteredTool[] {
  let tools: RegisteredTool[];
  if (Array.isArray(source)) {
    tools = isSelection(source)
      ? source.map((entry) => entry.tool)
      : [...(source as readonly RegisteredTool[])];
  } else if (typeof (source as { list?: unknown }).list === 'function') {
    tools = (source as { list(): RegisteredTool[] }).list();
  } else {
    tools = Object.values((source as { tools: Record<string, RegisteredTool> }).tools);
  }
  return tools.filter(
    (tool) =>
      tool.execute !== undefined &&
      isModelFacing(tool) &&
      (options.includeDenied === true || tool.approval?.().decision !== 'deny'),
  );
}

/** Picks this turn's tools: the selector's best `k` for `query`, plus `alwaysInclude`, in the source's names. */
export async function selectTools(
  available: readonly RegisteredTool[],
  query: string,
  select: AdapterSelectOptions,
  signal?: AbortSignal,
): Promise<RegisteredTool[]> {
  const byName = new Map(available.map((tool) => [tool.name, tool]));
  const chosen = new Map<string, RegisteredTool>();
  if (query.trim() !== '') {
    const selected = await select.selector.select(query, {
      k: select.k ?? 8,
      ...(signal === undefined ? {} : { signal }),
    });
    for (const { tool } of selected) {
      const own = byName.get(tool.name);
      if (own !== undefined) chosen.set(own.name, own);
    }
  }
  for (const name of select.alwaysInclude ?? [discoverToolsDefaults.name]) {
    const tool = byName.get(name);
    if (tool !== undefined) chosen.set(name, tool);
  }
  return [...chosen.values()];
}
