/**
 * The plug-in interface of trust checks. A rule reads one tool at a time, with a view of every
 * other tool on the connection (for rules across servers: shadowing, confusable names), and
 * reports findings. Versioned, so that a rule written today keeps working when the interface grows.
 */

import type { TrustableTool } from './tool-definition-digest.js';
import type { ToolFinding } from './tool-finding.js';
import type { ToolText } from './tool-texts.js';

/** A tool as a rule sees it: its definition, the server offering it, and its model-visible texts. */
export interface CheckedTool {
  server: string;
  tool: TrustableTool;
  /** Every model-visible text of the tool, computed once for all rules. */
  texts: readonly ToolText[];
}

/** A finding before the engine adds the tool's server and name. */
export type RuleFinding = Omit<ToolFinding, 'server' | 'tool' | 'rule'>;

/** What a rule may know of the rest of the connection. */
export interface ToolRuleContext {
  /** Every server on the connection (the checked tool's own included). */
  readonly servers: readonly string[];
  /** The servers offering a tool of exactly this name. */
  serversWithTool(name: string): readonly string[];
  /** Every tool name on the connection, with the servers offering it. */
  readonly toolNames: ReadonlyMap<string, readonly string[]>;
  /** The Unicode TR39 skeleton of a string (equal skeletons look alike to a person). */
  skeletonOf(text: string): string;
  /**
   * A value built once per check run and shared by every tool's check (an index over all tools):
   * the first call with a key builds it, later calls return it.
   */
  shared<T>(key: string, build: () => T): T;
}

/** A named check over tool definitions (interface version 1). */
export interface ToolRule {
  /** Version of this interface the rule follows. */
  readonly specificationVersion: 'v1';
  /** The rule's name, unique in a rule set (`invisible-unicode`). */
  readonly name: string;
  /** The finding codes it may report, for documentation and policies. */
  readonly codes: readonly string[];
  /**
   * What its findings depend on: `tool` — the tool's own definition only; `connection` — the other
   * servers' tools too (shadowing, look-alike names), so they are checked again when those change.
   * @default 'connection'
   */
  readonly scope?: 'tool' | 'connection';
  /** The findings in one tool; an empty array when there are none. */
  check(tool: CheckedTool, context: ToolRuleContext): readonly RuleFinding[];
}
