/**
 * MCP prompts and resources as AI SDK messages: a prompt's messages (`prompts/get`) become
 * `ModelMessage[]` to start or continue a conversation with, and a resource's contents
 * (`resources/read`) become the content of a user message. Text stays text; images, audio and
 * binary resources become the AI SDK's image and file parts, which its providers send natively.
 */
import type {
  EmbeddedResource,
  GetPromptResult,
  PromptMessage,
  ReadResourceResult,
} from '@modelcontextprotocol/client';
import type { AssistantContent, FilePart, ImagePart, ModelMessage, TextPart, UserContent } from 'ai';

type ResourceContents = ReadResourceResult['contents'][number];
type UserPart = TextPart | ImagePart | FilePart;

function fileName(uri: string): string | undefined {
  const last = uri.split(/[/\\]/).pop()?.split(/[?#]/)[0];
  return last === undefined || last === '' ? undefined : last;
}

/** One resource's contents as a part: its text, or its blob as an image or a file. */
function resourcePart(contents: ResourceContents): UserPart {
  if ('text' in contents && typeof contents.text === 'string') return { type: 'text', text: contents.text };
  const blob = (contents as { blob: string }).blob;
  const mediaType = contents.mimeType ?? 'application/octet-stream';
  if (mediaType.startsWith('image/')) return { type: 'image', image: blob, mediaType };
  const filename = fileName(contents.uri);
  return { type: 'file', data: blob, mediaType, ...(filename === undefined ? {} : { filename }) };
}

/** One content block of a prompt message as a part. */
function promptPart(content: PromptMessage['content']): UserPart {
  switch (content.type) {
    case 'text':
      return { type: 'text', text: content.text };
    case 'image':
      return { type: 'image', image: content.data, mediaType: content.mimeType };
    case 'audio':
      return { type: 'file', data: content.data, mediaType: content.mimeType };
    case 'resource':
      return resourcePart((content as EmbeddedResource).resource);
    case 'resource_link':
      // A link is not fetched here (that is a `resources/read` of its own): the model learns where it is.
      return {
        type: 'text',
        text: `[resource ${content.uri}${content.mimeType ? ` (${content.mimeType})` : ''}${content.description ? `: ${content.description}` : ''}]`,
      };
    default:
      return { type: 'text', text: JSON.stringify(content) };
  }
}

/** An assistant message takes no image parts: an image it "said" is a file part of an image type. */
function asAssistantPart(part: UserPart): Exclude<AssistantContent, string>[number] {
  return part.type === 'image'
    ? { type: 'file', data: part.image, mediaType: part.mediaType ?? 'image/png' }
    : part;
}

/** An MCP prompt (`GetPromptResult`) as AI SDK messages, one per prompt message, in order. */
export function toAISDKMessages(prompt: Pick<GetPromptResult, 'messages'>): ModelMessage[] {
  return prompt.messages.map((message): ModelMessage => {
    const part = promptPart(message.content);
    return message.role === 'assistant'
      ? { role: 'assistant', content: [asAssistantPart(part)] }
      : { role: 'user', content: [part] };
  });
}

/**
 * An MCP resource (`ReadResourceResult`) as the content of a user message, one part per
 * contents entry: `{ role: 'user', content: toAISDKResourceContent(await readResource(uri)) }`.
 */
export function toAISDKResourceContent(resource: Pick<ReadResourceResult, 'contents'>): UserContent {
  return resource.contents.map(resourcePart);
}
