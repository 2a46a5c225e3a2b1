/**
 * A keyword searcher standing in for tool-selection's selector (a neighbour: the client cannot
 * depend on tool-selection, and the selector is tested with these handlers in apps/examples): a
 * tool scores the share of the query's words found in its name and description. It records what
 * it was asked.
 */
import type { RegisteredTool } from '@switchboard/core';
import type { ToolSearcher, ToolSearcherSelectOptions } from '../../src/index.js';

/** A searcher over `tools()` (read per search), recording each query and its options in `calls`. */
export function keywordSearcher(
  tools: () => Iterable<RegisteredTool>,
  calls: Array<{ query: string; options: ToolSearcherSelectOptions }> = [],
): ToolSearcher {
  return {
    async select(query, options = {}) {
      calls.push({ query, options });
      const words = query.toLowerCase().split(/\W+/).filter(Boolean);
      return [...tools()]
        .map((tool) => {
          const text = `${tool.originalName} ${tool.description}`.toLowerCase();
          return { tool, score: words.filter((word) => text.includes(word)).length / words.length };
        })
        .filter((hit) => hit.score > 0)
        .sort((a, b) => b.score - a.score)
        .slice(0, options.k ?? 8);
    },
  };
}
