/**
 * Registered tools as LangChain tools (`DynamicStructuredTool` of `@langchain/core/tools`), shaped
 * the way LangChain's own MCP adapter (`@langchain/mcp-adapters`) shapes them: the MCP input schema
 * as the tool's JSON schema, `responseFormat: 'content_and_artifact'`, content as message content
 * blocks and the structured result and media in the ToolMessage's artifact.
 */

import { ToolMessage } from '@langchain/core/messages';
import { DynamicStructuredTool, type ToolRunnableConfig } from '@langchain/core/tools';
import type { RegisteredTool } from '@switchboard/core';
import { type AdapterToolOptions, toAdapterTool } from '../framework-adapter/adapter-tool.js';
import { type ToolSource, type ToolSourceOptions, toolsOf } from '../framework-adapter/tool-source.js';
import { askInGraph, canInterrupt } from './langchain-approval.js';
import { artifactOf, type LangChainToolArtifact } from './langchain-tool-artifact.js';
import { type LangChainContent, toLangChainContent } from './to-langchain-content.js';
import { ToolException } from './tool-exception.js';

/** Options of {@link toLangChainTools}. */
export interface LangChainToolsOptions
  extends ToolSourceOptions,
    Pick<AdapterToolOptions, 'content' | 'callOptions'> {
  /**
   * Who asks a person about tools whose policy says `ask`: `'interrupt'` pauses the LangGraph graph
   * (`interrupt()`; resume with `new Command({ resume: true | false })`) when the call runs in a graph
   * with a checkpointer, and leaves it to the `approve` callback of `connectMcp` anywhere else;
   * `'client'` always leaves it to that callback.
   * @default 'interrupt'
   */
  approvals?: 'interrupt' | 'client';
  /**
   * Mark the tools `extras: { defer_loading: true }`, which `@langchain/anthropic` and
   * `@langchain/openai` send as `defer_loading`: the model sees a tool only once the provider's
   * hosted tool search loads it (add that search tool yourself). @default false
   */
  deferLoading?: boolean;
  /** Tools sent up front despite `deferLoading`, by public or LangChain name. @default [] */
  alwaysLoad?: readonly string[];
}

/** A LangChain tool made from a registered tool (its result is a ToolMessage, or content and artifact). */
export type LangChainTool = DynamicStructuredTool;

/**
 * A ToolMessage with `status: 'error'`: returned in place of the content (LangChain passes a
 * ToolMessage through as is), so the model reads the server's own words, not a stack trace.
 */
function errorMessage(
  toolCallId: string,
  name: string,
  content: LangChainContent,
  artifact?: LangChainToolArtifact,
): [ToolMessage, undefined] {
  return [new ToolMessage({ status: 'error', tool_call_id: toolCallId, name, content, artifact }), undefined];
}

/** One registered tool as a LangChain tool. */
export function toLangChainTool(tool: RegisteredTool, options: LangChainToolsOptions = {}): LangChainTool {
  const interrupts = (options.approvals ?? 'interrupt') === 'interrupt';
  const adapter = toAdapterTool(tool, {
    approvals: interrupts ? 'framework' : 'client',
    ...(options.content === undefined ? {} : { content: options.content }),
    ...(options.callOptions === undefined ? {} : { callOptions: options.callOptions }),
  });
  const run = async (args: unknown, config: ToolRunnableConfig = {}) => {
    const toolCallId = config.toolCall?.id;
    let approved = false;
    // Outside a graph that can pause, the call goes on without `approved`, so the client's
    // `approve` callback asks (or, with none, the call is refused): it never runs unasked.
    if (adapter.needsApproval() && canInterrupt(config)) {
      const reason = tool.approval?.().reason;
      const answer = await askInGraph({
        type: 'tool_approval',
        toolName: adapter.name,
        server: tool.server,
        tool: tool.originalName,
        args,
        ...(toolCallId === undefined ? {} : { toolCallId }),
        ...(reason === undefined ? {} : { reason }),
      });
      if (!answer.approved) {
        // The words of LangChain's human-in-the-loop middleware for a rejected call.
        const refusal = `User rejected the tool call for \`${adapter.name}\` with id ${toolCallId ?? '(none)'}${answer.reason === undefined ? '' : `: ${answer.reason}`}. It did not run.`;
        if (toolCallId !== undefined) return errorMessage(toolCallId, adapter.name, refusal);
        throw new ToolException(refusal);
      }
      approved = true;
    }
    const content = await adapter.call(args, {
      approved,
      ...(config.signal === undefined ? {} : { signal: config.signal }),
    });
    const artifact = artifactOf(content);
    if (content.isError) {
      if (toolCallId !== undefined)
        return errorMessage(toolCallId, adapter.name, toLangChainContent(content), artifact);
      throw new ToolException(content.text, { artifact });
    }
    return [toLangChainContent(content), artifact] as const;
  };
  // The class, not the `tool()` helper: the helper runs each call inside its own AsyncLocalStorage
  // scope and abort race, some 35 µs a call, and neither is needed here (the graph's scope already
  // holds what `interrupt()` reads, and the signal reaches the MCP call, which rejects on abort).
  return new DynamicStructuredTool({
    name: adapter.name,
    description: adapter.description,
    schema: adapter.inputSchema as Record<string, unknown>,
    responseFormat: 'content_and_artifact',
    metadata: {
      server: tool.server,
      tool: tool.originalName,
      ...(tool.annotations ? { annotations: tool.annotations } : {}),
    },
    ...(isDeferred(tool, adapter.name, options) ? { extras: { defer_loading: true } } : {}),
    func: (input: unknown, _runManager: unknown, config?: ToolRunnableConfig) => run(input, config),
  }) as LangChainTool;
}

function isDeferred(tool: RegisteredTool, name: string, options: LangChainToolsOptions): boolean {
  if (options.deferLoading !== true) return false;
  const alwaysLoad = options.alwaysLoad ?? [];
  return !alwaysLoad.includes(name) && !alwaysLoad.includes(tool.name);
}

/**
 * The runnable tools of a source now, as LangChain tools for `model.bindTools`, a `ToolNode` or
 * `createReactAgent`. Tools whose policy says `deny` are left out unless `includeDenied`.
 */
export function toLangChainTools(source: ToolSource, options: LangChainToolsOptions = {}): LangChainTool[] {
  return toolsOf(source, options).map((tool) => toLangChainTool(tool, options));
}

/**
 * Makes each registered tool's LangChain tool once and hands out the same object after, so the
 * tools bound to the model and the tool node's are the same objects across turns.
 */
export function createLangChainToolMaker(
  options: LangChainToolsOptions = {},
): (tool: RegisteredTool) => LangChainTool {
  const made = new WeakMap<RegisteredTool, LangChainTool>();
  return (tool) => {
    let existing = made.get(tool);
    if (existing === undefined) {
      existing = toLangChainTool(tool, options);
      made.set(tool, existing);
    }
    return existing;
  };
}
