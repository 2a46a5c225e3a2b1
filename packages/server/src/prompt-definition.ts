/** Prompts a Switchboard MCP server serves. */
import type { GetPromptResult, PromptArgument } from '@modelcontextprotocol/sdk/types.js';

/** A prompt: named arguments in, messages out. */
export interface PromptDefinition {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  /** Builds the prompt's messages; a string becomes one user text message. */
  get(
    args: Record<string, string>,
    context: { signal: AbortSignal },
  ): Promise<GetPromptResult | string> | GetPromptResult | string;
  /** Completion of arguments: values for argument `name` starting like `value`. */
  complete?: Record<
    string,
    (value: string, context: { arguments: Record<string, string> }) => Promise<string[]> | string[]
  >;
}
