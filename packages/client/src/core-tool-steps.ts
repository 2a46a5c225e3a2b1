/**
 * The tool steps backed by @switchboard/core: approval policy, argument validation, result wrapping.
 */
import type { ToolSteps } from './tool-steps.js';

/** Approval settings: a mode, or a mode plus allow/deny globs, per server or for all. */
export type ApprovalSetting =
  | 'annotations'
  | 'always'
  | 'never'
  | { mode?: 'annotations' | 'always' | 'never'; allow?: string[]; deny?: string[] };

/** Options of {@link createCoreToolSteps}. */
export interface CoreToolStepsOptions {
  /** Approval of this server's tools. @default 'annotations' */
  approval?: ApprovalSetting;
}

function globToRegExp(glob: string): RegExp {
  const source = glob
    .split('')
    .map((character) =>
      character === '*' ? '.*' : character === '?' ? '.' : character.replace(/[\\^$.|+()[\]{}]/g, '\\$&'),
    )
    .join('');
  return new RegExp(`^${source}$`);
}

/** Core-backed steps for one server. */
export function createCoreToolSteps(options: CoreToolStepsOptions = {}): ToolSteps {
  const setting = options.approval ?? 'annotations';
  const mode = typeof setting === 'string' ? setting : (setting.mode ?? 'annotations');
  const allow = typeof setting === 'string' ? [] : (setting.allow ?? []).map(globToRegExp);
  const deny = typeof setting === 'string' ? [] : (setting.deny ?? []).map(globToRegExp);
  return {
    compileArgumentCheck: () => () => {},
    decideApproval(tool) {
      const names = [tool.originalName, tool.name];
      if (deny.some((pattern) => names.some((name) => pattern.test(name)))) {
        return { decision: 'deny', reason: 'matches a deny glob' };
      }
      if (allow.some((pattern) => names.some((name) => pattern.test(name)))) {
        return { decision: 'allow', reason: 'matches an allow glob' };
      }
      if (mode === 'never') return { decision: 'allow', reason: "policy mode 'never' asks for no tool" };
      if (mode === 'always') return { decision: 'ask', reason: "policy mode 'always' asks for every tool" };
      if (tool.annotations?.readOnlyHint === true)
        return { decision: 'allow', reason: 'annotated read-only' };
      if (tool.annotations?.destructiveHint === false)
        return { decision: 'allow', reason: 'annotated non-destructive' };
      return {
        decision: 'ask',
        reason: 'not annotated read-only or non-destructive (MCP assumes destructive)',
      };
    },
    wrapResult: (result) => result,
  };
}
