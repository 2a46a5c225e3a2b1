import type { RegisteredTool, ToolInput } from '@switchboard/core';

/**
 * A tool of one registry as input for another under the same public name, so a tool served by a
 * gateway or next to an agent keeps the name its source registry gave it (and its `_meta` and app).
 */
export function republishTool(tool: RegisteredTool, execute = tool.execute): ToolInput {
  const toolMeta = (tool.meta as { _meta?: unknown } | undefined)?._meta;
  return {
    server: tool.server,
    name: tool.originalName,
    publicName: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    ...(tool.title !== undefined ? { title: tool.title } : {}),
    ...(tool.outputSchema !== undefined ? { outputSchema: tool.outputSchema } : {}),
    ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
    ...(tool.app !== undefined ? { app: tool.app } : {}),
    ...(toolMeta !== undefined ? { meta: { _meta: toolMeta } } : {}),
    ...(execute !== undefined ? { execute } : {}),
  };
}
