/**
 * An adapter for OpenAI-compatible Chat Completions APIs (OpenAI, Azure-style proxies, vLLM,
 * Ollama, LM Studio...): plain `fetch` to `/v1/chat/completions`, tools converted by core.
 */
import { toOpenAITool } from '@switchboard/core';
import type { ChatMessage, ModelAdapter, ModelReply } from './model-adapter.js';
import { postJson } from './post-json.js';

/** Options of {@link createOpenAIModel}. */
export interface OpenAIModelOptions {
  apiKey: string;
  /** @default 'gpt-4.1-mini' */
  model?: string;
  /** Server root; `/v1/chat/completions` is appended. @default 'https://api.openai.com' */
  baseUrl?: string;
}

interface OpenAIToolCall {
  id: string;
  function: { name: string; arguments: string };
}

function toOpenAIMessage(message: ChatMessage): Record<string, unknown> {
  if (message.role === 'tool') {
    return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
  }
  if (message.role === 'assistant') {
    return {
      role: 'assistant',
      content: message.content ?? null,
      ...(message.toolCalls?.length
        ? {
            tool_calls: message.toolCalls.map((call) => ({
              id: call.id,
              type: 'function',
              function: { name: call.name, arguments: JSON.stringify(call.arguments) },
            })),
          }
        : {}),
    };
  }
  return { role: message.role, content: message.content };
}

/** Creates a model adapter for an OpenAI-compatible endpoint. */
export function createOpenAIModel(options: OpenAIModelOptions): ModelAdapter {
  const model = options.model ?? 'gpt-4.1-mini';
  const url = `${(options.baseUrl ?? 'https://api.openai.com').replace(/\/$/, '')}/v1/chat/completions`;
  return {
    name: `openai-compatible ${model}`,
    async generate({ messages, tools, signal }): Promise<ModelReply> {
      const response = await postJson(url, {
        headers: { 'content-type': 'application/json', authorization: `Bearer ${options.apiKey}` },
        body: JSON.stringify({
          model,
          messages: messages.map(toOpenAIMessage),
          ...(tools.length > 0 ? { tools: tools.map((tool) => toOpenAITool(tool).result) } : {}),
        }),
        ...(signal ? { signal } : {}),
      });
      const body = (await response.json()) as {
        choices: Array<{ message: { content: string | null; tool_calls?: OpenAIToolCall[] } }>;
      };
      const message = body.choices[0]?.message;
      const toolCalls = (message?.tool_calls ?? []).map((call) => ({
        id: call.id,
        name: call.function.name,
        arguments: JSON.parse(call.function.arguments || '{}') as Record<string, unknown>,
      }));
      return toolCalls.length > 0 ? { toolCalls } : { text: message?.content ?? '' };
    },
  };
}
