/**
 * What runs a provider tool search: a ranked search over registered tools. `createToolSelector` of
 * `@switchboard/tool-selection` fits as it is (the client cannot import it: tool selection sits
 * beside the client, not under it); any function with this shape does too.
 */
import type { RegisteredTool } from '@switchboard/core';

/** Options the search passes to {@link ToolSearcher.select}. */
export interface ToolSearcherSelectOptions {
  /** How many ranked tools to return. */
  k?: number;
  /** Return no ranked tool when the most similar tool's cosine similarity is below this. */
  minSimilarity?: number;
  /** With `minSimilarity`: keep the ranking when a tool shares a word with the request. */
  unlessWordsMatch?: boolean;
  /** Public names returned whatever the query (the search passes `[]` and adds its own). */
  alwaysInclude?: readonly string[];
  signal?: AbortSignal;
}

/** A ranked search over registered tools, best first. */
export interface ToolSearcher {
  select(
    query: string,
    options?: ToolSearcherSelectOptions,
  ): Promise<ReadonlyArray<{ readonly tool: RegisteredTool; readonly score: number }>>;
}
