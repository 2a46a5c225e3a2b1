/**
 * `discover_tools`: the gateway's one tool in selector mode. It finds tools for a task among every
 * upstream (with the selector), exposes them (the client gets `list_changed`), keeps the exposed
 * set bounded, and reports what it found — only tools the gateway will serve. Its name, default
 * and largest `limit` are core's `discoverToolsDefaults`, as tool-selection's `discover_tools` has.
 */
import {
  discoverToolsDefaults,
  isModelFacing,
  perStepSearchGuidance,
  type RegisteredTool,
  type ToolInput,
  type ToolRegistry,
  toolSearchQueryDescription,
} from '@switchboard/core';

/** A tool selector (e.g. `createToolSelector` of @switchboard/tool-selection). */
export interface GatewayToolSelector {
  select(query: string, options?: { k?: number }): Promise<Array<{ name: string; score?: number }>>;
}

/** What `discover_tools` works with. */
export interface DiscoverToolOptions {
  selector: GatewayToolSelector;
  upstream: ToolRegistry;
  /** Upstream tools exposed so far (insertion order: oldest first). */
  exposed: Map<string, RegisteredTool>;
  expose(tool: RegisteredTool): void;
  served: ToolRegistry;
  isServed(tool: RegisteredTool): boolean;
  /** Tools found when the caller gives no `limit`. */
  limit: number;
  maxExposed: number;
}

/** The `discover_tools` registry record. */
export function createDiscoverTool(options: DiscoverToolOptions): ToolInput {
  const { selector, upstream, exposed, served, limit, maxExposed } = options;
  const { name, maxLimit } = discoverToolsDefaults;
  return {
    server: 'gateway',
    name,
    publicName: name,
    description: `Finds the tools for one step of your task among every connected MCP server and makes them callable: the matching tools are returned and added to your tool list. ${perStepSearchGuidance}`,
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: toolSearchQueryDescription },
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: maxLimit,
          description: `How many tools (default ${limit}).`,
        },
      },
      required: ['query'],
    },
    annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
    execute: async (args) => {
      const query = String(args.query);
      const k = typeof args.limit === 'number' ? args.limit : limit;
      const hits = (await selector.select(query, { k })).filter((hit) => hit.name !== name);
      const found: Array<{ name: string; description: string; inputSchema: unknown }> = [];
      for (const hit of hits) {
        const tool = upstream.get(hit.name);
        // A tool the gateway will not serve (it needs a person's approval), or one no model may
        // see (an MCP App's own helper, callable by its app all the same), is not "found".
        if (tool === undefined || !isModelFacing(tool) || !options.isServed(tool)) continue;
        if (!exposed.has(tool.name)) options.expose(tool);
        found.push({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema });
      }
      // Keep the exposed set bounded: the oldest discoveries go first.
      while (exposed.size > maxExposed) {
        const oldest = exposed.keys().next().value as string;
        exposed.delete(oldest);
        served.unregister(oldest);
      }
      return {
        content: [
          {
            type: 'text',
            text: found.length
              ? `Found ${found.length} tool(s); they are now in your tool list:\n${JSON.stringify(found, null, 2)}`
              : `No tool matches "${query}". Try other words for this step, or go on without a tool.`,
          },
        ],
        structuredContent: { tools: found },
      };
    },
  };
}
