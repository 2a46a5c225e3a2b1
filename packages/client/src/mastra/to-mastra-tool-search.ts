/**
 * Provider tool search through Mastra, whose agents run on the AI SDK's providers: the tools of a
 * source carry the provider's deferral in their `providerOptions` (passed through to the model
 * provider), beside a search tool Switchboard's selector answers.
 *
 * - `provider: 'anthropic'`: `providerOptions.anthropic.deferLoading` on each tool, and a search
 *   tool whose model output is one `tool-reference` part per tool found (`@ai-sdk/anthropic` sends
 *   them as `tool_reference` blocks, which load those tools into Claude's context).
 * - `provider: 'openai'`: `providerOptions.openai` with `deferLoading` and the server as `namespace`.
 *   OpenAI's client-executed `tool_search` is a provider tool of `@ai-sdk/openai` with no Mastra
 *   counterpart, so no search tool is added: add OpenAI's hosted one (`openai.tools.toolSearch()`)
 *   to the agent's tools, or use the AI SDK adapter's `toAISDKToolSearch` for a client-side search.
 *
 *   const agent = new Agent({ id, name, instructions, model,
 *     tools: toMastraToolSearch(connection, { provider: 'anthropic', searcher: selector }) });
 */
import { createTool } from '@mastra/core/tools';
import { type JsonSchema, sanitizeToolName, toolSearchDefaults } from '@switchboard/core';
import { type ToolSource, toolsOf } from '../framework-adapter/tool-source.js';
import {
  type AdapterToolSearch,
  type AdapterToolSearchOptions,
  createAdapterToolSearch,
  toToolReferenceOutput,
} from '../tool-search/adapter-tool-search.js';
import { serverNamespaces } from '../tool-search/openai-namespace-tools.js';
import type { ToolSearchOutcome } from '../tool-search/run-tool-search.js';
import { loadToolsDescription, searchToolParameters } from '../tool-search/search-tool-parameters.js';
import { type MastraTool, type MastraToolsOptions, toMastraTool } from './to-mastra-tools.js';

/** Options of {@link toMastraToolSearch}. */
export interface MastraToolSearchOptions extends MastraToolsOptions, AdapterToolSearchOptions {
  /** Whose tool search the model speaks: Claude's (`@ai-sdk/anthropic`) or OpenAI's Responses API (`@ai-sdk/openai`). */
  provider: 'anthropic' | 'openai';
  /** Anthropic: the search tool's id. @default 'search_tools' */
  name?: string;
  /** Anthropic: the search tool's description. @default one that asks for one search per step */
  description?: string;
  /** OpenAI: each namespace's description, by server name. @default the server's name and its first tools' names */
  namespaceDescriptions?: Readonly<Record<string, string>>;
}

/**
 * The tools of a source, deferred for `options.provider`, keyed by id as `toMastraTools` keys them,
 * plus (Anthropic) the search tool. Read when called: call it per request (or as a dynamic
 * `tools: () => …`) to follow tools that come and go.
 */
export function toMastraToolSearch(
  source: ToolSource,
  options: MastraToolSearchOptions,
): Record<string, MastraTool> {
  const name = options.name ?? toolSearchDefaults.name;
  const search = createAdapterToolSearch(toolsOf(source, options), options, name);
  const namespaces = serverNamespaces(search.toolsByName.values(), options.namespaceDescriptions);
  const idOf = new Map<string, string>();
  const tools: Record<string, MastraTool> = {};
  for (const [providerName, registered] of search.toolsByName) {
    const made = toMastraTool(registered, options);
    const deferred = search.isDeferred(providerName);
    // Mastra hands a tool's providerOptions to the model provider with its definition.
    if (options.provider === 'anthropic' && deferred)
      made.providerOptions = { anthropic: { deferLoading: true } };
    if (options.provider === 'openai') {
      made.providerOptions = {
        openai: {
          ...(deferred ? { deferLoading: true } : {}),
          namespace: { ...namespaces.get(registered.server) },
        },
      };
    }
    tools[made.id] = made;
    idOf.set(providerName, made.id);
  }
  if (options.provider === 'anthropic') tools[name] = anthropicSearchTool(name, search, idOf, options);
  return tools;
}

function anthropicSearchTool(
  id: string,
  search: AdapterToolSearch,
  idOf: ReadonlyMap<string, string>,
  options: MastraToolSearchOptions,
): MastraTool {
  const limit = options.limit ?? toolSearchDefaults.limit;
  const maxLimit = options.maxLimit ?? toolSearchDefaults.maxLimit;
  return createTool({
    id,
    description: options.description ?? loadToolsDescription,
    inputSchema: searchToolParameters(limit, maxLimit) as JsonSchema as Parameters<
      typeof createTool
    >[0]['inputSchema'],
    execute: async (input, context) => {
      const outcome = await search.search(input, context?.abortSignal);
      if ('refused' in outcome) return outcome;
      return { ...outcome, names: outcome.names.map((name) => idOf.get(name) ?? sanitizeToolName(name)) };
    },
    toModelOutput: (output: unknown) => toToolReferenceOutput(output as ToolSearchOutcome),
  }) as MastraTool;
}
