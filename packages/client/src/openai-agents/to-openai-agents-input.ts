/**
 * An MCP prompt (`prompts/get` result) as Agents SDK input items, to start a run from a server's
 * prompt: `run(agent, toOpenAIAgentsInput(await connection.getPrompt(...)))`. User messages keep
 * their media (images, audio, embedded files as data URLs); the SDK's assistant messages take
 * text only, so an assistant's media becomes a line saying what it was.
 */

import type { GetPromptResult } from '@modelcontextprotocol/client';
import type { AgentInputItem, AssistantMessageItem, UserMessageItem } from '@openai/agents';

type PromptMessage = GetPromptResult['messages'][number];
type PromptContent = PromptMessage['content'];
type UserContent = Exclude<UserMessageItem['content'], string>[number];

const dataUrl = (mimeType: string, data: string): string => `data:${mimeType};base64,${data}`;

function fileNameOf(uri: string): string {
  return uri.split(/[/\\]/).filter(Boolean).pop() ?? uri;
}

/** One content block as a user part. */
function toUserPart(content: PromptContent): UserContent {
  switch (content.type) {
    case 'text':
      return { type: 'input_text', text: content.text };
    case 'image':
      return { type: 'input_image', image: dataUrl(content.mimeType, content.data) };
    case 'audio':
      return { type: 'audio', audio: content.data, format: content.mimeType.replace(/^audio\//, '') };
    case 'resource_link':
      return {
        type: 'input_text',
        text: `[resource ${content.uri}${content.name ? ` (${content.name})` : ''}]`,
      };
    case 'resource': {
      const resource = content.resource;
      if ('text' in resource) return { type: 'input_text', text: resource.text };
      return {
        type: 'input_file',
        file: dataUrl(resource.mimeType ?? 'application/octet-stream', resource.blob),
        filename: fileNameOf(resource.uri),
      };
    }
    default:
      return { type: 'input_text', text: JSON.stringify(content) };
  }
}

/** One content block as assistant text. */
function toAssistantText(content: PromptContent): string {
  switch (content.type) {
    case 'text':
      return content.text;
    case 'resource':
      return 'text' in content.resource ? content.resource.text : `[file ${content.resource.uri}]`;
    case 'resource_link':
      return `[resource ${content.uri}]`;
    case 'image':
    case 'audio':
      return `[${content.type} ${content.mimeType}]`;
    default:
      return JSON.stringify(content);
  }
}

/** The messages of an MCP prompt as Agents SDK input items, in order. */
export function toOpenAIAgentsInput(prompt: GetPromptResult): AgentInputItem[] {
  return prompt.messages.map((message): AgentInputItem => {
    if (message.role === 'assistant') {
      const item: AssistantMessageItem = {
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: toAssistantText(message.content) }],
      };
      return item;
    }
    const item: UserMessageItem = { type: 'message', role: 'user', content: [toUserPart(message.content)] };
    return item;
  });
}
