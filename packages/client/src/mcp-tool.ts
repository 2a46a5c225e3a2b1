/**
 * Turns one MCP tool into a registry record whose `execute` runs the tool's chain of links
 * (`tool-call-chain.ts`): trust → validate → approve → observe → check the output → supervise → send, then
 * wraps the result for models. The tool's own links (its schemas, its approval decision) are made
 * here; observe, supervise and send are its server's. What can be prepared once (the compiled
 * checks, the decision, the public name) is, on first use.
 */

import type { Tool } from '@modelcontextprotocol/client';
import type { RegisteredTool, ToolExecuteOptions, ToolInput } from '@switchboard/core';
import { readToolApp } from '@switchboard/core';
import { type ApproveCallback, createApproveLink } from './approve-link.js';
import type { ArgumentCheck, CoreToolSteps, OutputCheck, ToolApproval } from './core-tool-steps.js';
import type { CallToolOptions } from './mcp-client-options.js';
import { chainLinks, type ToolCallLink, type ToolCallNext } from './tool-call-chain.js';
import { createOutputCheckLink, createValidateLink } from './validate-link.js';

export type { ApprovalPrompt, ApproveCallback } from './approve-link.js';

/**
 * Per-call options of a registered tool's `execute`: the client's call options (deadlines,
 * progress, cancellation, tasks, handlers of the call's own), passed down unchanged.
 */
export interface McpToolExecuteOptions extends ToolExecuteOptions, CallToolOptions {}

/** Options of {@link toToolInput}. */
export interface ToolRecordOptions {
  server: string;
  /** Namespace prefix standing in for the server name. */
  prefix?: string;
  steps: CoreToolSteps;
  approve?: ApproveCallback;
  /** The server's trust link: refuses a quarantined tool (`TOOL_QUARANTINED`) before anything else runs. */
  trust?: ToolCallLink;
  /** The server's observe link (metrics, usage, span: once per call). */
  observe: ToolCallLink;
  /** The server's supervised send (reconnect, retry, circuit breaker, then the request). */
  supervise: ToolCallNext;
  /** Return the raw `CallToolResult` instead of core's wrapped shape. @default false */
  rawResults?: boolean;
  /** The public name the registry gave this tool (for approval globs and messages). */
  publicName(originalName: string): string | undefined;
}

/** True when re-running the tool after an unknown outcome cannot do harm. */
export function isRetrySafe(annotations: Tool['annotations']): boolean {
  return annotations?.readOnlyHint === true || annotations?.idempotentHint === true;
}

/** The registry record of one MCP tool. */
export function toToolInput(tool: Tool, options: ToolRecordOptions): Omit<ToolInput, 'server'> {
  const { server, steps } = options;
  const originalName = tool.name;
  const retrySafe = isRetrySafe(tool.annotations);
  const description = tool.description ?? '';
  const inputSchema = tool.inputSchema as Record<string, unknown>;
  const outputSchema = tool.outputSchema as Record<string, unknown> | undefined;
  let publicName: string | undefined;
  let check: ArgumentCheck | undefined;
  let outputCheck: OutputCheck | undefined;
  let approval: ToolApproval | undefined;

  // The registry names a tool after it is registered: the public name is read on first use.
  const nameOf = (): string => {
    publicName ??= options.publicName(originalName) ?? originalName;
    return publicName;
  };
  const decide = (): ToolApproval => {
    approval ??= steps.decideApproval({
      name: nameOf(),
      server,
      originalName,
      ...(tool.annotations ? { annotations: tool.annotations } : {}),
    });
    return approval;
  };
  const links: ToolCallLink[] = [
    ...(options.trust === undefined ? [] : [options.trust]),
    createValidateLink(() => {
      check ??= steps.compileArgumentCheck({ name: nameOf(), inputSchema });
      return check;
    }),
    createApproveLink({ tool, server, decision: decide, approve: options.approve }),
    options.observe,
  ];
  if (outputSchema !== undefined) {
    links.push(
      createOutputCheckLink(() => {
        outputCheck ??= steps.compileOutputCheck({ name: nameOf(), server, originalName, outputSchema });
        return outputCheck;
      }),
    );
  }
  const run = chainLinks(links, options.supervise);

  const execute = async (
    args: Record<string, unknown> = {},
    executeOptions: McpToolExecuteOptions = noOptions,
  ) => {
    const result = await run({
      server,
      tool: originalName,
      publicName: nameOf(),
      args,
      options: executeOptions,
      retrySafe,
      observed: false,
      trace: undefined,
    });
    return options.rawResults || executeOptions.rawResult === true
      ? result
      : steps.wrapResult(result, { name: nameOf(), server, originalName });
  };

  const record: Omit<ToolInput, 'server'> = {
    name: originalName,
    description,
    inputSchema,
    execute: execute as RegisteredTool['execute'] & {},
    approval: decide,
  };
  if (options.prefix !== undefined) record.prefix = options.prefix;
  if (tool.title !== undefined) record.title = tool.title;
  if (tool.outputSchema !== undefined) record.outputSchema = tool.outputSchema as Record<string, unknown>;
  if (tool.annotations !== undefined) record.annotations = tool.annotations;
  if (tool._meta !== undefined) {
    record.meta = { _meta: tool._meta };
    // MCP Apps metadata, both spellings, kept typed on the registered tool.
    const app = readToolApp(tool._meta);
    if (app !== undefined) record.app = app;
  }
  const listingFields = listingFieldsOf(tool);
  if (listingFields !== undefined) record.meta = { ...record.meta, listingFields };
  return record;
}

/** The fields of a listed tool that the registered tool has a typed place for. */
const typedListingFields = new Set([
  'name',
  'title',
  'description',
  'inputSchema',
  'outputSchema',
  'annotations',
  '_meta',
]);

/**
 * The listing's other fields (`icons`, 2025-11-25's `execution.taskSupport`, whatever a later
 * revision adds), kept as the server sent them under `meta.listingFields`: a gateway lists the
 * tool with them, unchanged, so its clients learn what the server said (a task-required tool, its
 * icons). Undefined when there are none.
 */
function listingFieldsOf(tool: Tool): Record<string, unknown> | undefined {
  let fields: Record<string, unknown> | undefined;
  for (const key of Object.keys(tool)) {
    if (typedListingFields.has(key)) continue;
    fields ??= {};
    fields[key] = (tool as Record<string, unknown>)[key];
  }
  return fields;
}

const noOptions: McpToolExecuteOptions = Object.freeze({});
