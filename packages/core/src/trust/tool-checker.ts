/**
 * Runs trust rules over the tools of a connection: each tool's texts are gathered once, the
 * connection-wide view (names, servers, skeletons) is built once, and every rule reads them.
 */

import { SwitchboardError } from '../switchboard-error.js';
import { asciiSkeleton, loadSkeleton, needsFullSkeleton, type SkeletonOf } from './confusable-skeleton.js';
import { defaultToolRules } from './default-tool-rules.js';
import type { TrustableTool } from './tool-definition-digest.js';
import type { ToolFinding } from './tool-finding.js';
import type { CheckedTool, ToolRule, ToolRuleContext } from './tool-rule.js';
import { toolTexts } from './tool-texts.js';

/** A tool to check, with the server offering it. */
export interface ToolToCheck {
  server: string;
  tool: TrustableTool;
}

/** Options of {@link createToolChecker}. */
export interface ToolCheckerOptions {
  /** The rules to run. @default defaultToolRules */
  rules?: readonly ToolRule[];
}

/** Options of one {@link ToolChecker.check}. */
export interface ToolCheckOptions {
  /**
   * Check only the tools this accepts (the others still count as the connection's tools, for
   * shadowing and names). @default every tool
   */
  only?: (server: string, name: string) => boolean;
}

/** Runs rules over a connection's tools. */
export interface ToolChecker {
  /** The rules it runs. */
  readonly rules: readonly ToolRule[];
  /** The findings in `tools`, all servers together (a finding names its server and tool). */
  check(tools: readonly ToolToCheck[], options?: ToolCheckOptions): Promise<ToolFinding[]>;
}

/** Code of the finding reported when a rule throws (the check carries on with the other rules). */
export const ruleFailedCode = 'RULE_FAILED';

function checkRules(rules: readonly ToolRule[]): void {
  const names = new Set<string>();
  for (const rule of rules) {
    if (
      rule?.specificationVersion !== 'v1' ||
      typeof rule.check !== 'function' ||
      typeof rule.name !== 'string'
    ) {
      throw new SwitchboardError({
        code: 'INVALID_ARGUMENT',
        message: `Tool checker: rule ${JSON.stringify((rule as { name?: unknown } | undefined)?.name ?? rule)} is not a ToolRule v1 (it needs specificationVersion 'v1', a name and check()).`,
      });
    }
    if (names.has(rule.name)) {
      throw new SwitchboardError({
        code: 'INVALID_ARGUMENT',
        message: `Tool checker: two rules are named "${rule.name}"; give each rule its own name.`,
      });
    }
    names.add(rule.name);
  }
}

function createContext(tools: readonly ToolToCheck[], skeletonOf: SkeletonOf): ToolRuleContext {
  const toolNames = new Map<string, string[]>();
  const servers = new Set<string>();
  for (const { server, tool } of tools) {
    servers.add(server);
    const holders = toolNames.get(tool.name);
    if (holders === undefined) toolNames.set(tool.name, [server]);
    else if (!holders.includes(server)) holders.push(server);
  }
  const memo = new Map<string, unknown>();
  const none: readonly string[] = [];
  return {
    servers: [...servers],
    toolNames,
    serversWithTool: (name) => toolNames.get(name) ?? none,
    skeletonOf,
    shared<T>(key: string, build: () => T): T {
      if (!memo.has(key)) memo.set(key, build());
      return memo.get(key) as T;
    },
  };
}

/** Creates a checker over the given rules (the built-in set by default). */
export function createToolChecker(options: ToolCheckerOptions = {}): ToolChecker {
  const rules = options.rules ?? defaultToolRules;
  checkRules(rules);
  return {
    rules,
    async check(tools, checkOptions = {}) {
      // The full confusables table loads only when a name needs it (see confusable-skeleton.ts).
      const skeletonOf = tools.some(({ tool }) => needsFullSkeleton(tool.name))
        ? await loadSkeleton()
        : asciiSkeleton;
      const context = createContext(tools, skeletonOf);
      const findings: ToolFinding[] = [];
      for (const { server, tool } of tools) {
        if (checkOptions.only !== undefined && !checkOptions.only(server, tool.name)) continue;
        const checked: CheckedTool = { server, tool, texts: toolTexts(tool) };
        for (const rule of rules) {
          try {
            for (const finding of rule.check(checked, context))
              findings.push({ ...finding, rule: rule.name, server, tool: tool.name });
          } catch (error) {
            findings.push({
              rule: rule.name,
              code: ruleFailedCode,
              severity: 'info',
              server,
              tool: tool.name,
              field: 'name',
              start: 0,
              end: 0,
              excerpt: '',
              message: `Rule "${rule.name}" failed on this tool and was skipped: ${error instanceof Error ? error.message : String(error)}`,
            });
          }
        }
      }
      return findings;
    },
  };
}
