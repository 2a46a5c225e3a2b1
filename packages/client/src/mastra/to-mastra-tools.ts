/**
 * Registered tools as Mastra tools (`createTool` of `@mastra/core/tools`) for a Mastra `Agent`:
 * the MCP input schema as the tool's JSON schema (Mastra 1.x takes JSON Schema as it takes zod),
 * Mastra's own `requireApproval` for tools whose policy asks (the agent pauses; `approveToolCall`
 * / `declineToolCall` answer), the run's abort signal passed on to the MCP call, and a
 * `toModelOutput` that gives the model images and files as media parts, not as JSON text.
 */

import { createTool } from '@mastra/core/tools';
import type { JsonSchema, RegisteredTool, ToolResultContent, ToolResultPart } from '@switchboard/core';
import { type AdapterToolOptions, toAdapterTool } from '../framework-adapter/adapter-tool.js';
import { type ToolSource, type ToolSourceOptions, toolsOf } from '../framework-adapter/tool-source.js';

/** Options of {@link toMastraTools}. */
export interface MastraToolsOptions extends ToolSourceOptions, AdapterToolOptions {}

/** What a Mastra tool returns (`toolResults[].payload.result`); the model gets it through `toModelOutput`. */
export interface MastraToolOutput {
  isError: boolean;
  /** The text of the result (within the text budget). */
  text: string;
  /** Images, audio and files of the result, base64. */
  media: ToolResultPart[];
  /** The result's `structuredContent`, when it had one. */
  structuredContent?: unknown;
  /** Media left out (modality not accepted, over the budget), each with why. */
  omitted: ToolResultContent['omitted'];
}

/** An AI SDK tool-result output (what Mastra's `toModelOutput` returns). */
export type MastraModelOutput =
  | { type: 'text'; value: string }
  | { type: 'error-text'; value: string }
  | {
      type: 'content';
      value: Array<
        { type: 'text'; text: string } | { type: 'image-data' | 'file-data'; data: string; mediaType: string }
      >;
    };

/** A Mastra tool made from a registered tool. */
export type MastraTool = ReturnType<typeof createTool>;

function outputOf(content: ToolResultContent): MastraToolOutput {
  const output: MastraToolOutput = {
    isError: content.isError,
    text: content.text,
    media: content.parts.filter((part) => part.type !== 'text'),
    omitted: content.omitted,
  };
  if (content.data !== undefined) output.structuredContent = content.data;
  return output;
}

/** A tool output as the model's tool result: text alone, or text and media parts; an error answer as error text. */
export function toMastraModelOutput(output: MastraToolOutput): MastraModelOutput {
  if (output.isError) return { type: 'error-text', value: output.text };
  if (output.media.length === 0) return { type: 'text', value: output.text };
  const value: Extract<MastraModelOutput, { type: 'content' }>['value'] = [];
  if (output.text !== '') value.push({ type: 'text', text: output.text });
  for (const part of output.media) {
    if (part.type === 'text') continue;
    value.push({
      type: part.type === 'image' ? 'image-data' : 'file-data',
      data: part.data,
      mediaType: part.mimeType,
    });
  }
  return { type: 'content', value };
}

/** One registered tool as a Mastra tool. */
export function toMastraTool(tool: RegisteredTool, options: MastraToolsOptions = {}): MastraTool {
  const adapter = toAdapterTool(tool, options);
  return createTool({
    id: adapter.name,
    description: adapter.description,
    inputSchema: adapter.inputSchema as JsonSchema as Parameters<typeof createTool>[0]['inputSchema'],
    // Read per call, so a policy that changes (or a `deny` that became `ask`) is followed.
    requireApproval: () => adapter.needsApproval(),
    execute: async (input, context) => {
      const content = await adapter.call(input, {
        // Mastra runs a tool that requires approval only after a person approved it.
        approved: adapter.needsApproval(),
        ...(context?.abortSignal === undefined ? {} : { signal: context.abortSignal }),
      });
      return outputOf(content);
    },
    toModelOutput: (output: unknown) => toMastraModelOutput(output as MastraToolOutput),
  }) as MastraTool;
}

/**
 * The runnable tools of a source now, keyed by their provider-safe names, for `new Agent({ tools })`
 * (or a dynamic `tools: () => toMastraTools(connection)`, which follows `list_changed`).
 */
export function toMastraTools(
  source: ToolSource,
  options: MastraToolsOptions = {},
): Record<string, MastraTool> {
  const tools: Record<string, MastraTool> = {};
  for (const tool of toolsOf(source, options)) {
    const made = toMastraTool(tool, options);
    tools[made.id] = made;
  }
  return tools;
}
