/**
 * Deferred tools plus Switchboard's search, for the framework adapters: the source's tools under
 * the names the adapters give them, which of them are deferred (all but `alwaysLoad`), and one
 * search over them (the provider search handlers' own: limit, threshold, `alwaysInclude`,
 * `relativeScore`). Each adapter wraps the outcome in its framework's shapes.
 */
import { noToolFoundText, type RegisteredTool } from '@switchboard/core';
import { toProviderToolNames } from '../framework-adapter/provider-tool-names.js';
import { createToolSearchRun, type ToolSearchOptions, type ToolSearchOutcome } from './run-tool-search.js';

/** Options every adapter's tool search takes. */
export interface AdapterToolSearchOptions extends ToolSearchOptions {
  /** Tools sent up front, not deferred, by public or provider name. @default [] */
  alwaysLoad?: readonly string[];
}

/** The deferred tools of a source and the search over them. */
export interface AdapterToolSearch {
  /** The tools by provider-safe name, in the source's order (`toProviderToolNames`). */
  readonly toolsByName: ReadonlyMap<string, RegisteredTool>;
  /** Whether a tool (by provider-safe name) is deferred: only a search loads it. */
  isDeferred(name: string): boolean;
  /** One search: the deferred tools that fit a step, by provider-safe name, or why the arguments were refused. */
  search(args: unknown, signal?: AbortSignal): Promise<ToolSearchOutcome>;
}

/** Prepares `tools` for deferral and search; `toolName` names the search tool in errors. */
export function createAdapterToolSearch(
  tools: readonly RegisteredTool[],
  options: AdapterToolSearchOptions,
  toolName: string,
): AdapterToolSearch {
  const toolsByName = toProviderToolNames(tools);
  const alwaysLoad = new Set(options.alwaysLoad ?? []);
  const deferred = new Set(
    [...toolsByName].flatMap(([name, tool]) =>
      alwaysLoad.has(name) || alwaysLoad.has(tool.name) ? [] : [name],
    ),
  );
  const isDeferred = (name: string) => deferred.has(name);
  return {
    toolsByName,
    isDeferred,
    search: createToolSearchRun({ toolsByName, isDeferred }, options, toolName),
  };
}

/** A model output of AI SDK parts (as `toModelOutput` returns it, in the AI SDK and in Mastra). */
export type ToolReferenceOutput =
  | { type: 'error-text' | 'text'; value: string }
  | {
      type: 'content';
      value: Array<{
        type: 'custom';
        providerOptions: { anthropic: { type: 'tool-reference'; toolName: string } };
      }>;
    };

/**
 * A search outcome as the model's tool result for Claude: one custom part per tool found, which
 * `@ai-sdk/anthropic` sends as a `tool_reference` block (loading that deferred tool); a text when
 * nothing fits; an error text when the arguments were refused.
 */
export function toToolReferenceOutput(outcome: ToolSearchOutcome): ToolReferenceOutput {
  if ('refused' in outcome) return { type: 'error-text', value: outcome.refused };
  if (outcome.names.length === 0) return { type: 'text', value: noToolFoundText };
  return {
    type: 'content',
    value: outcome.names.map((toolName) => ({
      type: 'custom',
      providerOptions: { anthropic: { type: 'tool-reference', toolName } },
    })),
  };
}
