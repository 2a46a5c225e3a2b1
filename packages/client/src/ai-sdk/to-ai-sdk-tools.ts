/**
 * The tools of a source as an AI SDK `ToolSet`, for `generateText`, `streamText` and `Agent`.
 * Each is a dynamic tool (its types are known at run time only) whose `execute` calls the MCP
 * tool and whose `toModelOutput` gives the model text, images and files as the AI SDK's own parts.
 *
 * Approval goes through the AI SDK's own path: a tool whose policy says `ask` has `needsApproval`,
 * so the loop stops with a `tool-approval-request`; the application asks a person and sends a
 * `tool-approval-response`; the next call runs the tool, which then tells the client the person
 * said yes (`approved: true`). A denied call never reaches `execute`: the model gets the AI SDK's
 * `execution-denied`.
 */

import type { ToolResultContent } from '@switchboard/core';
import { dynamicTool, jsonSchema, type ModelMessage, type ToolSet } from 'ai';
import { type AdapterToolOptions, toAdapterTool } from '../framework-adapter/adapter-tool.js';
import { toProviderToolNames } from '../framework-adapter/provider-tool-names.js';
import {
  type AdapterSelectOptions,
  type ToolSource,
  type ToolSourceOptions,
  toolsOf,
} from '../framework-adapter/tool-source.js';
import { toAISDKToolOutput } from './to-ai-sdk-tool-output.js';

/** Options of {@link toAISDKTools} (and of `createAISDKPrepareStep`, so one object serves both). */
export interface AISDKToolsOptions extends AdapterToolOptions, ToolSourceOptions {
  /**
   * Per-step tool selection. `toAISDKTools` still gives every tool (a call to any of them runs);
   * `createAISDKPrepareStep` with the same options narrows what each step offers.
   */
  select?: AdapterSelectOptions;
}

/**
 * Whether the messages hold a person's yes to this tool call: a `tool-approval-request` for the
 * call and an approving `tool-approval-response` to it. The AI SDK runs a tool that needs
 * approval only then; reading it from the messages (not from a flag kept here) keeps it true
 * across processes, when the continuation runs on another server than the request.
 */
export function isApprovedToolCall(messages: readonly ModelMessage[], toolCallId: string): boolean {
  const approvalIds = new Set<string>();
  for (const message of messages) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    for (const part of message.content) {
      if (part.type === 'tool-approval-request' && part.toolCallId === toolCallId)
        approvalIds.add(part.approvalId);
    }
  }
  if (approvalIds.size === 0) return false;
  return messages.some(
    (message) =>
      message.role === 'tool' &&
      message.content.some(
        (part) => part.type === 'tool-approval-response' && part.approved && approvalIds.has(part.approvalId),
      ),
  );
}

/**
 * The runnable tools of a source as an AI SDK `ToolSet`, keyed by provider-safe names. A
 * connection is read when this is called: call it per request to follow tools that come and go.
 */
export function toAISDKTools(source: ToolSource, options: AISDKToolsOptions = {}): ToolSet {
  const tools: ToolSet = {};
  for (const [name, registered] of toProviderToolNames(toolsOf(source, options))) {
    const adapter = toAdapterTool(registered, options);
    tools[name] = dynamicTool({
      description: adapter.description,
      ...(registered.title === undefined ? {} : { title: registered.title }),
      // Not sent to the model: it lands on tool call parts, so a UI can show which server a call went to.
      metadata: { server: registered.server, tool: registered.originalName },
      inputSchema: jsonSchema(adapter.inputSchema),
      needsApproval: () => adapter.needsApproval(),
      execute: (input, { abortSignal, messages, toolCallId }): Promise<ToolResultContent> =>
        adapter.call(input, {
          ...(abortSignal === undefined ? {} : { signal: abortSignal }),
          ...(isApprovedToolCall(messages, toolCallId) ? { approved: true } : {}),
        }),
      toModelOutput: ({ output }) => toAISDKToolOutput(output as ToolResultContent),
    });
  }
  return tools;
}
