/**
 * The defaults of a tool search a model runs itself (Anthropic's client-side search tool, OpenAI's
 * client-executed `tool_search`, Switchboard's `discover_tools`): how many tools one search finds,
 * below which similarity it finds none, and the words that ask the model to search once per step.
 * One table, as the client's provider search handlers and tool-selection's `discover_tools` cannot
 * share code (neither depends on the other) yet must tell the model the same thing.
 */

/** The defaults of every provider tool search. */
export const toolSearchDefaults = Object.freeze({
  /** The client-side search tool's name (Anthropic; OpenAI's `tool_search` has a fixed type instead). */
  name: 'search_tools',
  /**
   * Tools found per search when the model gives no `limit`. One search is for one step, so a few
   * suffice: on annotated multi-step tasks the top 3 of each step found 67 % of the tools needed.
   */
  limit: 3,
  /** Largest `limit` a model may ask for: it bounds what one search loads into the context. */
  maxLimit: 10,
  /**
   * No tool is found when even the most similar tool's cosine similarity is below this and (under
   * `unlessWordsMatch`) no tool shares a word with the request: the search answers "nothing fits"
   * rather than offering the least bad tools. Chosen on BFCL's no-tool queries (tool-selection's
   * README, "Abstaining"): above 0.5 no more of them are caught, and no labelled query loses its tool.
   */
  minSimilarity: 0.5,
  /**
   * The cosine decides only when no tool shares a word with the request: a low cosine alone (0.3)
   * gave 17.6 % of MetaTool's real requests (held out) no tool; with this rule 0.6 %.
   */
  unlessWordsMatch: true,
} as const);

/**
 * What the search tools tell the model about how to search: one search per step, a few words of
 * that step, again when a step is not covered.
 */
export const perStepSearchGuidance =
  'Search once for each thing you need to do, with a few words describing that one step (for example "create a calendar event"), not the whole task. If the tools found do not cover a step, search again with other words. An empty result means no tool fits that step.';

/** The query parameter every search tool takes, described for the model. */
export const toolSearchQueryDescription =
  'A few words describing one step you need a tool for (e.g. "list files in a folder").';
