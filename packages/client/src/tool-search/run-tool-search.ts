/**
 * The one search behind both provider search tools: check the model's arguments, ask the searcher
 * for the step's best tools, keep those the request defers (in the provider's names), cut to the
 * limit, add `alwaysInclude`. "Nothing fits" is an empty list: the searcher's `minSimilarity`
 * decides it, so the model hears that no tool fits rather than getting the least bad ones.
 */
import { type RegisteredTool, SwitchboardError, toolSearchDefaults } from '@switchboard/core';
import type { ToolSearcher } from './tool-searcher.js';

/** Options every provider search takes. */
export interface ToolSearchOptions {
  /** The ranked search (e.g. `createToolSelector({ registry: connection.registry })`). */
  searcher: ToolSearcher;
  /** Tools found when the model gives no `limit`. @default 3 (core's `toolSearchDefaults.limit`) */
  limit?: number;
  /** Largest `limit` the model may ask for. @default 10 */
  maxLimit?: number;
  /**
   * Find no tool when the most similar one's cosine similarity is below this (the searcher's
   * `minSimilarity`) and, under `unlessWordsMatch`, no tool shares a word with the request; `null`
   * always finds `limit` tools. @default 0.5 (core's `toolSearchDefaults`, chosen on BFCL's no-tool queries)
   */
  minSimilarity?: number | null;
  /**
   * Abstain on the cosine only when no tool shares a word with the request: a low cosine alone
   * gave 17.6 % of MetaTool's real requests nothing. @default true
   */
  unlessWordsMatch?: boolean;
  /** Tools found by every search that finds any, by public or provider name. @default [] */
  alwaysInclude?: readonly string[];
  /**
   * Adaptive `limit`: drop tools whose score is below this share of the best tool's score, so a
   * search whose best tool stands out loads fewer tools (0.5: those at least half as good). @default off
   */
  relativeScore?: number;
}

/** A search's outcome: the provider names found, best first, or why the arguments were refused. */
export type ToolSearchOutcome = { names: string[]; query: string } | { refused: string };

/** The searchable tools of a request: provider name → registered tool, and which are deferred. */
export interface SearchableTools {
  toolsByName: ReadonlyMap<string, RegisteredTool>;
  isDeferred(providerName: string): boolean;
}

/** Ranked tools asked for beyond the limit, to make up for tools the request does not defer. */
const EXTRA_CANDIDATES = 8;

/** Creates the search over `tools` with `options`; `limit` and `maxLimit` are checked here, once. */
export function createToolSearchRun(
  tools: SearchableTools,
  options: ToolSearchOptions,
  toolName: string,
): (args: unknown, signal?: AbortSignal) => Promise<ToolSearchOutcome> {
  const limit = options.limit ?? toolSearchDefaults.limit;
  const maxLimit = options.maxLimit ?? toolSearchDefaults.maxLimit;
  const minSimilarity =
    options.minSimilarity === null ? undefined : (options.minSimilarity ?? toolSearchDefaults.minSimilarity);
  const unlessWordsMatch = options.unlessWordsMatch ?? toolSearchDefaults.unlessWordsMatch;
  checkLimits(limit, maxLimit, toolName);
  checkRelativeScore(options.relativeScore, toolName);
  const providerNameOf = new Map<string, string>();
  for (const [providerName, tool] of tools.toolsByName) providerNameOf.set(tool.name, providerName);
  const alwaysInclude = (options.alwaysInclude ?? [])
    .map((name) => (tools.toolsByName.has(name) ? name : providerNameOf.get(name)))
    .filter((name): name is string => name !== undefined);

  return async (args, signal) => {
    const request = readArguments(args, maxLimit, limit);
    if ('refused' in request) return request;
    const ranked = await options.searcher.select(request.query, {
      k: request.limit + alwaysInclude.length + EXTRA_CANDIDATES,
      alwaysInclude: [],
      ...(minSimilarity === undefined ? {} : { minSimilarity, unlessWordsMatch }),
      ...(signal ? { signal } : {}),
    });
    const names: string[] = [];
    const floor =
      options.relativeScore === undefined ? undefined : (ranked[0]?.score ?? 0) * options.relativeScore;
    for (const { tool, score } of ranked) {
      if (names.length >= request.limit || (floor !== undefined && score < floor)) break;
      const name = providerNameOf.get(tool.name);
      if (name !== undefined && tools.isDeferred(name) && !alwaysInclude.includes(name)) names.push(name);
    }
    if (names.length === 0) return { names, query: request.query };
    return { names: [...names, ...alwaysInclude], query: request.query };
  };
}

function readArguments(
  args: unknown,
  maxLimit: number,
  defaultLimit: number,
): { query: string; limit: number } | { refused: string } {
  let value = args;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return { refused: 'The search arguments are not JSON: send {"query": "a few words of one step"}.' };
    }
  }
  const record = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const query = record.query;
  if (typeof query !== 'string' || query.trim() === '') {
    return { refused: '"query" must be a few words describing one step, e.g. "list files in a folder".' };
  }
  const limit = record.limit ?? defaultLimit;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > maxLimit) {
    return { refused: `"limit" must be a whole number from 1 to ${maxLimit}.` };
  }
  return { query: query.trim(), limit };
}

function checkLimits(limit: number, maxLimit: number, toolName: string): void {
  if (
    !Number.isInteger(maxLimit) ||
    maxLimit < 1 ||
    !Number.isInteger(limit) ||
    limit < 1 ||
    limit > maxLimit
  ) {
    throw new SwitchboardError({
      code: 'INVALID_ARGUMENT',
      message: `${toolName}: limit (${limit}) and maxLimit (${maxLimit}) must be whole numbers with 1 <= limit <= maxLimit; leave them out for 3 and 10.`,
      context: { tool: toolName, limit, maxLimit },
    });
  }
}

function checkRelativeScore(relativeScore: number | undefined, toolName: string): void {
  if (relativeScore === undefined || (relativeScore > 0 && relativeScore <= 1)) return;
  throw new SwitchboardError({
    code: 'INVALID_ARGUMENT',
    message: `${toolName}: relativeScore (${relativeScore}) must be a share of the best score, above 0 and at most 1 (e.g. 0.5); leave it out to always find up to limit tools.`,
    context: { tool: toolName, relativeScore },
  });
}
