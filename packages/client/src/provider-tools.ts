/**
 * The tools of a source as the tool definitions of a provider's own SDK (Anthropic, OpenAI,
 * Gemini), for agents that call a provider without a framework. Each helper gives the list to
 * pass as the request's `tools`, what each schema conversion could not carry over, and the
 * tool behind each provider name, to run a call the model makes:
 *
 * ```ts
 * const { tools, toolsByName } = toAnthropicTools(connection);
 * // … the model answers with a tool_use block `use`:
 * const raw = await toolsByName.get(use.name)!.execute!(use.input, { rawResult: true });
 * const block = toAnthropicToolResult(use.id, raw);
 * ```
 */
import {
  type AnthropicTool,
  type GeminiFunctionDeclaration,
  type LossyChange,
  type OpenAIFunctionTool,
  type RegisteredTool,
  toAnthropicTool,
  toGeminiFunction,
  toOpenAITool,
} from '@switchboard/core';
import { toObjectSchema } from './framework-adapter/adapter-tool.js';
import { toProviderToolNames } from './framework-adapter/provider-tool-names.js';
import { type ToolSource, type ToolSourceOptions, toolsOf } from './framework-adapter/tool-source.js';

/** What a plural provider helper returns. */
export interface ProviderTools<T> {
  /** The request's `tools`, as the provider's API takes them. */
  tools: T[];
  /** What each tool's schema conversion changed, by provider name (tools without changes left out). */
  lossy: Record<string, LossyChange[]>;
  /** The registered tool behind each provider name. */
  toolsByName: ReadonlyMap<string, RegisteredTool>;
}

/** Options of the plural provider helpers. */
export type ProviderToolsOptions = ToolSourceOptions;

/** An OpenAI Responses API function tool (`tools[]` entry of `responses.create`). */
export interface OpenAIResponsesFunctionTool {
  type: 'function';
  name: string;
  description: string;
  parameters: OpenAIFunctionTool['function']['parameters'];
  strict: boolean;
}

/** Options of {@link toOpenAITools}. */
export interface OpenAIToolsOptions extends ProviderToolsOptions {
  /** Strict mode (Structured Outputs) schemas. @default false */
  strict?: boolean;
  /**
   * The API the definitions are for: the Responses API (whose results `toOpenAIToolOutput`
   * builds) takes flat function tools, Chat Completions nests them under `function`.
   * @default 'responses'
   */
  api?: 'responses' | 'chat-completions';
}

/** A Gemini `tools` entry. */
export interface GeminiTool {
  functionDeclarations: GeminiFunctionDeclaration[];
}

function convertAll<T>(
  source: ToolSource,
  options: ToolSourceOptions,
  convert: (tool: {
    name: string;
    title?: string;
    description?: string;
    inputSchema: RegisteredTool['inputSchema'];
  }) => {
    result: T;
    lossy: LossyChange[];
  },
): ProviderTools<T> {
  const toolsByName = toProviderToolNames(toolsOf(source, options));
  const tools: T[] = [];
  const lossy: Record<string, LossyChange[]> = {};
  for (const [name, tool] of toolsByName) {
    const converted = convert({
      name,
      ...(tool.title === undefined ? {} : { title: tool.title }),
      description: tool.description,
      inputSchema: toObjectSchema(tool.inputSchema),
    });
    tools.push(converted.result);
    if (converted.lossy.length > 0) lossy[name] = converted.lossy;
  }
  return { tools, lossy, toolsByName };
}

/** Options of {@link toAnthropicTools}. */
export interface AnthropicToolsOptions extends ProviderToolsOptions {
  /**
   * Mark the tools `defer_loading: true`: Claude sees none of them until a tool search references
   * it (`createAnthropicToolSearch`, or Anthropic's own regex/BM25 search tool). @default false
   */
  deferLoading?: boolean;
  /** Tools loaded up front despite `deferLoading`, by public or provider name. @default [] */
  alwaysLoad?: readonly string[];
}

/** The tools of a source as Anthropic Messages API tools (deferred with `deferLoading`). */
export function toAnthropicTools(
  source: ToolSource,
  options: AnthropicToolsOptions = {},
): ProviderTools<AnthropicTool> {
  const converted = convertAll(source, options, toAnthropicTool);
  if (options.deferLoading === true) {
    const alwaysLoad = new Set(options.alwaysLoad ?? []);
    for (const tool of converted.tools) {
      const registered = converted.toolsByName.get(tool.name);
      if (!alwaysLoad.has(tool.name) && !alwaysLoad.has(registered?.name ?? '')) tool.defer_loading = true;
    }
  }
  return converted;
}

/** The tools of a source as OpenAI function tools (Responses API unless `api: 'chat-completions'`). */
export function toOpenAITools(
  source: ToolSource,
  options: OpenAIToolsOptions & { api: 'chat-completions' },
): ProviderTools<OpenAIFunctionTool>;
export function toOpenAITools(
  source: ToolSource,
  options?: OpenAIToolsOptions & { api?: 'responses' },
): ProviderTools<OpenAIResponsesFunctionTool>;
export function toOpenAITools(
  source: ToolSource,
  options: OpenAIToolsOptions = {},
): ProviderTools<OpenAIFunctionTool | OpenAIResponsesFunctionTool> {
  const strict = options.strict ?? false;
  return convertAll<OpenAIFunctionTool | OpenAIResponsesFunctionTool>(source, options, (tool) => {
    const { result, lossy } = toOpenAITool(tool, { strict });
    if (options.api === 'chat-completions') return { result, lossy };
    return { result: { type: 'function', ...result.function }, lossy };
  });
}

/**
 * The tools of a source as Gemini's `tools`: one entry holding every function declaration
 * (an empty list when the source has no tools, as Gemini refuses an empty declaration list).
 */
export function toGeminiTools(
  source: ToolSource,
  options: ProviderToolsOptions = {},
): ProviderTools<GeminiTool> {
  const converted = convertAll(source, options, toGeminiFunction);
  return {
    ...converted,
    tools: converted.tools.length === 0 ? [] : [{ functionDeclarations: converted.tools }],
  };
}
