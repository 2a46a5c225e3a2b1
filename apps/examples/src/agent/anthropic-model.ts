/**
 * An adapter for Anthropic-compatible Messages APIs: plain `fetch` to `/v1/messages`, tools
 * converted by core. Tool results go back as `tool_result` blocks of one user message.
 */
import { toAnthropicTool } from '@switchboard/core';
import type { ChatMessage, ModelAdapter, ModelReply, ToolCall } from './model-adapter.js';
import { postJson } from './post-json.js';

/** Options of {@link createAnthropicModel}. */
export interface AnthropicModelOptions {
  apiKey: string;
  /** @default 'claude-sonnet-4-5' */
  model?: string;
  /** Server root; `/v1/messages` is appended. @default 'https://api.anthropic.com' */
  baseUrl?: string;
  /** @default 1024 */
  maxTokens?: number;
}

type Block = Record<string, unknown>;
type AnthropicMessage = { role: 'user' | 'assistant'; content: string | Block[] };

function toAnthropicMessages(messages: ChatMessage[]): AnthropicMessage[] {
  const result: AnthropicMessage[] = [];
  for (const message of messages) {
    if (message.role === 'assistant') {
      const content: Block[] = message.content ? [{ type: 'text', text: message.content }] : [];
      for (const call of message.toolCalls ?? []) {
        content.push({ type: 'tool_use', id: call.id, name: call.name, input: call.arguments });
      }
      result.push({ role: 'assistant', content });
    } else if (message.role === 'tool') {
      const block = { type: 'tool_result', tool_use_id: message.toolCallId, content: message.content };
      // Consecutive tool results belong in one user turn.
      const previous = result.at(-1);
      if (previous?.role === 'user' && Array.isArray(previous.content)) previous.content.push(block);
      else result.push({ role: 'user', content: [block] });
    } else if (message.role === 'user') {
      result.push({ role: 'user', content: message.content });
    }
  }
  return result;
}

/** Creates a model adapter for an Anthropic-compatible endpoint. */
export function createAnthropicModel(options: AnthropicModelOptions): ModelAdapter {
  const model = options.model ?? 'claude-sonnet-4-5';
  const url = `${(options.baseUrl ?? 'https://api.anthropic.com').replace(/\/$/, '')}/v1/messages`;
  return {
    name: `anthropic-compatible ${model}`,
    async generate({ messages, tools, signal }): Promise<ModelReply> {
      const system = messages
        .filter((message) => message.role === 'system')
        .map((message) => message.content);
      const response = await postJson(url, {
        headers: {
          'content-type': 'application/json',
          'x-api-key': options.apiKey,
          'anthropic-version': '2023-06-01',
        },
        body: JSON.stringify({
          model,
          max_tokens: options.maxTokens ?? 1024,
          ...(system.length > 0 ? { system: system.join('\n\n') } : {}),
          messages: toAnthropicMessages(messages),
          ...(tools.length > 0 ? { tools: tools.map((tool) => toAnthropicTool(tool).result) } : {}),
        }),
        ...(signal ? { signal } : {}),
      });
      const body = (await response.json()) as { content: Array<Block & { type: string }> };
      const toolCalls: ToolCall[] = body.content
        .filter((block) => block.type === 'tool_use')
        .map((block) => ({
          id: String(block.id),
          name: String(block.name),
          arguments: (block.input ?? {}) as Record<string, unknown>,
        }));
      if (toolCalls.length > 0) return { toolCalls };
      const text = body.content.filter((block) => block.type === 'text').map((block) => String(block.text));
      return { text: text.join('') };
    },
  };
}
