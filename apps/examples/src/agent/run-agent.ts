/**
 * The agent loop: select the tools that fit the request, let the model answer or call tools, run
 * the calls through the registry (validation and approval happen there), feed the results back,
 * and repeat. Tools found with `discover_tools` join the offer for the following turns.
 */
import {
  type RegisteredTool,
  type ToolRegistry,
  type WrappedToolResult,
  wrapToolResult,
} from '@switchboard/core';
import type { ToolSelector } from '@switchboard/tool-selection';
import type { ChatMessage, ModelAdapter, ToolCall } from './model-adapter.js';

/** What happens during a run, for whoever wants to show it. */
export type AgentEvent =
  | { type: 'selected'; tools: string[] }
  | { type: 'tool-call'; call: ToolCall }
  | { type: 'tool-result'; call: ToolCall; result: WrappedToolResult }
  | { type: 'discovered'; tools: string[] }
  | { type: 'answer'; text: string };

/** Options of {@link runAgent}. */
export interface RunAgentOptions {
  model: ModelAdapter;
  registry: ToolRegistry;
  selector: ToolSelector;
  /** Tools selected per request (`discover_tools` comes on top). @default 5 */
  k?: number;
  /** Model turns before giving up. @default 8 */
  maxTurns?: number;
  /** @default a short instruction to use discover_tools */
  system?: string;
  /** Earlier conversation to continue. @default [] */
  history?: ChatMessage[];
  /** Stops the run: passed to the model and to every tool call. */
  signal?: AbortSignal;
  /** Which registered tools the agent may use. @default every tool */
  allowTool?: (tool: RegisteredTool) => boolean;
  onEvent?: (event: AgentEvent) => void;
}

/** The outcome of a run. */
export interface AgentRun {
  text: string;
  /** The whole conversation, to continue it with `history`. */
  messages: ChatMessage[];
}

const defaultSystem =
  'You are a helpful assistant. Use the tools you are given. If none fits, call discover_tools ' +
  'to search all tools, then call the tool it returns by its name.';

function discoveredNames(result: WrappedToolResult): string[] {
  const tools = (result.data as { tools?: Array<{ name: string }> } | undefined)?.tools ?? [];
  return tools.map((tool) => tool.name);
}

/** Runs one request to a final answer. */
export async function runAgent(request: string, options: RunAgentOptions): Promise<AgentRun> {
  const { model, selector, onEvent, signal } = options;
  const allowTool = options.allowTool ?? (() => true);
  // Tools the agent may not use are never offered (selected or discovered) and cannot be called.
  const registry: Pick<ToolRegistry, 'get'> = {
    get: (name) => {
      const tool = options.registry.get(name);
      return tool && allowTool(tool) ? tool : undefined;
    },
  };
  const selected = await selector.select(request, { k: options.k ?? 5, ...(signal ? { signal } : {}) });
  const offered = new Map(
    selected.filter((item) => allowTool(item.tool)).map((item) => [item.name, item.tool]),
  );
  onEvent?.({ type: 'selected', tools: [...offered.keys()] });

  const messages: ChatMessage[] = options.history?.length
    ? [...options.history]
    : [{ role: 'system', content: options.system ?? defaultSystem }];
  messages.push({ role: 'user', content: request });

  for (let turn = 0; turn < (options.maxTurns ?? 8); turn++) {
    signal?.throwIfAborted();
    const reply = await model.generate({
      messages,
      tools: [...offered.values()],
      ...(signal ? { signal } : {}),
    });
    if (!reply.toolCalls?.length) {
      const text = reply.text ?? '';
      messages.push({ role: 'assistant', content: text });
      onEvent?.({ type: 'answer', text });
      return { text, messages };
    }
    messages.push({
      role: 'assistant',
      ...(reply.text ? { content: reply.text } : {}),
      toolCalls: reply.toolCalls,
    });
    for (const call of reply.toolCalls) {
      onEvent?.({ type: 'tool-call', call });
      const result = await execute(registry, call, signal);
      onEvent?.({ type: 'tool-result', call, result });
      if (call.name === 'discover_tools' && result.status === 'success') {
        const names = discoveredNames(result);
        for (const name of names) {
          const tool = registry.get(name);
          if (tool) offered.set(name, tool);
        }
        onEvent?.({ type: 'discovered', tools: names });
      }
      messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content: JSON.stringify(result) });
    }
  }
  const text = `Stopped after ${options.maxTurns ?? 8} turns without an answer.`;
  onEvent?.({ type: 'answer', text });
  return { text, messages };
}

/** Runs a call; every failure (unknown tool, bad arguments, refused approval) becomes a result the model can read. */
async function execute(
  registry: Pick<ToolRegistry, 'get'>,
  call: ToolCall,
  signal?: AbortSignal,
): Promise<WrappedToolResult> {
  const tool = registry.get(call.name);
  if (!tool?.execute) {
    return {
      status: 'error',
      error: `There is no tool named "${call.name}". Call discover_tools to find one.`,
    };
  }
  try {
    const result = await tool.execute(call.arguments, signal ? { signal } : {});
    // MCP tools come back wrapped by the client; local tools (discover_tools) are wrapped here.
    const isWrapped = typeof result === 'object' && result !== null && 'status' in result;
    return isWrapped ? (result as WrappedToolResult) : wrapToolResult(result);
  } catch (error) {
    if (signal?.aborted) throw error;
    return { status: 'error', error: error instanceof Error ? error.message : String(error) };
  }
}
