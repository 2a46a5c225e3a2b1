/**
 * Per-turn tool selection for LangChain and LangGraph: the application binds only this turn's tools
 * (the selector's best for the latest user message, plus `discover_tools`) to the model, while the
 * tool node keeps all of them, so any tool the model was offered on an earlier turn still runs.
 *
 *   const selection = createLangChainToolSelection(connection, { select: { selector } });
 *   createReactAgent({
 *     llm: async (state) => model.bindTools(await selection.select(state.messages)),
 *     tools: selection.tools(),
 *   });
 */

import type { BaseMessage } from '@langchain/core/messages';
import {
  type AdapterSelectOptions,
  selectTools,
  type ToolSource,
  toolsOf,
} from '../framework-adapter/tool-source.js';
import {
  createLangChainToolMaker,
  type LangChainTool,
  type LangChainToolsOptions,
} from './to-langchain-tools.js';

/** Options of {@link createLangChainToolSelection}. */
export interface LangChainToolSelectionOptions extends LangChainToolsOptions {
  select: AdapterSelectOptions;
}

/** The tools of a source for LangGraph: all of them for the tool node, a few per turn for the model. */
export interface LangChainToolSelection {
  /** Every runnable tool now (for the `ToolNode` / `createReactAgent`'s `tools`). */
  tools(): LangChainTool[];
  /** This turn's tools for `model.bindTools`: the selector's best for the latest user message, plus `alwaysInclude`. */
  select(messages: readonly BaseMessage[], options?: { signal?: AbortSignal }): Promise<LangChainTool[]>;
}

/** The text of the latest user message: what the turn is about. */
export function latestUserText(messages: readonly BaseMessage[]): string {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message?.getType() === 'human') return message.text;
  }
  return '';
}

/** Tool selection per turn over a source (tools made once per registered tool, so both lists hold the same objects). */
export function createLangChainToolSelection(
  source: ToolSource,
  options: LangChainToolSelectionOptions,
): LangChainToolSelection {
  const langChainToolOf = createLangChainToolMaker(options);
  return {
    tools: () => toolsOf(source, options).map(langChainToolOf),
    async select(messages, selectOptions = {}) {
      const chosen = await selectTools(
        toolsOf(source, options),
        latestUserText(messages),
        options.select,
        selectOptions.signal,
      );
      return chosen.map(langChainToolOf);
    },
  };
}
