/**
 * Claude's tool search answered by Switchboard's selector: the tools go to the Messages API deferred
 * (`toAnthropicTools(source, { deferLoading: true })`), this search tool beside them (never
 * deferred), and each `tool_use` of it is answered with `tool_reference` blocks naming the few tools
 * that fit the step, which Anthropic then loads into the context:
 *
 * ```ts
 * const provider = toAnthropicTools(connection, { deferLoading: true });
 * const search = createAnthropicToolSearch(provider, { searcher: selector });
 * const tools = [search.tool, ...provider.tools];
 * // … for a tool_use block `use` of the search tool:
 * if (search.isSearch(use)) results.push(await search.handle(use));
 * ```
 */
import {
  type AnthropicTool,
  type AnthropicToolSearchResult,
  toAnthropicToolReferences,
  toolSearchDefaults,
} from '@switchboard/core';
import type { ProviderTools } from '../provider-tools.js';
import { createToolSearchRun, type ToolSearchOptions } from './run-tool-search.js';
import { loadToolsDescription, searchToolParameters } from './search-tool-parameters.js';

/** Options of {@link createAnthropicToolSearch}. */
export interface AnthropicToolSearchOptions extends ToolSearchOptions {
  /** The search tool's name. @default 'search_tools' */
  name?: string;
  /** The search tool's description. @default one that asks for one search per step */
  description?: string;
}

/** A client-side tool search for the Messages API: its definition and the handler of its calls. */
export interface AnthropicToolSearch {
  /** The search tool's definition, to send beside the deferred tools (it is never deferred). */
  tool: AnthropicTool;
  /** Whether a `tool_use` block calls this search. */
  isSearch(block: { type?: string; name?: string }): boolean;
  /**
   * The `tool_result` of one search: a `tool_reference` per tool found (deferred tools of the
   * request only, best first), a text when none fits, `is_error` when the input is unusable.
   */
  handle(
    toolUse: { id: string; input: unknown },
    options?: { signal?: AbortSignal },
  ): Promise<AnthropicToolSearchResult>;
}

/** Creates the client-side search over the deferred tools of `provider` (from `toAnthropicTools`). */
export function createAnthropicToolSearch(
  provider: ProviderTools<AnthropicTool>,
  options: AnthropicToolSearchOptions,
): AnthropicToolSearch {
  const name = options.name ?? toolSearchDefaults.name;
  const deferred = new Set(
    provider.tools.filter((tool) => tool.defer_loading === true).map((tool) => tool.name),
  );
  const limit = options.limit ?? toolSearchDefaults.limit;
  const maxLimit = options.maxLimit ?? toolSearchDefaults.maxLimit;
  const run = createToolSearchRun(
    { toolsByName: provider.toolsByName, isDeferred: (toolName) => deferred.has(toolName) },
    options,
    name,
  );
  return {
    tool: {
      name,
      description: options.description ?? loadToolsDescription,
      input_schema: searchToolParameters(limit, maxLimit),
    },
    isSearch: (block) => block.name === name && (block.type === undefined || block.type === 'tool_use'),
    async handle(toolUse, handleOptions = {}) {
      const outcome = await run(toolUse.input, handleOptions.signal);
      if ('refused' in outcome) {
        return {
          type: 'tool_result',
          tool_use_id: toolUse.id,
          content: [{ type: 'text', text: outcome.refused }],
          is_error: true,
        };
      }
      return toAnthropicToolReferences(toolUse.id, outcome.names);
    },
  };
}
