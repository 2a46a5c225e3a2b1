/** The parameters of both provider search tools: a few words of one step, and how many tools. */
import { type JsonSchema, toolSearchQueryDescription } from '@switchboard/core';

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
