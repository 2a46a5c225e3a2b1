/**
 * Per-turn tool selection for Mastra: a `prepareStep` (of `agent.generate` / `agent.stream`) that
 * offers, on each step, only the tools a selector picks for the latest user message (plus
 * `discover_tools`), through Mastra's `activeTools`. The agent keeps every tool in `tools`, so a
 * call of any of them still runs; only the definitions sent to the model shrink.
 */

import type { AgentExecutionOptions } from '@mastra/core/agent';
import { sanitizeToolName } from '@switchboard/core';
import {
  type AdapterSelectOptions,
  selectTools,
  type ToolSource,
  type ToolSourceOptions,
  toolsOf,
} from '../framework-adapter/tool-source.js';

/** Mastra's per-step hook (`prepareStep` of `agent.generate` / `agent.stream`). */
export type MastraPrepareStep = NonNullable<AgentExecutionOptions['prepareStep']>;

/** Options of {@link createMastraPrepareStep}. */
export interface MastraPrepareStepOptions extends ToolSourceOptions {
  select: AdapterSelectOptions;
}

/** A stored Mastra message, as far as its text goes (`MastraDBMessage`: content format 2). */
interface StoredMessage {
  role: string;
  content?: string | { content?: string; parts?: ReadonlyArray<{ type: string; text?: string }> };
}

/** The text of the latest user message: what the person asked for on this turn. */
export function latestUserText(messages: readonly StoredMessage[]): string {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message?.role !== 'user') continue;
    const content = message.content;
    if (typeof content === 'string') return content;
    const parts = (content?.parts ?? []).flatMap((part) =>
      part.type === 'text' && typeof part.text === 'string' ? [part.text] : [],
    );
    return parts.length > 0 ? parts.join('\n') : (content?.content ?? '');
  }
  return '';
}

/** A `prepareStep` giving each step the selected tools as `activeTools`; the steps of one turn share one selection. */
export function createMastraPrepareStep(
  source: ToolSource,
  options: MastraPrepareStepOptions,
): MastraPrepareStep {
  let cached: { query: string; names: Promise<string[]> } | undefined;
  return async ({ messages }) => {
    const query = latestUserText(messages as readonly StoredMessage[]);
    if (cached?.query !== query) {
      const names = selectTools(toolsOf(source, options), query, options.select).then((tools) =>
        // The ids `toMastraTools` gives its tools.
        tools.map((tool) => sanitizeToolName(tool.name)),
      );
      cached = { query, names };
      // A failed selection is not kept: the next step tries again.
      names.catch(() => {
        if (cached?.names === names) cached = undefined;
      });
    }
    return { activeTools: await cached.names };
  };
}
