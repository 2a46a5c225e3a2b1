/**
 * Approval policy: before a tool runs, decide whether it may run, needs a human's yes, or is
 * refused. Annotations are hints from a server that may not be trusted, so the default errs
 * towards asking: MCP says a tool without annotations is assumed destructive.
 */
import { compileNameGlob } from './name-glob.js';
import { SwitchboardError } from './switchboard-error.js';
import type { ToolAnnotations } from './tool-definition.js';

/** What to do with a tool call. */
export type ApprovalDecision = 'allow' | 'ask' | 'deny';

/** A decision and why, in words fit for a log line or an approval prompt. */
export interface ApprovalResult {
  decision: ApprovalDecision;
  reason: string;
}

/** The tool a decision is about (a `RegisteredTool` fits). */
export interface ApprovalRequest {
  /** Public (namespaced) name. */
  name: string;
  server: string;
  /** Name on its server. @default name */
  originalName?: string;
  annotations?: ToolAnnotations;
}

/**
 * A custom decision: `true` runs, `false` refuses, `'ask'` asks; `'allow'`/`'deny'` are accepted
 * too, as is a full {@link ApprovalResult}.
 */
export type ApprovalFunction = (
  request: Required<Pick<ApprovalRequest, 'name' | 'server' | 'originalName'>> & {
    annotations?: ToolAnnotations;
  },
) => boolean | ApprovalDecision | ApprovalResult;

/**
 * The built-in modes, by name: what a config file can hold (a JSON value), where {@link ApprovalMode}
 * also takes a function.
 */
export type ApprovalModeName = 'annotations' | 'always' | 'never';

/** How tools not matched by an allow/deny glob are decided: a built-in mode or a function. */
export type ApprovalMode = ApprovalModeName | ApprovalFunction;

/** Name globs (`*` any run of characters, `?` one character), matched against original and public names. */
export interface ApprovalRules {
  /** Tools that run without asking. */
  allow?: string[];
  /** Tools that never run. Wins over `allow`. */
  deny?: string[];
}

/** Options of {@link createApprovalPolicy}. */
export interface ApprovalPolicyOptions {
  /**
   * `'annotations'`: `readOnlyHint: true` or `destructiveHint: false` runs, anything else asks;
   * `'always'`: always ask; `'never'`: never ask; or a function. @default 'annotations'
   */
  mode?: ApprovalMode;
  /** Allow/deny globs per server name; the key `'*'` applies to every server. @default {} */
  servers?: Record<string, ApprovalRules>;
}

/** Decides whether a tool call runs (a versioned extension point: bring your own). */
export interface ApprovalPolicy {
  readonly specificationVersion: 'v1';
  decide(request: ApprovalRequest): ApprovalResult;
}

const modes: readonly ApprovalModeName[] = ['annotations', 'always', 'never'];

interface CompiledRules {
  allow: Array<{ glob: string; pattern: RegExp }>;
  deny: Array<{ glob: string; pattern: RegExp }>;
}

function compileRules(server: string, rules: unknown): CompiledRules {
  if (typeof rules !== 'object' || rules === null) {
    throw new SwitchboardError({
      code: 'INVALID_ARGUMENT',
      message: `Approval policy: rules for server "${server}" must be an object like { allow: ['read_*'], deny: ['delete_*'] }.`,
      context: { server },
    });
  }
  const compiled: CompiledRules = { allow: [], deny: [] };
  for (const list of ['allow', 'deny'] as const) {
    const globs = (rules as ApprovalRules)[list];
    if (globs === undefined) continue;
    if (!Array.isArray(globs) || globs.some((glob) => typeof glob !== 'string' || glob === '')) {
      throw new SwitchboardError({
        code: 'INVALID_ARGUMENT',
        message: `Approval policy: servers["${server}"].${list} must be an array of non-empty name globs such as "read_*".`,
        context: { server, list },
      });
    }
    compiled[list] = globs.map((glob) => ({ glob, pattern: compileNameGlob(glob) }));
  }
  return compiled;
}

function decideByAnnotations(annotations: ToolAnnotations | undefined): ApprovalResult {
  if (annotations?.readOnlyHint === true)
    return { decision: 'allow', reason: 'read-only (readOnlyHint: true)' };
  if (annotations?.destructiveHint === false) {
    return { decision: 'allow', reason: 'not destructive (destructiveHint: false)' };
  }
  if (annotations?.destructiveHint === true)
    return { decision: 'ask', reason: 'destructive (destructiveHint: true)' };
  return {
    decision: 'ask',
    reason: 'no readOnlyHint or destructiveHint: MCP assumes such a tool may be destructive',
  };
}

function normaliseCustom(value: unknown): ApprovalResult | undefined {
  if (value === true) return { decision: 'allow', reason: 'allowed by the custom policy' };
  if (value === false) return { decision: 'deny', reason: 'denied by the custom policy' };
  if (value === 'allow' || value === 'ask' || value === 'deny') {
    const verb = { allow: 'allowed', ask: 'approval asked', deny: 'denied' }[value];
    return { decision: value, reason: `${verb} by the custom policy` };
  }
  if (
    typeof value === 'object' &&
    value !== null &&
    ['allow', 'ask', 'deny'].includes((value as ApprovalResult).decision) &&
    typeof (value as ApprovalResult).reason === 'string'
  ) {
    return value as ApprovalResult;
  }
  return undefined;
}

/**
 * Creates an approval policy. Order: deny globs (refuse), then allow globs (run), then the mode.
 * A custom function that throws or returns something unexpected yields `'ask'`: a broken policy
 * should bring a human in, neither run the tool silently nor block the agent for good.
 */
export function createApprovalPolicy(options: ApprovalPolicyOptions = {}): ApprovalPolicy {
  const mode = options.mode ?? 'annotations';
  if (typeof mode !== 'function' && !modes.includes(mode)) {
    throw new SwitchboardError({
      code: 'INVALID_ARGUMENT',
      message: `Approval policy: unknown mode "${String(mode)}"; use 'annotations', 'always', 'never' or a function.`,
      context: { mode: String(mode) },
    });
  }
  const rules = new Map<string, CompiledRules>();
  for (const [server, serverRules] of Object.entries(options.servers ?? {})) {
    rules.set(server, compileRules(server, serverRules));
  }
  const everyServer = rules.get('*');

  function matchRule(list: 'allow' | 'deny', server: string, names: string[]): string | undefined {
    for (const compiled of [rules.get(server), server === '*' ? undefined : everyServer]) {
      const hit = compiled?.[list].find((rule) => names.some((name) => rule.pattern.test(name)));
      if (hit)
        return `${list} glob "${hit.glob}" of ${compiled === everyServer ? 'every server' : `server "${server}"`}`;
    }
    return undefined;
  }

  return {
    specificationVersion: 'v1',
    decide(request) {
      const originalName = request.originalName ?? request.name;
      const names = originalName === request.name ? [request.name] : [originalName, request.name];
      const denied = matchRule('deny', request.server, names);
      if (denied) return { decision: 'deny', reason: `matches ${denied}` };
      const allowed = matchRule('allow', request.server, names);
      if (allowed) return { decision: 'allow', reason: `matches ${allowed}` };
      if (mode === 'always') return { decision: 'ask', reason: "policy mode 'always' asks for every tool" };
      if (mode === 'never') return { decision: 'allow', reason: "policy mode 'never' asks for no tool" };
      if (mode === 'annotations') return decideByAnnotations(request.annotations);
      let value: unknown;
      try {
        value = mode({
          name: request.name,
          server: request.server,
          originalName,
          ...(request.annotations === undefined ? {} : { annotations: request.annotations }),
        });
      } catch (error) {
        return {
          decision: 'ask',
          reason: `the custom policy threw (${error instanceof Error ? error.message : String(error)}); asking instead`,
        };
      }
      return (
        normaliseCustom(value) ?? {
          decision: 'ask',
          reason: `the custom policy returned ${JSON.stringify(value) ?? String(value)}, not true, false, 'allow', 'ask' or 'deny'; asking instead`,
        }
      );
    },
  };
}
