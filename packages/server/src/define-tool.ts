/**
 * `defineTool`: a tool served by a Switchboard MCP server, with its input as a zod schema or a
 * JSON Schema, and an `execute` that gets the call's signal, progress and log channels.
 */

import type {
  CallToolResult,
  CreateMessageRequest,
  CreateMessageResult,
  ElicitRequest,
  ElicitResult,
  LoggingLevel,
} from '@modelcontextprotocol/sdk/types.js';
import type { JsonSchema, ToolAnnotations } from '@switchboard/core';
import { SwitchboardError } from '@switchboard/core';
import { z } from 'zod';

/** A zod schema (zod 4), detected structurally so two zod copies still work. */
export type ZodSchema<Output = unknown> = z.ZodType<Output>;

/** What a tool's `execute` may return: a full `CallToolResult`, a string (text), or any JSON value. */
export type ToolReturnValue = CallToolResult | string | number | boolean | null | undefined | object;

/** The channels a running tool gets besides its arguments. */
export interface ToolContext {
  /** Aborted when the client cancels the call (or its HTTP request goes away). */
  signal: AbortSignal;
  /** Reports progress; sent only when the client asked for it (a `progressToken`). */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /** Sends a log message to the client (filtered by the level the client set). */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void>;
  /** Asks the client's model for a completion (`sampling/createMessage`); needs a session. */
  sample(params: CreateMessageRequest['params']): Promise<CreateMessageResult>;
  /** Asks the client's user for input (`elicitation/create`); needs a session. */
  elicit(params: ElicitRequest['params']): Promise<ElicitResult>;
  /** Closes the HTTP response stream of this call now; the client resumes it with `Last-Event-ID`. */
  closeResponseStream(): void;
  /** The MCP session, when the transport has one. */
  sessionId?: string;
  /** Id of the `tools/call` request. */
  requestId: string | number;
}

/** A tool as written by a user of this package. */
export interface ToolDefinition<Args = Record<string, unknown>> {
  /** Tool name as clients see it (`^[a-zA-Z0-9_.-]{1,128}$`). */
  name: string;
  title?: string;
  description: string;
  /** Arguments: a zod object schema, or a JSON Schema object. @default an empty object schema */
  input?: ZodSchema<Args> | JsonSchema;
  /** Structured output: a zod schema or a JSON Schema; results then carry `structuredContent`. */
  output?: ZodSchema | JsonSchema;
  annotations?: ToolAnnotations;
  /** Runs the tool. Throwing returns an `isError: true` result with the error's message. */
  execute(args: Args, context: ToolContext): Promise<ToolReturnValue> | ToolReturnValue;
}

/** A tool after `defineTool`: schemas resolved to JSON Schema, ready to serve. */
export interface DefinedTool {
  readonly kind: 'switchboard.tool';
  name: string;
  title?: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
  /** Parses arguments with the zod schema (defaults, transforms), when the input was zod. */
  parse?: (args: unknown) => unknown;
  execute(args: Record<string, unknown>, context: ToolContext): Promise<ToolReturnValue> | ToolReturnValue;
}

const toolNamePattern = /^[a-zA-Z0-9_.-]{1,128}$/;

/** True for a zod 4 schema (structural check: `_zod` plus `safeParse`). */
export function isZodSchema(value: unknown): value is ZodSchema {
  return (
    typeof value === 'object' &&
    value !== null &&
    '_zod' in value &&
    typeof (value as { safeParse?: unknown }).safeParse === 'function'
  );
}

function toJsonSchema(schema: ZodSchema | JsonSchema, io: 'input' | 'output', where: string): JsonSchema {
  if (isZodSchema(schema)) {
    try {
      return z.toJSONSchema(schema, { io }) as JsonSchema;
    } catch (error) {
      throw new SwitchboardError({
        code: 'INVALID_SCHEMA',
        message: `${where}: the zod schema cannot be expressed as JSON Schema (${(error as Error).message}). Use JSON-representable types or pass a JSON Schema.`,
        cause: error,
      });
    }
  }
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new SwitchboardError({
      code: 'INVALID_SCHEMA',
      message: `${where}: expected a zod schema or a JSON Schema object.`,
    });
  }
  return schema;
}

/** Defines a tool to serve: checks its name and turns its schemas into JSON Schema once. */
export function defineTool<Args = Record<string, unknown>>(definition: ToolDefinition<Args>): DefinedTool {
  if (typeof definition?.name !== 'string' || !toolNamePattern.test(definition.name)) {
    throw new SwitchboardError({
      code: 'INVALID_TOOL_NAME',
      message: `defineTool: name ${JSON.stringify(definition?.name)} is not a valid MCP tool name; use 1-128 letters, digits, "_", "-" or ".".`,
      context: { tool: definition?.name },
    });
  }
  if (typeof definition.execute !== 'function') {
    throw new SwitchboardError({
      code: 'INVALID_ARGUMENT',
      message: `defineTool: tool "${definition.name}" needs an execute(args, context) function.`,
      context: { tool: definition.name },
    });
  }
  const where = `defineTool: tool "${definition.name}"`;
  const input = definition.input ?? { type: 'object', properties: {} };
  const inputSchema = toJsonSchema(input, 'input', `${where} input`);
  if (inputSchema.type !== 'object') {
    throw new SwitchboardError({
      code: 'INVALID_SCHEMA',
      message: `${where}: the input schema must describe an object (type "object"); MCP passes arguments by name.`,
      context: { tool: definition.name },
    });
  }
  const tool: DefinedTool = {
    kind: 'switchboard.tool',
    name: definition.name,
    description: definition.description ?? '',
    inputSchema,
    execute: definition.execute as DefinedTool['execute'],
  };
  if (definition.title !== undefined) tool.title = definition.title;
  if (definition.annotations !== undefined) tool.annotations = definition.annotations;
  if (definition.output !== undefined)
    tool.outputSchema = toJsonSchema(definition.output, 'output', `${where} output`);
  if (isZodSchema(input)) {
    const schema = input;
    tool.parse = (args) => schema.parse(args);
  }
  return tool;
}
