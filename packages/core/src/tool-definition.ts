/**
 * The shapes core works with: an MCP tool as a server lists it, and a tool as the registry holds it.
 * Kept structurally compatible with the MCP SDK's `Tool` type without importing the SDK, so that
 * core stays free of protocol dependencies.
 */

import type { ToolApp } from './tool-app.js';

/** A JSON Schema object (draft-07 or 2020-12). */
export type JsonSchema = { [key: string]: unknown };

/** MCP tool annotations (hints; never trusted for security on their own). */
export interface ToolAnnotations {
  // `| undefined` on each: annotations come off the wire through the SDK's schemas, whose optional
  // fields are typed that way (and JSON drops an undefined field anyway).
  title?: string | undefined;
  /** The tool does not modify its environment. @default false */
  readOnlyHint?: boolean | undefined;
  /** The tool may perform destructive updates (meaningful when not read-only). @default true */
  destructiveHint?: boolean | undefined;
  /** Calling repeatedly with the same arguments has no additional effect. @default false */
  idempotentHint?: boolean | undefined;
  /** The tool interacts with an open world of external entities. @default true */
  openWorldHint?: boolean | undefined;
  [key: string]: unknown;
}

/** A tool as an MCP server lists it in `tools/list`. */
export interface McpToolDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/** An approval decision and why (core's `ApprovalResult`, repeated here so this file imports nothing). */
export interface ToolApprovalState {
  decision: 'allow' | 'ask' | 'deny';
  reason: string;
}

/** Options passed to a tool's `execute`. */
export interface ToolExecuteOptions {
  /** Aborts the call (sent to the server as a cancellation). */
  signal?: AbortSignal;
  /**
   * A person already said yes through the caller's own approval path (an agent framework's
   * `needsApproval`, an interrupt): a tool whose policy says `ask` runs without asking again.
   * A policy's `deny` still refuses. @default false
   */
  approved?: boolean;
  /** Return the tool's raw result (an MCP `CallToolResult`) for this call instead of the wrapped shape. @default false */
  rawResult?: boolean;
  [key: string]: unknown;
}

/** A tool as the registry holds it: public (namespaced) name plus where it came from. */
export interface RegisteredTool {
  /** Public name, unique in the registry (e.g. `mcp__github__create_issue`). */
  name: string;
  /** Source of the tool: the MCP server name, or a local group such as `local`. */
  server: string;
  /** Name of the tool on its server. */
  originalName: string;
  /** Human-readable title, if the server gave one. */
  title?: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
  /** Runs the tool. Absent for tools registered only for listing or selection. */
  execute?: (args: Record<string, unknown>, options?: ToolExecuteOptions) => Promise<unknown>;
  /**
   * What the tool's approval policy says of calling it: `ask` needs a person's yes before each
   * call, `deny` never runs. Adapters read it to hand `ask` to a framework's own approval path.
   * Absent: the tool runs without asking.
   */
  approval?: () => ToolApprovalState;
  /**
   * MCP Apps metadata (`_meta.ui` as the server listed it, read by core's `readToolApp`): the
   * `ui://` resource rendering its results and who the tool is for. A tool whose `visibility`
   * leaves out `model` never reaches a model-facing list (`isModelFacing`), yet stays callable.
   */
  app?: ToolApp;
  /** Free-form data owners attach (server description, categories, the tool's wire `_meta` under `_meta`...). */
  meta?: Record<string, unknown>;
}
