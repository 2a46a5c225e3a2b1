/**
 * MCP prompts and resources as LangChain messages: a `GetPromptResult` becomes `HumanMessage`s and
 * `AIMessage`s (MCP prompts have only those two roles), and a resource's contents become message
 * content blocks to put into a message of the application's own.
 */

import { AIMessage, type ContentBlock, HumanMessage } from '@langchain/core/messages';
import type { GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/client';

type PromptContent = GetPromptResult['messages'][number]['content'];
type ResourceContents = ReadResourceResult['contents'][number];

/** The standard block kind for a media type: images and audio are their own kinds, the rest are files. */
function mediaKind(mimeType: string | undefined): 'image' | 'audio' | 'file' {
  if (mimeType?.startsWith('image/')) return 'image';
  if (mimeType?.startsWith('audio/')) return 'audio';
  return 'file';
}

function resourceBlock(resource: ResourceContents): ContentBlock {
  if ('text' in resource && typeof resource.text === 'string') return { type: 'text', text: resource.text };
  const blob = 'blob' in resource && typeof resource.blob === 'string' ? resource.blob : '';
  const mimeType = resource.mimeType ?? 'application/octet-stream';
  return { type: mediaKind(mimeType), data: blob, mimeType, metadata: { uri: resource.uri } };
}

function promptBlock(content: PromptContent): ContentBlock {
  switch (content.type) {
    case 'text':
      return { type: 'text', text: content.text };
    case 'image':
    case 'audio':
      return { type: content.type, data: content.data, mimeType: content.mimeType };
    case 'resource':
      return resourceBlock(content.resource);
    case 'resource_link':
      // A link is not content yet: the model learns it exists and can ask for it (`read_resource`).
      return { type: 'text', text: `[resource ${content.uri}${content.name ? ` (${content.name})` : ''}]` };
    default:
      return { type: 'text', text: JSON.stringify(content) };
  }
}

/** A resource's contents (`readResource`) as LangChain content blocks: text as text, binary as image/audio/file blocks. */
export function toLangChainResourceContent(result: ReadResourceResult): ContentBlock[] {
  return result.contents.map(resourceBlock);
}

/** An MCP prompt (`getPrompt`) as LangChain messages, in order; a text-only message gets string content. */
export function toLangChainMessages(prompt: GetPromptResult): Array<HumanMessage | AIMessage> {
  return prompt.messages.map((message) => {
    const block = promptBlock(message.content);
    const content = block.type === 'text' ? (block as ContentBlock.Text).text : [block];
    return message.role === 'assistant' ? new AIMessage({ content }) : new HumanMessage({ content });
  });
}
