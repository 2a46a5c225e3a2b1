/**
 * `defineTool`: a tool served by a Switchboard MCP server, with its input as a zod schema or a
 * JSON Schema, and an `execute` that gets the call's context: signal, progress, log, and the
 * client-input channels (`elicit`, `sample`, `listRoots`) that work in both protocol eras.
 */

import type {
  CallToolResult,
  ClientCapabilities,
  CreateMessageRequest,
  CreateMessageResult,
  ElicitRequest,
  ElicitResult,
  InputRequiredResult,
  ListRootsResult,
  LoggingLevel,
  RequestId,
} from '@modelcontextprotocol/server';
import type { JsonSchema, ToolAnnotations } from '@switchboard/core';
import { SwitchboardError } from '@switchboard/core';
import { z } from 'zod';
import type { ProtocolEra } from '../protocol/protocol-versions.js';
import { type DefinedToolApp, resolveToolApp, type ToolAppDefinition } from './tool-app-definition.js';
import { rememberInputSchema } from './validated-arguments.js';

/** A zod schema (zod 4), detected structurally so two zod copies still work. */
export type ZodSchema<Output = unknown> = z.ZodType<Output>;

/**
 * What a tool's `execute` may return: a full `CallToolResult`, an SDK `inputRequired(...)` result
 * (ask the client for input, then be called again with `context.inputResponses`), a string (text),
 * or any JSON value.
 */
export type ToolReturnValue =
  | CallToolResult
  | InputRequiredResult
  | string
  | number
  | boolean
  | null
  | undefined
  | object;

/** The channels a running tool gets besides its arguments. One shape for every era and transport. */
export interface ToolContext {
  /** Aborted when the client cancels the call (or its HTTP request goes away). */
  signal: AbortSignal;
  /** Reports progress; sent only when the client asked for it (a `progressToken`). */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /**
   * Sends a log message to the client: filtered by the level the client set (2025:
   * `logging/setLevel`; 2026-07-28: the request's `logLevel`, and nothing without one).
   */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void>;
  /**
   * Asks the client's model for a completion (`sampling/createMessage`). 2025 sessions: a
   * server→client request; 2026-07-28: the call answers an input-required result and resumes when
   * the client retries with the answer.
   */
  sample(params: CreateMessageRequest['params']): Promise<CreateMessageResult>;
  /** Asks the client's user for input (`elicitation/create`), in either era as `sample` does. */
  elicit(params: ElicitRequest['params']): Promise<ElicitResult>;
  /** Asks the client for its roots (`roots/list`), in either era as `sample` does. */
  listRoots(): Promise<ListRootsResult>;
  /** Closes the HTTP response stream of this call now; the client resumes it with `Last-Event-ID` (2025 sessions). */
  closeResponseStream(): void;
  /**
   * Goes on as a task (tools with `task: { start: 'on-request' }`, clients that declare the tasks
   * extension): the call answers with the task handle now, and what the tool returns later becomes
   * the task's result. Elsewhere it does nothing and the call simply goes on.
   */
  continueAsTask(): Promise<void>;
  /** The era the call is served in. */
  era: ProtocolEra;
  /** What the client declared it can do (2025: at `initialize`; 2026-07-28: on this request). */
  clientCapabilities: ClientCapabilities;
  /**
   * On a retry of a call that returned `inputRequired(...)`: the client's answers by key (already
   * checked against the requests' shapes; a malformed answer is left out).
   */
  inputResponses?: Record<string, unknown>;
  /** On such a retry: the `requestState` the tool returned, after its integrity check. */
  requestState?: string;
  /** The MCP session, when the transport has one. */
  sessionId?: string;
  /** Who the request's HTTP auth names (token subject, client id or token name); absent without auth. */
  principal?: string;
  /**
   * A 2025-11-25 client asked for the call as a task (`params.task`, e.g. `{ ttl }`): a tool that
   * can (a gateway relaying an upstream's task, through a task relay with `legacyTasks`) returns a
   * `CreateTaskResult` (`{ task }`), which goes out as is.
   */
  taskRequest?: Record<string, unknown>;
  /** Id of the `tools/call` request. */
  requestId: RequestId;
}

/**
 * Runs the tool as a task of the tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663):
 * clients that declare the extension get a task handle at once and poll `tasks/get`.
 */
export interface ToolTaskOptions {
  /**
   * `optional`: a task for clients that declare the extension, a plain call for the others;
   * `required`: clients without the extension get an error instead. @default 'optional'
   */
  mode?: 'optional' | 'required';
  /** How long a finished task is kept for `tasks/get`. @default 3600000 (1 h) */
  ttlMs?: number;
  /** The polling interval suggested to clients. @default 500 */
  pollIntervalMs?: number;
  /**
   * `immediately`: the call answers with the task at once; `on-request`: the call runs as usual
   * (it may ask for input in rounds first) until the tool calls `context.continueAsTask()`.
   * @default 'immediately'
   */
  start?: 'immediately' | 'on-request';
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
  /** Serve the tool as a long-running task (tasks extension); `true` is `{ mode: 'optional' }`. @default a plain call */
  task?: boolean | ToolTaskOptions;
  /**
   * An MCP App rendering the tool's results in hosts that support the extension: its HTML (`html`
   * or `file`, served as a `ui://` resource) or an existing `ui://` resource (`resourceUri`), and
   * `visibility: ['app']` for a helper only the app calls. @default no app
   */
  app?: ToolAppDefinition;
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
  /** Task serving (tasks extension), when the tool is long-running. */
  task?: ToolTaskOptions;
  /** Its MCP App: listed `_meta`, metadata, and the resource it serves itself. */
  app?: DefinedToolApp;
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
  if (definition.task !== undefined && definition.task !== false) {
    tool.task = definition.task === true ? { mode: 'optional' } : definition.task;
  }
  if (definition.app !== undefined) tool.app = resolveToolApp(definition.name, definition.app);
  if (definition.output !== undefined)
    tool.outputSchema = toJsonSchema(definition.output, 'output', `${where} output`);
  if (isZodSchema(input)) {
    const schema = input;
    tool.parse = (args) => schema.parse(args);
    rememberInputSchema(tool, schema);
  }
  return tool;
}
