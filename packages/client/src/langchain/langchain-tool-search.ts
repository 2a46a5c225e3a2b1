/**
 * Deferred tools plus Switchboard's search for LangChain and LangGraph.
 *
 * Neither LangChain provider package carries a client-side search's answer to the model:
 * `@langchain/anthropic` (1.5) drops `tool_reference` blocks from a ToolMessage, and a Responses API
 * `tool_search_call` reaches `@langchain/openai` (1.6) callers as an output item that LangGraph's
 * tool node does not run. What the providers do pass through is a tool's `extras.defer_loading`
 * (`toLangChainTools(source, { deferLoading: true })`), for their hosted searches (Anthropic's
 * regex/BM25 search tools, OpenAI's hosted `tool_search`).
 *
 * So this does the deferral in the graph, for any chat model: the model is bound to the search tool
 * and to the tools earlier searches of the conversation found, nothing else; the tool node holds
 * every tool, so a found tool runs when called.
 *
 *   const search = createLangChainToolSearch(connection, { searcher: selector });
 *   createReactAgent({
 *     llm: async (state) => model.bindTools(await search.bound(state.messages)),
 *     tools: search.tools(),
 *   });
 */
import { type BaseMessage, ToolMessage } from '@langchain/core/messages';
import { DynamicStructuredTool } from '@langchain/core/tools';
import { noToolFoundText, perStepSearchGuidance, toolSearchDefaults } from '@switchboard/core';
import { type ToolSource, toolsOf } from '../framework-adapter/tool-source.js';
import {
  type AdapterToolSearchOptions,
  createAdapterToolSearch,
} from '../tool-search/adapter-tool-search.js';
import { searchToolParameters } from '../tool-search/search-tool-parameters.js';
import {
  createLangChainToolMaker,
  type LangChainTool,
  type LangChainToolsOptions,
} from './to-langchain-tools.js';

/** Options of {@link createLangChainToolSearch}. */
export interface LangChainToolSearchOptions
  extends Omit<LangChainToolsOptions, 'deferLoading'>,
    AdapterToolSearchOptions {
  /** The search tool's name. @default 'search_tools' */
  name?: string;
  /** The search tool's description. @default one that asks for one search per step */
  description?: string;
}

/** The search tool's artifact: the names of the tools it found (LangChain names), best first. */
export interface LangChainToolSearchArtifact {
  tools: string[];
}

/** Deferred tools and the search over them, for a LangGraph agent. */
export interface LangChainToolSearch {
  /** The search tool. */
  readonly searchTool: LangChainTool;
  /** Every runnable tool now, and the search tool (for the `ToolNode` / `createReactAgent`'s `tools`). */
  tools(): LangChainTool[];
  /** The tools to bind this turn: the search tool, `alwaysLoad`, and every tool a search of `messages` found. */
  bound(messages: readonly BaseMessage[]): LangChainTool[];
}

/** Creates the search over a source's tools (LangChain tools made once per registered tool). */
export function createLangChainToolSearch(
  source: ToolSource,
  options: LangChainToolSearchOptions,
): LangChainToolSearch {
  const name = options.name ?? toolSearchDefaults.name;
  const langChainToolOf = createLangChainToolMaker(options);
  const current = () => createAdapterToolSearch(toolsOf(source, options), options, name);
  const limit = options.limit ?? toolSearchDefaults.limit;
  const maxLimit = options.maxLimit ?? toolSearchDefaults.maxLimit;
  const searchTool = new DynamicStructuredTool({
    name,
    description:
      options.description ??
      `Find the tools for one step of your task: makes the few tools that fit callable from your next turn. ${perStepSearchGuidance}`,
    schema: searchToolParameters(limit, maxLimit) as Record<string, unknown>,
    responseFormat: 'content_and_artifact',
    func: async (input: unknown, _runManager: unknown, config?: { signal?: AbortSignal }) => {
      const search = current();
      const outcome = await search.search(input, config?.signal);
      if ('refused' in outcome) return [outcome.refused, { tools: [] } satisfies LangChainToolSearchArtifact];
      const found = outcome.names.flatMap((providerName) => {
        const tool = search.toolsByName.get(providerName);
        return tool === undefined ? [] : [langChainToolOf(tool)];
      });
      if (found.length === 0) return [noToolFoundText, { tools: [] } satisfies LangChainToolSearchArtifact];
      const lines = found.map((tool) => `- ${tool.name}: ${firstLine(tool.description)}`);
      return [
        `These tools can be called now:\n${lines.join('\n')}`,
        { tools: found.map((tool) => tool.name) } satisfies LangChainToolSearchArtifact,
      ];
    },
  }) as LangChainTool;
  return {
    searchTool,
    tools: () => [...toolsOf(source, options).map(langChainToolOf), searchTool],
    bound(messages) {
      const search = current();
      const found = new Set<string>();
      for (const message of messages) {
        if (!ToolMessage.isInstance(message) || message.name !== name) continue;
        const artifact = message.artifact as Partial<LangChainToolSearchArtifact> | undefined;
        for (const toolName of artifact?.tools ?? []) found.add(toolName);
      }
      const tools = [...search.toolsByName].flatMap(([providerName, tool]) => {
        const langChainTool = langChainToolOf(tool);
        return !search.isDeferred(providerName) || found.has(langChainTool.name) ? [langChainTool] : [];
      });
      return [searchTool, ...tools];
    },
  };
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}
