/**
 * One registered tool as every framework adapter needs it: a provider-safe name, an object input
 * schema, whether the framework's approval path must ask first, and a call that returns the
 * result as model parts (text within budget, images and files as media). The adapters differ only
 * in how they wrap this for their framework.
 */

import type { Progress } from '@modelcontextprotocol/client';
import {
  type JsonSchema,
  type RegisteredTool,
  sanitizeToolName,
  type ToolResultContent,
  type ToolResultContentOptions,
  toToolResultContent,
} from '@switchboard/core';
import { ClientError, ClientErrorCode } from '../client-error.js';
import type { McpToolExecuteOptions } from '../mcp-tool.js';

/** Options of {@link toAdapterTool}, shared by every adapter. */
export interface AdapterToolOptions {
  /** How results become model parts: accepted media kinds, media budget, text budget. */
  content?: ToolResultContentOptions;
  /**
   * Who asks a person about tools whose policy says `ask`: `'framework'` hands it to the
   * framework's own approval path (AI SDK `needsApproval`, an Agents SDK approval, a LangGraph
   * interrupt); `'client'` leaves it to the `approve` callback given to `connectMcp`.
   * @default 'framework'
   */
  approvals?: 'framework' | 'client';
  /** Call options every call gets (deadlines, progress, handlers); a call's own signal is added. */
  callOptions?: Omit<McpToolExecuteOptions, 'signal' | 'approved' | 'rawResult'>;
}

/** Per-call options of {@link AdapterTool.call}. */
export interface AdapterCallOptions {
  signal?: AbortSignal;
  /** The framework's approval path already had a person say yes. */
  approved?: boolean;
  onProgress?: (progress: Progress) => void;
}

/** A registered tool, prepared for an adapter. */
export interface AdapterTool {
  readonly tool: RegisteredTool;
  /** Provider-safe (`^[a-zA-Z0-9_-]+$`) name. */
  readonly name: string;
  readonly description: string;
  /** A JSON Schema object with `type: 'object'` and `properties`, as every framework wants. */
  readonly inputSchema: JsonSchema;
  /** True when the framework must ask a person before this call. */
  needsApproval(): boolean;
  /** Runs the tool; resolves with its result as model parts (an `isError` result included), throws on errors of the call itself. */
  call(args: unknown, options?: AdapterCallOptions): Promise<ToolResultContent>;
}

/** Gives a tool an object schema: frameworks and providers refuse any other root. */
export function toObjectSchema(schema: JsonSchema | undefined): JsonSchema {
  if (schema === undefined || typeof schema !== 'object') return { type: 'object', properties: {} };
  if (schema.type === 'object' && typeof schema.properties === 'object') return schema;
  if (schema.type === undefined || schema.type === 'object')
    return { ...schema, type: 'object', properties: schema.properties ?? {} };
  return schema;
}

/** Prepares a registered tool for an adapter. */
export function toAdapterTool(tool: RegisteredTool, options: AdapterToolOptions = {}): AdapterTool {
  const execute = tool.execute;
  if (execute === undefined) {
    throw new ClientError({
      code: ClientErrorCode.ToolNotFound,
      message: `Tool "${tool.name}" (server "${tool.server}") has no execute: it is listed for selection only and cannot be offered to an agent.`,
      context: { server: tool.server, tool: tool.originalName, publicName: tool.name },
    });
  }
  const framework = (options.approvals ?? 'framework') === 'framework';
  const contentOptions: ToolResultContentOptions = { toolName: tool.name, ...options.content };
  const base = options.callOptions ?? {};
  return {
    tool,
    name: sanitizeToolName(tool.name),
    description: tool.description || tool.title || tool.name,
    inputSchema: toObjectSchema(tool.inputSchema),
    needsApproval: () => framework && tool.approval?.().decision === 'ask',
    async call(args, callOptions = {}) {
      const executeOptions: McpToolExecuteOptions = { ...base, rawResult: true };
      if (callOptions.signal) executeOptions.signal = callOptions.signal;
      if (callOptions.onProgress) executeOptions.onProgress = callOptions.onProgress;
      if (framework && callOptions.approved === true) executeOptions.approved = true;
      const input = (typeof args === 'object' && args !== null ? args : {}) as Record<string, unknown>;
      return toToolResultContent(await execute(input, executeOptions), contentOptions);
    },
  };
}
