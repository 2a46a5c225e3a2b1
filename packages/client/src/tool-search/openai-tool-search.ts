/**
 * OpenAI's client-executed tool search answered by Switchboard's selector: the tools go to the
 * Responses API as deferred namespaces (`toOpenAINamespaces`), the `tool_search` tool beside them
 * with `execution: 'client'`, and each `tool_search_call` is answered with a `tool_search_output`
 * holding the definitions of the few tools that fit the step:
 *
 * ```ts
 * const provider = toOpenAINamespaces(connection);
 * const search = createOpenAIToolSearch(provider, { searcher: selector });
 * const tools = [...provider.tools, search.tool];
 * // … for an output item `item` of type tool_search_call:
 * if (search.isSearch(item)) input.push(item, await search.handle(item));
 * ```
 */
import {
  type OpenAINamespaceFunction,
  type OpenAINamespaceTool,
  type OpenAIToolSearchCall,
  type OpenAIToolSearchOutput,
  type OpenAIToolSearchTool,
  SwitchboardError,
  toOpenAIToolSearchOutput,
  toolSearchDefaults,
} from '@switchboard/core';
import type { ProviderTools } from '../provider-tools.js';
import { createToolSearchRun, type ToolSearchOptions } from './run-tool-search.js';
import { loadFromNamespacesDescription, searchToolParameters } from './search-tool-parameters.js';

/** Options of {@link createOpenAIToolSearch}. */
export interface OpenAIToolSearchOptions extends ToolSearchOptions {
  /** The search tool's description. @default one that asks for one search per step */
  description?: string;
}

/** A client-executed tool search for the Responses API: its definition and the handler of its calls. */
export interface OpenAIToolSearch {
  /** The `tool_search` tool, to send beside the namespaces. */
  tool: OpenAIToolSearchTool;
  /** Whether an output item is a client-executed `tool_search_call` (for this search). */
  isSearch(item: { type?: string | null; execution?: string | null }): item is OpenAIToolSearchCall;
  /**
   * The `tool_search_output` of one call: the namespaces of the tools found, each with only those
   * functions, loaded; no tools when none fits or the arguments are unusable.
   */
  handle(call: OpenAIToolSearchCall, options?: { signal?: AbortSignal }): Promise<OpenAIToolSearchOutput>;
}

/** Creates the client-executed search over the deferred functions of `provider` (from `toOpenAINamespaces`). */
export function createOpenAIToolSearch(
  provider: ProviderTools<OpenAINamespaceTool>,
  options: OpenAIToolSearchOptions,
): OpenAIToolSearch {
  const functions = new Map<string, { namespace: OpenAINamespaceTool; tool: OpenAINamespaceFunction }>();
  for (const namespace of provider.tools) {
    for (const tool of namespace.tools) functions.set(tool.name, { namespace, tool });
  }
  const limit = options.limit ?? toolSearchDefaults.limit;
  const maxLimit = options.maxLimit ?? toolSearchDefaults.maxLimit;
  const run = createToolSearchRun(
    {
      toolsByName: provider.toolsByName,
      isDeferred: (name) => functions.get(name)?.tool.defer_loading === true,
    },
    options,
    'tool_search',
  );
  return {
    tool: {
      type: 'tool_search',
      execution: 'client',
      description: options.description ?? loadFromNamespacesDescription,
      parameters: searchToolParameters(limit, maxLimit),
    },
    isSearch: (item): item is OpenAIToolSearchCall =>
      item.type === 'tool_search_call' && (item.execution ?? 'client') === 'client',
    async handle(call, handleOptions = {}) {
      const callId = call.call_id;
      if (typeof callId !== 'string' || callId === '') {
        throw new SwitchboardError({
          code: 'INVALID_ARGUMENT',
          message:
            'tool_search: the tool_search_call has no call_id; pass the output item of a client-executed tool search as the model sent it.',
          context: { tool: 'tool_search' },
        });
      }
      const outcome = await run(call.arguments, handleOptions.signal);
      const names = 'refused' in outcome ? [] : outcome.names;
      return toOpenAIToolSearchOutput(
        callId,
        names.map((name) => functions.get(name)).filter((found) => found !== undefined),
      );
    },
  };
}
