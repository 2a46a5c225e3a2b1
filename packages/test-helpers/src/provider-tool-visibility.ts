/**
 * What a model behind a provider's tool search would see of a request's tools, as the providers
 * document it: the scripted models of the tool search tests decide only on this, so a test fails
 * when a deferred tool reaches the model before a search loaded it. Plain JSON in, names out.
 */

/** An Anthropic Messages request, as far as tool visibility goes. */
export interface AnthropicVisibilityRequest {
  tools: ReadonlyArray<{ name: string; defer_loading?: boolean }>;
  messages: ReadonlyArray<{ role: string; content: unknown }>;
}

/**
 * The tools Claude sees: those not deferred, then the deferred ones a `tool_reference` block in a
 * `tool_result` of the conversation loaded, in the order loaded. A reference to a tool the request
 * does not define throws, as the API refuses it.
 */
export function anthropicVisibleTools(request: AnthropicVisibilityRequest): string[] {
  const defined = new Map(request.tools.map((tool) => [tool.name, tool]));
  const visible = request.tools.filter((tool) => tool.defer_loading !== true).map((tool) => tool.name);
  for (const message of request.messages) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as Array<{ type?: string; content?: unknown }>) {
      if (block.type !== 'tool_result' || !Array.isArray(block.content)) continue;
      for (const item of block.content as Array<{ type?: string; tool_name?: string }>) {
        if (item.type !== 'tool_reference') continue;
        const name = item.tool_name ?? '';
        if (!defined.has(name))
          throw new Error(`tool_reference to "${name}", which the request does not define`);
        if (!visible.includes(name)) visible.push(name);
      }
    }
  }
  return visible;
}

/** An OpenAI Responses request, as far as tool visibility goes. */
export interface OpenAIVisibilityRequest {
  tools: ReadonlyArray<{
    type: string;
    name?: string;
    description?: string;
    tools?: ReadonlyArray<{ type: string; name: string; defer_loading?: boolean; parameters?: unknown }>;
  }>;
  input: ReadonlyArray<{ type?: string | null; tools?: unknown }>;
}

/** What a Responses model sees: namespace names and descriptions, and the functions it can call. */
export interface OpenAIVisibleTools {
  namespaces: string[];
  /** Functions with their definitions in the context: not deferred, or loaded by a `tool_search_output`. */
  functions: string[];
}

/** The namespaces and callable functions a Responses model sees for `request`. */
export function openAIVisibleTools(request: OpenAIVisibilityRequest): OpenAIVisibleTools {
  const namespaces: string[] = [];
  const functions: string[] = [];
  const defined = new Set<string>();
  for (const tool of request.tools) {
    if (tool.type !== 'namespace') continue;
    namespaces.push(tool.name ?? '');
    for (const fn of tool.tools ?? []) {
      defined.add(fn.name);
      if (fn.defer_loading !== true) functions.push(fn.name);
    }
  }
  for (const item of request.input) {
    if (item.type !== 'tool_search_output' || !Array.isArray(item.tools)) continue;
    for (const loaded of item.tools as OpenAIVisibilityRequest['tools']) {
      for (const fn of loaded.tools ?? []) {
        if (!defined.has(fn.name))
          throw new Error(`tool_search_output loads "${fn.name}", which no namespace defines`);
        if (fn.parameters === undefined)
          throw new Error(`tool_search_output loads "${fn.name}" without its parameters`);
        if (!functions.includes(fn.name)) functions.push(fn.name);
      }
    }
  }
  return { namespaces, functions };
}

/** The structure of a JSON value: keys (sorted) and value types, arrays by their first item. */
export function jsonShape(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? [] : [jsonShape(value[0])];
  if (value !== null && typeof value === 'object') {
    const shape: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort())
      shape[key] = jsonShape((value as Record<string, unknown>)[key]);
    return shape;
  }
  return value === null ? 'null' : typeof value;
}
