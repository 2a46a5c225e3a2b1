/**
 * OpenAI Responses API tool search, client-executed: the `tool_search` tool, the namespaces that
 * group deferred functions (one per MCP server), and the `tool_search_output` item that answers the
 * model's `tool_search_call` with the definitions of the tools found (OpenAI appends them at the end
 * of the context, so the prompt cache survives).
 */
import type { JsonSchema } from './tool-definition.js';

/** A function inside a namespace (`tools[].tools[]`); `defer_loading` keeps its schema out until searched. */
export interface OpenAINamespaceFunction {
  type: 'function';
  name: string;
  description?: string;
  parameters: JsonSchema;
  strict?: boolean;
  defer_loading?: boolean;
}

/**
 * A namespace (`tools[]` entry of type `namespace`): its name and description are always shown to
 * the model; the functions inside it marked `defer_loading` only once a search loads them.
 */
export interface OpenAINamespaceTool {
  type: 'namespace';
  name: string;
  description: string;
  tools: OpenAINamespaceFunction[];
}

/** The client-executed tool search tool (`tools[]` entry of type `tool_search`). */
export interface OpenAIToolSearchTool {
  type: 'tool_search';
  execution: 'client';
  description: string;
  parameters: JsonSchema;
}

/** The model's call of a client-executed tool search (an output item of type `tool_search_call`). */
export interface OpenAIToolSearchCall {
  type: 'tool_search_call';
  call_id?: string | null;
  /** The arguments, as the `parameters` of the `tool_search` tool describe them (an object, or its JSON). */
  arguments: unknown;
  execution?: 'client' | 'server';
}

/** The input item answering a `tool_search_call`: the tools it loads. */
export interface OpenAIToolSearchOutput {
  type: 'tool_search_output';
  call_id: string;
  execution: 'client';
  status: 'completed';
  /** The namespaces of the tools found, each holding only those tools, loaded (no `defer_loading`). */
  tools: OpenAINamespaceTool[];
}

/**
 * The `tool_search_output` for `callId` loading `found`: one namespace per namespace the tools come
 * from, in the order found, each with only the functions found and without `defer_loading`. An
 * empty list loads nothing, which tells the model that no tool fits.
 */
export function toOpenAIToolSearchOutput(
  callId: string,
  found: ReadonlyArray<{ namespace: OpenAINamespaceTool; tool: OpenAINamespaceFunction }>,
): OpenAIToolSearchOutput {
  const namespaces = new Map<string, OpenAINamespaceTool>();
  for (const { namespace, tool } of found) {
    let loaded = namespaces.get(namespace.name);
    if (!loaded) {
      loaded = { type: 'namespace', name: namespace.name, description: namespace.description, tools: [] };
      namespaces.set(namespace.name, loaded);
    }
    const { defer_loading: _deferred, ...definition } = tool;
    loaded.tools.push(definition);
  }
  return {
    type: 'tool_search_output',
    call_id: callId,
    execution: 'client',
    status: 'completed',
    tools: [...namespaces.values()],
  };
}
