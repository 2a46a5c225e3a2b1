/**
 * The `discover_tools` meta-tool: lets a model search for a tool that was not selected for it.
 * Its shape is core's tool input (`name`, `server`, `description`, `inputSchema`, `execute`), so it
 * registers as is in a registry, a server, a gateway or an agent. Its defaults are core's
 * `discoverToolsDefaults`, which the gateway's own `discover_tools` (server) uses too.
 */
import type { JsonSchema, ToolAnnotations } from '@switchboard/core';
import {
  discoverToolsDefaults,
  perStepSearchGuidance,
  SwitchboardError,
  toolSearchDefaults,
  toolSearchQueryDescription,
} from '@switchboard/core';
import type { ToolSelector } from './tool-selector.js';

/** Options of {@link createDiscoverToolsTool}. */
export interface DiscoverToolsToolOptions {
  /** Tool name (used as the public name, not namespaced). @default 'discover_tools' */
  name?: string;
  /** Server (group) the tool is registered under. @default 'switchboard' */
  server?: string;
  /** Tools returned when the caller gives no `limit`. @default 8 (core's `discoverToolsDefaults.limit`) */
  defaultLimit?: number;
  /** Largest `limit` accepted. @default 50 (core's `discoverToolsDefaults.maxLimit`) */
  maxLimit?: number;
  /** Include each tool's input schema. @default true */
  includeSchemas?: boolean;
  /** Tool description shown to the model. @default one that asks for one search per step */
  description?: string;
  /**
   * Find no tool when the most similar tool's cosine similarity is below this (the selector's
   * `minSimilarity`): the answer says that nothing fits instead of listing the least bad tools.
   * Core's `toolSearchDefaults.minSimilarity` is the value chosen on BFCL's no-tool queries.
   * @default off
   */
  minSimilarity?: number;
  /**
   * With `minSimilarity`: find nothing only when, besides, no tool shares a word with the request
   * (the selector's `unlessWordsMatch`). @default true (core's `toolSearchDefaults.unlessWordsMatch`)
   */
  unlessWordsMatch?: boolean;
}

/** What a result tells the model to do next, besides calling a tool it found. */
const searchAgainHint =
  'If these tools do not cover the step, search again with other words; search separately for each other step.';

/** One tool found by `discover_tools`. */
export interface DiscoveredTool {
  name: string;
  description: string;
  inputSchema?: JsonSchema;
  server: string;
  score: number;
}

/** The result of a `discover_tools` call, as an MCP `CallToolResult`. */
export interface DiscoverToolsResult {
  content: Array<{ type: 'text'; text: string }>;
  structuredContent: { tools: DiscoveredTool[] };
  isError?: boolean;
  [key: string]: unknown;
}

/** The `discover_tools` tool: an MCP tool definition plus `execute`. */
export interface DiscoverToolsTool {
  name: string;
  /** Same as `name`: keeps the registry from namespacing it. */
  publicName: string;
  server: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  annotations: ToolAnnotations;
  execute(args: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<DiscoverToolsResult>;
}

/** Creates the `discover_tools` meta-tool over `selector`. */
export function createDiscoverToolsTool(
  selector: ToolSelector,
  options: DiscoverToolsToolOptions = {},
): DiscoverToolsTool {
  const name = options.name ?? discoverToolsDefaults.name;
  const defaultLimit = options.defaultLimit ?? discoverToolsDefaults.limit;
  const maxLimit = options.maxLimit ?? discoverToolsDefaults.maxLimit;
  const includeSchemas = options.includeSchemas ?? true;
  return {
    name,
    publicName: name,
    server: options.server ?? 'switchboard',
    description:
      options.description ??
      `Search all available tools for one step of your task. Returns the names, servers, descriptions and input schemas of the best matches; call a returned tool by its name. ${perStepSearchGuidance}`,
    inputSchema: {
      type: 'object',
      properties: {
        query: {
          type: 'string',
          minLength: 1,
          description: toolSearchQueryDescription,
        },
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: maxLimit,
          description: `How many tools to return (default ${defaultLimit}).`,
        },
      },
      required: ['query'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        tools: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              name: { type: 'string' },
              description: { type: 'string' },
              inputSchema: { type: 'object' },
              server: { type: 'string' },
              score: { type: 'number' },
            },
            required: ['name', 'description', 'server', 'score'],
          },
        },
      },
      required: ['tools'],
    },
    annotations: { title: 'Discover tools', readOnlyHint: true, openWorldHint: false },
    async execute(args, executeOptions = {}) {
      const query = args.query;
      if (typeof query !== 'string' || query.trim().length === 0) {
        throw new SwitchboardError({
          code: 'VALIDATION_FAILED',
          message: `${name}: "query" must be a non-empty string describing what you want to do.`,
          context: { tool: name, argument: 'query' },
        });
      }
      const requested = args.limit === undefined ? defaultLimit : Number(args.limit);
      if (!Number.isInteger(requested) || requested < 1) {
        throw new SwitchboardError({
          code: 'VALIDATION_FAILED',
          message: `${name}: "limit" must be a whole number from 1 to ${maxLimit}.`,
          context: { tool: name, argument: 'limit' },
        });
      }
      const selected = await selector.select(query, {
        k: Math.min(requested, maxLimit),
        alwaysInclude: [],
        ...(options.minSimilarity === undefined
          ? {}
          : {
              minSimilarity: options.minSimilarity,
              unlessWordsMatch: options.unlessWordsMatch ?? toolSearchDefaults.unlessWordsMatch,
            }),
        ...(executeOptions.signal ? { signal: executeOptions.signal } : {}),
      });
      const tools: DiscoveredTool[] = selected
        .filter((item) => item.name !== name)
        .map((item) => ({
          name: item.name,
          description: item.tool.description,
          ...(includeSchemas ? { inputSchema: item.tool.inputSchema } : {}),
          server: item.tool.server,
          score: Math.round(item.score * 1000) / 1000,
        }));
      const text =
        tools.length === 0
          ? `No tool matches "${query}". Try other words for this step, or go on without a tool.`
          : JSON.stringify({ tools, next: searchAgainHint }, null, 2);
      return { content: [{ type: 'text', text }], structuredContent: { tools } };
    },
  };
}
