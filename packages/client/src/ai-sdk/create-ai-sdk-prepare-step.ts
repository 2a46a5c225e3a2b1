/**
 * Per-turn tool selection for the AI SDK: a `prepareStep` that offers, on each step, only the
 * tools a selector picks for the last user message (plus `discover_tools`), through the AI SDK's
 * `activeTools`. The full `ToolSet` stays in `tools`, so a call to any tool still runs; only the
 * definitions sent to the model shrink.
 */

import { discoverToolsDefaults, type RegisteredTool, type ToolResultContent } from '@switchboard/core';
import type { ModelMessage, PrepareStepFunction, ToolSet } from 'ai';
import { toProviderToolNames } from '../framework-adapter/provider-tool-names.js';
import {
  type AdapterSelectOptions,
  selectTools,
  type ToolSource,
  type ToolSourceOptions,
  toolsOf,
} from '../framework-adapter/tool-source.js';

/** Options of {@link createAISDKPrepareStep}: the options given to `toAISDKTools`, with `select`. */
export interface AISDKPrepareStepOptions extends ToolSourceOptions {
  select: AdapterSelectOptions;
}

/** The text of the last user message: what the person asked for on this turn. */
export function lastUserText(messages: readonly ModelMessage[]): string {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message?.role !== 'user') continue;
    if (typeof message.content === 'string') return message.content;
    return message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
  }
  return '';
}

/** Public names of the tools `discover_tools` found in earlier steps (its structured result). */
function discoveredNames(
  steps: ReadonlyArray<{ toolResults: ReadonlyArray<{ toolName: string; output: unknown }> }>,
  discoverNames: ReadonlySet<string>,
): string[] {
  const names: string[] = [];
  for (const step of steps) {
    for (const result of step.toolResults) {
      if (!discoverNames.has(result.toolName)) continue;
      const found = (
        (result.output as ToolResultContent | undefined)?.data as { tools?: unknown } | undefined
      )?.tools;
      if (!Array.isArray(found)) continue;
      for (const tool of found) if (typeof tool?.name === 'string') names.push(tool.name);
    }
  }
  return names;
}

/**
 * A `prepareStep` giving each step the selected tools as `activeTools`. A tool that
 * `discover_tools` found in an earlier step stays offered for the rest of the run, so the model
 * can call what it searched for. One selection per distinct user message: the steps of one turn
 * reuse it.
 */
export function createAISDKPrepareStep<TOOLS extends ToolSet = ToolSet>(
  source: ToolSource,
  options: AISDKPrepareStepOptions,
  // @ts-expect-error -- the AI SDK's own ToolSet fails its PrepareStepFunction constraint under our
  // exactOptionalPropertyTypes (its types are written without it); `generateText` asks for exactly this type.
): PrepareStepFunction<TOOLS> {
  let cached: { query: string; names: Promise<string[]> } | undefined;
  return async ({ messages, steps }) => {
    const byName = toProviderToolNames(toolsOf(source, options));
    const keyOf = new Map<RegisteredTool, string>([...byName].map(([key, tool]) => [tool, key]));
    const keyOfPublic = new Map([...byName].map(([key, tool]) => [tool.name, key]));
    const query = lastUserText(messages);
    if (cached?.query !== query) {
      const names = selectTools([...byName.values()], query, options.select).then((tools) =>
        tools.flatMap((tool) => keyOf.get(tool) ?? []),
      );
      cached = { query, names };
      // A failed selection is not kept: the next step tries again.
      names.catch(() => {
        if (cached?.names === names) cached = undefined;
      });
    }
    const active = new Set(await cached.names);
    const discoverKeys = new Set(
      (options.select.alwaysInclude ?? [discoverToolsDefaults.name]).flatMap(
        (name) => keyOfPublic.get(name) ?? [],
      ),
    );
    for (const name of discoveredNames(steps, discoverKeys)) {
      const key = keyOfPublic.get(name);
      if (key !== undefined) active.add(key);
    }
    return { activeTools: [...active] as Array<keyof TOOLS> };
  };
}
