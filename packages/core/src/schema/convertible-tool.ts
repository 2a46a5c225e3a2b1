/**
 * The part of a tool the provider converters read: an MCP tool definition and a registered tool
 * both qualify.
 */
import type { JsonSchema } from '../tool-definition.js';

/** A tool the converters accept (`McpToolDefinition` or `RegisteredTool`). */
export interface ConvertibleTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchema;
}

/** The description providers see: the tool's description, else its title, else empty. */
export function toolDescription(tool: ConvertibleTool): string {
  if (typeof tool.description === 'string' && tool.description !== '') return tool.description;
  return typeof tool.title === 'string' ? tool.title : '';
}
