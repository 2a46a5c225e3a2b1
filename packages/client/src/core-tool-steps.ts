/**
 * The tool steps backed by @switchboard/core: argument validation (validators compiled once per
 * tool and cached), the approval policy, and result wrapping.
 */
import {
  type ApprovalMode,
  type ApprovalPolicy,
  type ArgumentValidator,
  createApprovalPolicy,
  createArgumentValidator,
  SwitchboardError,
  type WrapToolResultOptions,
  wrapToolResult,
} from '@switchboard/core';
import type { ToolSteps } from './tool-steps.js';

/**
 * Approval of a server's tools: a mode (`'annotations'`, `'always'`, `'never'` or a function), a
 * mode plus allow/deny name globs (the config's form), or a ready core `ApprovalPolicy`.
 */
export type ApprovalSetting =
  | ApprovalMode
  | { mode?: ApprovalMode; allow?: string[]; deny?: string[] }
  | ApprovalPolicy;

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

function isPolicy(setting: ApprovalSetting): setting is ApprovalPolicy {
  return typeof setting === 'object' && typeof (setting as ApprovalPolicy).decide === 'function';
}

function toPolicy(server: string, setting: ApprovalSetting): ApprovalPolicy {
  if (isPolicy(setting)) return setting;
  if (typeof setting === 'string' || typeof setting === 'function')
    return createApprovalPolicy({ mode: setting });
  return createApprovalPolicy({
    ...(setting.mode === undefined ? {} : { mode: setting.mode }),
    servers: {
      [server]: {
        ...(setting.allow ? { allow: setting.allow } : {}),
        ...(setting.deny ? { deny: setting.deny } : {}),
      },
    },
  });
}

/** A shared argument validator for the tools of many servers. */
export function createSharedValidator(): ArgumentValidator {
  return createArgumentValidator();
}

/** Core-backed steps for one server. */
export function createCoreToolSteps(options: CoreToolStepsOptions): ToolSteps {
  const policy = toPolicy(options.server, options.approval ?? 'annotations');
  const { validator } = options;
  const wrapOptions = options.wrap ?? {};
  return {
    compileArgumentCheck(tool) {
      // One object per tool, so the validator's per-tool cache hits on every call after the first.
      const target = { name: tool.name, inputSchema: tool.inputSchema };
      validator.validate(target, {});
      return (args) => {
        const outcome = validator.validate(target, args);
        if (!outcome.valid) throw outcome.error;
      };
    },
    compileOutputCheck(tool) {
      // The SDK's Client.callTool makes the same two checks; a model should not be handed
      // structured data that contradicts the schema it was promised.
      const target = { name: tool.name, inputSchema: tool.outputSchema };
      const where = `Tool "${tool.name}" (server "${tool.server}")`;
      const fail = (detail: string, problems: unknown[] = []) =>
        new SwitchboardError({
          code: 'OUTPUT_INVALID',
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
    },
    decideApproval: (tool) => policy.decide(tool),
    wrapResult: (result, tool) => wrapToolResult(result, { ...wrapOptions, toolName: tool.name }),
  };
}
