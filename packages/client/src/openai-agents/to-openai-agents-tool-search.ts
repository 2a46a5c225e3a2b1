/**
 * Provider tool search through the OpenAI Agents SDK (Responses API): the tools of a source as
 * function tools grouped by server (`toolNamespace`), deferred (`deferLoading`), and the SDK's
 * client-executed `toolSearchTool` whose `execute` asks Switchboard's selector. The SDK's runner
 * answers each `tool_search_call` with a `tool_search_output` of the tools returned, and from then
 * on runs their calls like any function tool's.
 *
 *   const agent = new Agent({ name, model, tools: toOpenAIAgentsToolSearch(connection, { searcher: selector }) });
 */
import { type FunctionTool, type Tool, toolNamespace, toolSearchTool } from '@openai/agents';
import { type RegisteredTool, toolSearchDefaults } from '@switchboard/core';
import type { ToolSource } from '../framework-adapter/tool-source.js';
import { toolsOf } from '../framework-adapter/tool-source.js';
import {
  type AdapterToolSearchOptions,
  createAdapterToolSearch,
} from '../tool-search/adapter-tool-search.js';
import { serverNamespaces } from '../tool-search/openai-namespace-tools.js';
import {
  loadFromNamespacesDescription,
  searchToolParameters,
} from '../tool-search/search-tool-parameters.js';
import { type OpenAIAgentsToolsOptions, toOpenAIAgentsTools } from './to-openai-agents-tools.js';

/** Options of {@link toOpenAIAgentsToolSearch}. */
export interface OpenAIAgentsToolSearchOptions
  extends Omit<OpenAIAgentsToolsOptions, 'select'>,
    AdapterToolSearchOptions {
  /** The search tool's description. @default one that asks for one search per step */
  description?: string;
  /** Each namespace's description, by server name. @default the server's name and its first tools' names */
  namespaceDescriptions?: Readonly<Record<string, string>>;
}

/**
 * The tools of a source, deferred in one namespace per server, and the client-executed tool
 * search over them, for `new Agent({ tools })`. Read when called: call it per run to follow tools
 * that come and go.
 */
export function toOpenAIAgentsToolSearch(source: ToolSource, options: OpenAIAgentsToolSearchOptions): Tool[] {
  const available = toolsOf(source, options);
  const functionTools = toOpenAIAgentsTools(available, options);
  const functionOf = new Map<RegisteredTool, FunctionTool<unknown, any, any>>(
    available.map((tool, index) => [tool, functionTools[index] as FunctionTool<unknown, any, any>]),
  );
  const search = createAdapterToolSearch(available, options, 'tool_search');
  const namespaces = serverNamespaces(available, options.namespaceDescriptions);
  // Grouped by server in the order servers first appear; `toolNamespace` clones the tools.
  const byServer = new Map<string, Array<[string, FunctionTool<unknown, any, any>]>>();
  for (const [name, registered] of search.toolsByName) {
    const made = functionOf.get(registered) as FunctionTool<unknown, any, any>;
    if (search.isDeferred(name)) made.deferLoading = true;
    const group = byServer.get(registered.server);
    if (group) group.push([name, made]);
    else byServer.set(registered.server, [[name, made]]);
  }
  const namespaced = new Map<string, FunctionTool<unknown, any, any>>();
  for (const [server, group] of byServer) {
    const namespace = namespaces.get(server) as { name: string; description: string };
    const clones = toolNamespace({ ...namespace, tools: group.map(([, made]) => made) });
    for (const [index, [name]] of group.entries())
      namespaced.set(name, clones[index] as FunctionTool<unknown, any, any>);
  }
  const limit = options.limit ?? toolSearchDefaults.limit;
  const maxLimit = options.maxLimit ?? toolSearchDefaults.maxLimit;
  const searchTool = toolSearchTool({
    execution: 'client',
    description: options.description ?? loadFromNamespacesDescription,
    parameters: searchToolParameters(limit, maxLimit),
    // The runner turns the tools returned into the `tool_search_output`; none tells the model nothing fits.
    execute: async ({ toolCall }) => {
      const outcome = await search.search(toolCall.arguments);
      if ('refused' in outcome) return [];
      return outcome.names.flatMap((name) => namespaced.get(name) ?? []);
    },
  });
  return [...namespaced.values(), searchTool];
}
