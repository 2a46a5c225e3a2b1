/**
 * The answer of a client-side tool search to Claude: a `tool_result` whose content is one
 * `tool_reference` block per tool found (Anthropic loads each referenced deferred tool into the
 * context), or, when nothing fits, a text saying so.
 */

/** A reference to a deferred tool, loaded when it appears in a tool search's `tool_result`. */
export interface AnthropicToolReference {
  type: 'tool_reference';
  /** The tool's name in the request's `tools` (a tool defined with `defer_loading: true`). */
  tool_name: string;
}

/** The `tool_result` block answering a client-side tool search (`tool_use` of the search tool). */
export interface AnthropicToolSearchResult {
  type: 'tool_result';
  tool_use_id: string;
  content: Array<AnthropicToolReference | { type: 'text'; text: string }>;
  is_error?: boolean;
}

/** Options of {@link toAnthropicToolReferences}. */
export interface ToAnthropicToolReferencesOptions {
  /** The text sent when no tool was found. @default a sentence asking the model to search again */
  emptyText?: string;
}

/**
 * The `tool_result` of a search that found `toolNames` (provider names, best first). An empty list
 * gives a text block instead: a tool result may not be empty, and the model should know that no
 * tool fits rather than see nothing.
 */
export function toAnthropicToolReferences(
  toolUseId: string,
  toolNames: readonly string[],
  options: ToAnthropicToolReferencesOptions = {},
): AnthropicToolSearchResult {
  if (toolNames.length === 0) {
    return {
      type: 'tool_result',
      tool_use_id: toolUseId,
      content: [{ type: 'text', text: options.emptyText ?? noToolFoundText }],
    };
  }
  return {
    type: 'tool_result',
    tool_use_id: toolUseId,
    content: toolNames.map((name) => ({ type: 'tool_reference', tool_name: name })),
  };
}

/** What a search that found nothing tells the model. */
export const noToolFoundText =
  'No tool fits this step. Search again with other words for the step, or go on without a tool.';
