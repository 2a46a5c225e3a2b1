/**
 * Turns one MCP tool into a registry record whose `execute` validates the arguments, applies the
 * approval policy, calls the server, records metrics and wraps the result. Everything that can be
 * prepared once (counters, retry safety, the compiled validator) is, so a call does only the work
 * that must happen per call.
 */

import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import type { RegisteredTool, ToolExecuteOptions, ToolInput } from '@switchboard/core';
import { ClientError, ClientErrorCode } from './client-error.js';
import type { ArgumentCheck, CoreToolSteps, OutputCheck, ToolApproval } from './core-tool-steps.js';
import type { CallToolOptions } from './mcp-client.js';
import type { MetricsRecorder } from './metrics-recorder.js';
import type { TrustGate } from './trust-gate.js';

/** What the `approve` callback is asked about. */
export interface ApprovalPrompt {
  /** Public (namespaced) name. */
  name: string;
  server: string;
  /** Name on the server. */
  originalName: string;
  description: string;
  annotations?: Tool['annotations'];
  /** The arguments the call would send. */
  args: Record<string, unknown>;
  /** Why the policy asks. */
  reason: string;
}

/** Asked before a tool whose policy says `ask` runs: `true` runs it, `false` refuses. */
export type ApproveCallback = (prompt: ApprovalPrompt) => boolean | Promise<boolean>;

/**
 * Per-call options of a registered tool's `execute`: the client's call options (deadlines,
 * progress, cancellation, tasks, handlers of the call's own), passed down unchanged.
 */
export interface McpToolExecuteOptions extends ToolExecuteOptions, CallToolOptions {}

/** Calls a tool on its server (with whatever supervision the caller adds). */
export type ToolCaller = (
  tool: string,
  args: Record<string, unknown>,
  options: CallToolOptions,
  retrySafe: boolean,
) => Promise<CallToolResult>;

/** Options of {@link toToolInput}. */
export interface ToolRecordOptions {
  server: string;
  /** Namespace prefix standing in for the server name. */
  prefix?: string;
  call: ToolCaller;
  steps: CoreToolSteps;
  approve?: ApproveCallback;
  metrics: MetricsRecorder;
  /** Return the raw `CallToolResult` instead of core's wrapped shape. @default false */
  rawResults?: boolean;
  /** The public name the registry gave this tool (for approval globs and messages). */
  publicName(originalName: string): string | undefined;
  /** Refuses a quarantined tool (`TOOL_QUARANTINED`) before anything else runs. */
  gate?: TrustGate;
}

/** True when re-running the tool after an unknown outcome cannot do harm. */
export function isRetrySafe(annotations: Tool['annotations']): boolean {
  return annotations?.readOnlyHint === true || annotations?.idempotentHint === true;
}

/** The registry record of one MCP tool. */
export function toToolInput(tool: Tool, options: ToolRecordOptions): Omit<ToolInput, 'server'> {
  const { server, steps, call, approve } = options;
  const originalName = tool.name;
  const counter = options.metrics.counter(server, originalName);
  const retrySafe = isRetrySafe(tool.annotations);
  const description = tool.description ?? '';
  const inputSchema = tool.inputSchema as Record<string, unknown>;
  let check: ArgumentCheck | undefined;
  const outputSchema = tool.outputSchema as Record<string, unknown> | undefined;
  // null: the tool has no output schema; compiled on first call.
  let outputCheck: OutputCheck | null | undefined;
  let approval: ToolApproval | undefined;
  let publicName: string | undefined;

  const ask = async (args: Record<string, unknown>, reason: string, name: string): Promise<void> => {
    if (!approve) {
      throw new ClientError({
        code: ClientErrorCode.ApprovalRequired,
        message: `Tool "${name}" (server "${server}") needs approval (${reason}), and no approve callback was given. Pass \`approve\` to connectMcp, or allow the tool in the approval policy (approval: 'never', or an allow glob).`,
        context: { server, tool: originalName, publicName: name },
      });
    }
    const granted = await approve({
      name,
      server,
      originalName,
      description,
      ...(tool.annotations ? { annotations: tool.annotations } : {}),
      args,
      reason,
    });
    if (granted !== true) {
      throw new ClientError({
        code: ClientErrorCode.ApprovalDenied,
        message: `Tool "${name}" (server "${server}") was not approved; it did not run.`,
        context: { server, tool: originalName, publicName: name },
      });
    }
  };

  const execute = async (
    args: Record<string, unknown> = {},
    executeOptions: McpToolExecuteOptions = noOptions,
  ) => {
    options.gate?.check(server, originalName);
    if (publicName === undefined) publicName = options.publicName(originalName) ?? originalName;
    if (check === undefined) check = steps.compileArgumentCheck({ name: publicName, inputSchema });
    check(args);
    if (approval === undefined) approval = decide();
    if (approval.decision !== 'allow' && !(approval.decision === 'ask' && executeOptions.approved === true)) {
      if (approval.decision === 'deny') {
        throw new ClientError({
          code: ClientErrorCode.ApprovalDenied,
          message: `Tool "${publicName}" (server "${server}") is refused by the approval policy (${approval.reason}); it did not run.`,
          context: { server, tool: originalName, publicName },
        });
      }
      await ask(args, approval.reason, publicName);
    }
    if (outputCheck === undefined) {
      outputCheck =
        outputSchema === undefined
          ? null
          : steps.compileOutputCheck({ name: publicName, server, originalName, outputSchema });
    }
    const started = performance.now();
    let result: CallToolResult;
    try {
      result = await call(originalName, args, executeOptions, retrySafe);
      outputCheck?.(result);
    } catch (error) {
      counter.record(performance.now() - started, true);
      throw error;
    }
    counter.record(performance.now() - started, result.isError === true);
    return options.rawResults || executeOptions.rawResult === true
      ? result
      : steps.wrapResult(result, { name: publicName, server, originalName });
  };

  /** The policy's decision, worked out once (the public name is known by the first ask). */
  const decide = (): ToolApproval => {
    if (publicName === undefined) publicName = options.publicName(originalName) ?? originalName;
    return steps.decideApproval({
      name: publicName,
      server,
      originalName,
      ...(tool.annotations ? { annotations: tool.annotations } : {}),
    });
  };

  const record: Omit<ToolInput, 'server'> = {
    name: originalName,
    description,
    inputSchema,
    execute: execute as RegisteredTool['execute'] & {},
    approval: () => {
      if (approval === undefined) approval = decide();
      return approval;
    },
  };
  if (options.prefix !== undefined) record.prefix = options.prefix;
  if (tool.title !== undefined) record.title = tool.title;
  if (tool.outputSchema !== undefined) record.outputSchema = tool.outputSchema as Record<string, unknown>;
  if (tool.annotations !== undefined) record.annotations = tool.annotations;
  if (tool._meta !== undefined) record.meta = { _meta: tool._meta };
  return record;
}

const noOptions: McpToolExecuteOptions = Object.freeze({});
