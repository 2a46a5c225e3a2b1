/**
 * The model side of the agent loop, provider-neutral: a conversation goes in with the tools on
 * offer, and either text or tool calls come out. Adapters translate this to a provider's wire format.
 */
import type { ConvertibleTool } from '@switchboard/core';

/** A tool call the model asked for. */
export interface ToolCall {
  id: string;
  /** Public (namespaced) tool name. */
  name: string;
  arguments: Record<string, unknown>;
}

/** One message of the conversation. */
export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content?: string; toolCalls?: ToolCall[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string };

/** What the model answers: final text, or tool calls to run first. */
export interface ModelReply {
  text?: string;
  toolCalls?: ToolCall[];
}

/** A request to the model. */
export interface GenerateRequest {
  messages: ChatMessage[];
  /** The tools on offer this turn (any registered tool fits). */
  tools: ConvertibleTool[];
  signal?: AbortSignal;
}

/** A model the agent loop can drive. */
export interface ModelAdapter {
  /** Shown in logs: provider and model. */
  readonly name: string;
  generate(request: GenerateRequest): Promise<ModelReply>;
}
