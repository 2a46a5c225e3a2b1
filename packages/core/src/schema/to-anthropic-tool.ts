/**
 * Conversion of an MCP tool into an Anthropic Messages API tool. Anthropic accepts full JSON
 * Schema, so the input schema passes through unchanged unless its root breaks Anthropic's rules.
 */
import type { JsonSchema } from '../tool-definition.js';
import { checkToolName, checkToolSchema } from './check-tool-schema.js';
import { type ConvertibleTool, toolDescription } from './convertible-tool.js';
import type { ConversionResult, LossyChange } from './lossy-change.js';
import { normalizeSchema } from './normalize-schema.js';
import { toRootObjectSchema } from './root-object-schema.js';

/** An Anthropic tool definition (`tools[]` entry of the Messages API). */
export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: JsonSchema;
  /** Kept out of the context until a tool search references it (`tool_reference`). */
  defer_loading?: boolean;
}

/**
 * Converts an MCP tool to an Anthropic tool. The schema is kept as is (references, unions and all)
 * when its root is a plain object; a root union or `allOf` is normalised into one object, which is
 * reported in `lossy`.
 */
export function toAnthropicTool(tool: ConvertibleTool): ConversionResult<AnthropicTool> {
  const lossy: LossyChange[] = [];
  let inputSchema: JsonSchema = structuredClone(tool.inputSchema);
  if (checkToolSchema(inputSchema, 'anthropic').length > 0 || inputSchema.allOf !== undefined) {
    const normalised = normalizeSchema(inputSchema);
    lossy.push(...normalised.lossy);
    inputSchema = toRootObjectSchema(normalised.result, lossy);
  }
  for (const problem of checkToolName(tool.name, 'anthropic')) {
    lossy.push({ path: problem.path, kind: 'target-limit-exceeded', message: problem.message });
  }
  const description = toolDescription(tool);
  const result: AnthropicTool = { name: tool.name, input_schema: inputSchema };
  if (description !== '') result.description = description;
  return { result, lossy };
}
