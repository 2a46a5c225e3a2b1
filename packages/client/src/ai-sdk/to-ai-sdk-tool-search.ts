/**
 * Provider tool search through the AI SDK: the tools of a source deferred through the providers'
 * own tool options, and a search tool that Switchboard's selector answers, for `generateText`,
 * `streamText` and `Agent`. The model reads no deferred definition until a search loads it.
 *
 * - `provider: 'anthropic'` (`@ai-sdk/anthropic`): each tool carries `providerOptions.anthropic
 *   .deferLoading`; the search is an ordinary tool whose result is one `tool-reference` part per tool
 *   found (sent to Claude as `tool_reference` blocks, which load those tools).
 * - `provider: 'openai'` (`@ai-sdk/openai`, Responses API): each tool carries `providerOptions.openai
 *   .deferLoading` and its server as `namespace`; the search is the provider's `openai.tool_search`
 *   tool with `execution: 'client'`, whose output (`tool_search_output`) holds the found tools'
 *   namespaced definitions.
 *
 *   const tools = toAISDKToolSearch(connection, { provider: 'anthropic', searcher: selector });
 *   await generateText({ model: anthropic('claude-sonnet-4-5'), tools, stopWhen: stepCountIs(8), prompt });
 */
import { toolSearchDefaults } from '@switchboard/core';
import { dynamicTool, jsonSchema, type Tool, type ToolSet } from 'ai';
import { toAdapterTool } from '../framework-adapter/adapter-tool.js';
import { type ToolSource, toolsOf } from '../framework-adapter/tool-source.js';
import {
  type AdapterToolSearch,
  type AdapterToolSearchOptions,
  createAdapterToolSearch,
  toToolReferenceOutput,
} from '../tool-search/adapter-tool-search.js';
import { serverNamespaces } from '../tool-search/openai-namespace-tools.js';
import type { ToolSearchOutcome } from '../tool-search/run-tool-search.js';
import {
  loadFromNamespacesDescription,
  loadToolsDescription,
  searchToolParameters,
} from '../tool-search/search-tool-parameters.js';
import { type AISDKToolsOptions, toAISDKTools } from './to-ai-sdk-tools.js';

/** Options of {@link toAISDKToolSearch}. */
export interface AISDKToolSearchOptions extends Omit<AISDKToolsOptions, 'select'>, AdapterToolSearchOptions {
  /** Whose tool search the model speaks: Claude's (`@ai-sdk/anthropic`) or OpenAI's Responses API (`@ai-sdk/openai`). */
  provider: 'anthropic' | 'openai';
  /** The search tool's key in the `ToolSet`. @default 'search_tools' (Anthropic), 'tool_search' (OpenAI) */
  name?: string;
  /** The search tool's description. @default one that asks for one search per step */
  description?: string;
  /** OpenAI: each namespace's description, by server name. @default the server's name and its first tools' names */
  namespaceDescriptions?: Readonly<Record<string, string>>;
}

/** What the search tool's `execute` resolves with (kept in the step's tool results). */
export type AISDKToolSearchOutput = ToolSearchOutcome;

/**
 * The tools of a source, deferred, plus the search tool, as one AI SDK `ToolSet` (keys as
 * `toAISDKTools` gives them). Read when called: call it per request to follow tools that come and go.
 */
export function toAISDKToolSearch(source: ToolSource, options: AISDKToolSearchOptions): ToolSet {
  const tools = toAISDKTools(source, options);
  const available = toolsOf(source, options);
  const name = options.name ?? (options.provider === 'anthropic' ? toolSearchDefaults.name : 'tool_search');
  const search = createAdapterToolSearch(available, options, name);
  if (options.provider === 'anthropic') {
    for (const [key, tool] of Object.entries(tools)) {
      if (search.isDeferred(key))
        tools[key] = withProviderOptions(tool, { anthropic: { deferLoading: true } });
    }
    tools[name] = anthropicSearchTool(search, options);
    return tools;
  }
  const namespaces = serverNamespaces(search.toolsByName.values(), options.namespaceDescriptions);
  for (const [key, tool] of Object.entries(tools)) {
    const registered = search.toolsByName.get(key);
    if (registered === undefined) continue;
    tools[key] = withProviderOptions(tool, {
      openai: {
        ...(search.isDeferred(key) ? { deferLoading: true } : {}),
        namespace: { ...namespaces.get(registered.server) },
      },
    });
  }
  tools[name] = openAISearchTool(search, options, tools);
  return tools;
}

type SetTool = ToolSet[string];

function withProviderOptions(tool: SetTool, providerOptions: NonNullable<Tool['providerOptions']>): SetTool {
  return { ...tool, providerOptions: { ...tool.providerOptions, ...providerOptions } } as SetTool;
}

/** Claude's client-side search: a plain tool whose result references the deferred tools found. */
function anthropicSearchTool(search: AdapterToolSearch, options: AISDKToolSearchOptions): Tool {
  const limit = options.limit ?? toolSearchDefaults.limit;
  const maxLimit = options.maxLimit ?? toolSearchDefaults.maxLimit;
  return dynamicTool({
    description: options.description ?? loadToolsDescription,
    inputSchema: jsonSchema(searchToolParameters(limit, maxLimit)),
    execute: (input, { abortSignal }) => search.search(input, abortSignal),
    toModelOutput: ({ output }) => toToolReferenceOutput(output as ToolSearchOutcome),
  });
}

/**
 * OpenAI's client-executed `tool_search`, as `@ai-sdk/openai`'s provider tool (`openai.tool_search`,
 * the shape `openai.tools.toolSearch` makes): its input is the call's `arguments` and `call_id`, its
 * output the `tools` of the `tool_search_output`, one namespace per server with the functions found.
 */
function openAISearchTool(search: AdapterToolSearch, options: AISDKToolSearchOptions, tools: ToolSet): Tool {
  const limit = options.limit ?? toolSearchDefaults.limit;
  const maxLimit = options.maxLimit ?? toolSearchDefaults.maxLimit;
  return {
    type: 'provider',
    id: 'openai.tool_search',
    args: {
      execution: 'client',
      description: options.description ?? loadFromNamespacesDescription,
      parameters: searchToolParameters(limit, maxLimit),
    },
    inputSchema: jsonSchema({
      type: 'object',
      properties: { arguments: {}, call_id: { type: ['string', 'null'] } },
    }),
    execute: async (input: { arguments?: unknown }, { abortSignal }: { abortSignal?: AbortSignal }) => {
      const outcome = await search.search(input.arguments, abortSignal);
      const names = 'refused' in outcome ? [] : outcome.names;
      const byNamespace = new Map<
        string,
        { type: 'namespace'; name: string; description: string; tools: unknown[] }
      >();
      for (const name of names) {
        const registered = search.toolsByName.get(name);
        const namespace = (
          tools[name]?.providerOptions?.openai as { namespace?: { name: string; description: string } }
        )?.namespace;
        if (registered === undefined || namespace === undefined) continue;
        let entry = byNamespace.get(namespace.name);
        if (!entry) {
          entry = { type: 'namespace', ...namespace, tools: [] };
          byNamespace.set(namespace.name, entry);
        }
        const adapter = toAdapterTool(registered, options);
        entry.tools.push({
          type: 'function',
          name,
          description: adapter.description,
          parameters: adapter.inputSchema,
        });
      }
      return { tools: [...byNamespace.values()] };
    },
  } as Tool;
}
