/**
 * A tool result as an Anthropic Messages API `tool_result` block: text, images and PDFs as
 * Anthropic's own blocks. Anthropic's tool results take no audio and no other files, so those
 * become text stand-ins (see `toToolResultContent`) instead of a request Anthropic rejects.
 */
import {
  type ToolResultContentOptions,
  type ToolResultModality,
  toToolResultContent,
} from './tool-result-content.js';

/** A block of an Anthropic `tool_result`'s content. */
export type AnthropicToolResultBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; source: { type: 'base64'; media_type: string; data: string } }
  | { type: 'document'; source: { type: 'base64'; media_type: 'application/pdf'; data: string } };

/** An Anthropic `tool_result` content block (goes into the next `user` message). */
export interface AnthropicToolResult {
  type: 'tool_result';
  tool_use_id: string;
  content: AnthropicToolResultBlock[];
  is_error?: true;
}

/** Options of {@link toAnthropicToolResult}: budgets of `toToolResultContent` (the media kinds are Anthropic's). */
export type ToAnthropicToolResultOptions = Omit<ToolResultContentOptions, 'modalities' | 'mimeTypes'>;

const modalities: readonly ToolResultModality[] = ['image', 'file'];
// The image types the Messages API reads; PDF is its one document type with base64 data.
const mimeTypes = {
  image: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'],
  file: ['application/pdf'],
};

/** Converts a tool result (an MCP `CallToolResult`, an error, or a value) into an Anthropic `tool_result` block. */
export function toAnthropicToolResult(
  toolUseId: string,
  result: unknown,
  options: ToAnthropicToolResultOptions = {},
): AnthropicToolResult {
  const content = toToolResultContent(result, { ...options, modalities, mimeTypes });
  const blocks: AnthropicToolResultBlock[] = [];
  for (const part of content.parts) {
    // Anthropic rejects an empty text block.
    if (part.type === 'text') {
      if (part.text !== '') blocks.push({ type: 'text', text: part.text });
    } else if (part.type === 'image') {
      blocks.push({ type: 'image', source: { type: 'base64', media_type: part.mimeType, data: part.data } });
    } else if (part.type === 'file') {
      blocks.push({
        type: 'document',
        source: { type: 'base64', media_type: 'application/pdf', data: part.data },
      });
    }
  }
  const block: AnthropicToolResult = { type: 'tool_result', tool_use_id: toolUseId, content: blocks };
  if (content.isError) block.is_error = true;
  return block;
}
