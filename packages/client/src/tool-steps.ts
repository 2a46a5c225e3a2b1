/**
 * The per-call steps core provides (argument validation, approval, result wrapping), gathered in
 * one place so the tool pipeline stays independent of how core spells them.
 */

import type { CallToolResult } from '@modelcontextprotocol/client';
import type { RegisteredTool, ToolAnnotations } from '@switchboard/core';

/** Checks arguments before they are sent; throws a `VALIDATION_FAILED` error naming the tool and the problems. */
export type ArgumentCheck = (args: Record<string, unknown>) => void;

/** Checks a result against the tool's output schema; throws an `OUTPUT_INVALID` error naming the tool and the problems. */
export type OutputCheck = (result: CallToolResult) => void;

/** An approval decision for one tool. */
export interface ToolApproval {
  decision: 'allow' | 'ask' | 'deny';
  reason: string;
}

/** The core steps of a tool call. */
export interface ToolSteps {
  /** Compiles the argument check of a tool once (at registration or first call). */
  compileArgumentCheck(
    tool: Pick<RegisteredTool, 'name' | 'server' | 'originalName' | 'inputSchema'>,
  ): ArgumentCheck;
  /**
   * Compiles the check of a tool's structured output (tools that declare an `outputSchema`).
   * Optional so that steps written before it keep working; without it outputs are not checked.
   */
  compileOutputCheck?(
    tool: Pick<RegisteredTool, 'name' | 'server' | 'originalName'> & {
      outputSchema: Record<string, unknown>;
    },
  ): OutputCheck;
  /** Decides whether a tool may run. */
  decideApproval(tool: {
    name: string;
    server: string;
    originalName: string;
    annotations?: ToolAnnotations;
  }): ToolApproval;
  /** Turns a raw result into what `execute` returns. */
  wrapResult(result: CallToolResult, tool: { name: string; server: string; originalName: string }): unknown;
}
