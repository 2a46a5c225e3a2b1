/**
 * The steps of a tool call that @switchboard/core provides: argument validation (validators
 * compiled once per tool and cached), the approval policy, the output check, and result wrapping.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import {
  type ApprovalPolicy,
  type ArgumentValidator,
  createArgumentValidator,
  type RegisteredTool,
  type SwitchboardError,
  type ToolAnnotations,
  type WrapToolResultOptions,
  wrapToolResult,
} from '@switchboard/core';
import { type ApprovalSetting, toApprovalPolicy } from './approval-setting.js';
import { asClientError, ClientError, ClientErrorCode, type ClientFailureCode } from './client-error.js';

/** Checks arguments before they are sent; throws a `VALIDATION_FAILED` error naming the tool and the problems. */
export type ArgumentCheck = (args: Record<string, unknown>) => void;

/** Checks a result against the tool's output schema; throws an `OUTPUT_INVALID` error naming the tool and the problems. */
export type OutputCheck = (result: CallToolResult) => void;

/** An approval decision for one tool. */
export interface ToolApproval {
  decision: 'allow' | 'ask' | 'deny';
  reason: string;
}

/** The names of a tool that messages and policies use. */
interface ToolNames {
  name: string;
  server: string;
  originalName: string;
}

/** Options of {@link createCoreToolSteps}. */
export interface CoreToolStepsOptions {
  /** The server these steps serve (allow/deny globs are keyed by it). */
  server: string;
  /** Approval of this server's tools. @default 'annotations' */
  approval?: ApprovalSetting;
  /** Shared validator (its cache serves every server). */
  validator: ArgumentValidator;
  /** Options of core's `wrapToolResult` (output budget, instruction...). */
  wrap?: Omit<WrapToolResultOptions, 'toolName' | 'shape'>;
}

/** A shared argument validator for the tools of many servers. */
export function createSharedValidator(): ArgumentValidator {
  return createArgumentValidator();
}

/** The core steps of the tool calls of one server. */
export class CoreToolSteps {
  private readonly policy: ApprovalPolicy;
  private readonly validator: ArgumentValidator;
  private readonly wrapOptions: Omit<WrapToolResultOptions, 'toolName' | 'shape'>;

  constructor(options: CoreToolStepsOptions) {
    this.policy = toApprovalPolicy(options.server, options.approval);
    this.validator = options.validator;
    this.wrapOptions = options.wrap ?? {};
  }

  /** Compiles the argument check of a tool once (at registration or first call). */
  compileArgumentCheck(tool: Pick<RegisteredTool, 'name' | 'inputSchema'>): ArgumentCheck {
    // One object per tool, so the validator's per-tool cache hits on every call after the first.
    const target = { name: tool.name, inputSchema: tool.inputSchema };
    const validator = this.validator;
    validator.validate(target, {});
    return (args) => {
      const outcome = validator.validate(target, args);
      // A `ClientError` like every error the client raises (core's validator raises its own kind).
      if (!outcome.valid)
        throw asClientError(outcome.error as SwitchboardError & { code: ClientFailureCode });
    };
  }

  /** Compiles the check of the structured output of a tool that declares an `outputSchema`. */
  compileOutputCheck(tool: ToolNames & { outputSchema: Record<string, unknown> }): OutputCheck {
    // The SDK's Client.callTool makes the same two checks; a model should not be handed
    // structured data that contradicts the schema it was promised.
    const target = { name: tool.name, inputSchema: tool.outputSchema };
    const validator = this.validator;
    const where = `Tool "${tool.name}" (server "${tool.server}")`;
    const fail = (detail: string, problems: unknown[] = []) =>
      new ClientError({
        code: ClientErrorCode.OutputInvalid,
        message: `${where} ${detail} The server has to fix the tool's output or its outputSchema.`,
        context: { server: tool.server, tool: tool.originalName, publicName: tool.name, problems },
      });
    return (result) => {
      if (result.isError === true) return;
      if (result.structuredContent === undefined) {
        throw fail('declares an outputSchema but returned no structuredContent.');
      }
      const outcome = validator.validate(target, result.structuredContent);
      if (outcome.valid) return;
      const listed = outcome.problems.slice(0, 5).map((problem) => problem.message);
      throw fail(
        `returned structuredContent that does not match its outputSchema: ${listed.join('; ')}.`,
        outcome.problems,
      );
    };
  }

  /** Decides whether a tool may run. */
  decideApproval(tool: ToolNames & { annotations?: ToolAnnotations }): ToolApproval {
    return this.policy.decide(tool);
  }

  /** Turns a raw result into what `execute` returns. */
  wrapResult(result: CallToolResult, tool: ToolNames): unknown {
    // Not `{ ...this.wrapOptions, toolName }`: see `paramsOf` in request-engine.ts.
    return wrapToolResult(result, Object.assign({}, this.wrapOptions, { toolName: tool.name }));
  }
}

/** Core-backed steps for one server. */
export function createCoreToolSteps(options: CoreToolStepsOptions): CoreToolSteps {
  return new CoreToolSteps(options);
}
