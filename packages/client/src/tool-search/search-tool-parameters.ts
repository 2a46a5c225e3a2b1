/** The parameters of both provider search tools: a few words of one step, and how many tools. */
import { type JsonSchema, perStepSearchGuidance, toolSearchQueryDescription } from '@switchboard/core';

/** The JSON Schema of a search tool's input, with `maxLimit` and the default `limit` stated. */
export function searchToolParameters(limit: number, maxLimit: number): JsonSchema {
  return {
    type: 'object',
    properties: {
      query: { type: 'string', minLength: 1, description: toolSearchQueryDescription },
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: maxLimit,
        description: `How many tools to load (default ${limit}).`,
      },
    },
    required: ['query'],
    additionalProperties: false,
  };
}

/** What Claude's search tool says it does, with the per-step guidance (every Anthropic-shaped search). */
export const loadToolsDescription = `Find the tools for one step of your task: loads the definitions of the few tools that fit, which you can call next. ${perStepSearchGuidance}`;

/** What OpenAI's `tool_search` says it does, with the per-step guidance (every OpenAI-shaped search). */
export const loadFromNamespacesDescription = `Load the tools for one step of your task from the namespaces listed. ${perStepSearchGuidance}`;
