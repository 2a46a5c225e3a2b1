/**
 * Model parts (core's `toToolResultContent`) as LangChain message content. Media become the
 * standard v1 data blocks of @langchain/core 1.x (`{ type: 'image', data, mimeType }`), which every
 * LangChain chat model integration translates into its provider's own shape; the provider-specific
 * `image_url` form would reach only the OpenAI-style ones.
 */

import type { ContentBlock } from '@langchain/core/messages';
import type { ToolResultContent, ToolResultPart } from '@switchboard/core';

/** LangChain message content: a plain string, or content blocks. */
export type LangChainContent = string | ContentBlock[];

/** One model part as a LangChain content block. */
export function toLangChainBlock(part: ToolResultPart): ContentBlock {
  if (part.type === 'text') return { type: 'text', text: part.text };
  const block: ContentBlock.Multimodal.Data = { type: part.type, data: part.data, mimeType: part.mimeType };
  if (part.uri !== undefined) block.metadata = { uri: part.uri };
  return block;
}

/**
 * A tool result as ToolMessage content: a string when it is text only (what every provider takes
 * as tool content), else the text block (when not empty) and the media blocks.
 */
export function toLangChainContent(content: ToolResultContent): LangChainContent {
  const media = content.parts.filter((part) => part.type !== 'text');
  if (media.length === 0) return content.text;
  const blocks = media.map(toLangChainBlock);
  return content.text === '' ? blocks : [{ type: 'text', text: content.text }, ...blocks];
}
