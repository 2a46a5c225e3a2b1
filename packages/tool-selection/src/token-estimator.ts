/**
 * Token accounting: how much of a model's context the selected tools' definitions take, against
 * sending every tool. An estimate, not a tokenizer: providers tokenise differently, and about four
 * characters per token over the JSON definition is the usual rule of thumb for English and JSON.
 */
import type { RegisteredTool } from '@switchboard/core';

/** Estimates the tokens a tool's definition costs in a prompt. */
export type TokenEstimator = (tool: Pick<RegisteredTool, 'name' | 'description' | 'inputSchema'>) => number;

/** Options of {@link createTokenEstimator}. */
export interface TokenEstimatorOptions {
  /** Characters per token. @default 4 */
  charactersPerToken?: number;
}

/** Creates the default estimator: `ceil(length of JSON {name, description, inputSchema} / charactersPerToken)`. */
export function createTokenEstimator(options: TokenEstimatorOptions = {}): TokenEstimator {
  const charactersPerToken = options.charactersPerToken ?? 4;
  return (tool) =>
    Math.ceil(
      JSON.stringify({ name: tool.name, description: tool.description, input_schema: tool.inputSchema })
        .length / charactersPerToken,
    );
}

/** Token usage of one selection. */
export interface TokenUsage {
  /** Estimated tokens of the selected tools' definitions. */
  selectedTokens: number;
  /** Estimated tokens of every registered tool's definition. */
  totalTokens: number;
  /** `totalTokens - selectedTokens`. */
  savedTokens: number;
  selectedTools: number;
  totalTools: number;
}
