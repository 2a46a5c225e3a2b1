/**
 * A check on tool results before they reach the model: secrets the result carries (tokens, keys)
 * and the hidden-text patterns the definition rules look for (invisible characters, hidden
 * markup, orders to the model) — a result is model input as much as a description is. Pluggable
 * (a versioned interface), with one built-in guard; off unless a connection turns it on.
 */

import { hiddenMarkupRule } from './rules/hidden-markup-rule.js';
import { invisibleUnicodeRule } from './rules/invisible-unicode-rule.js';
import { modelInstructionRule } from './rules/model-instruction-rule.js';
import { defaultSecretPatterns, type SecretPattern } from './secret-patterns.js';
import { excerptOf, type FindingSeverity } from './tool-finding.js';
import type { ToolRule, ToolRuleContext } from './tool-rule.js';
import type { ToolText } from './tool-texts.js';

/** A tool result as the guard reads it: an MCP `CallToolResult`'s shape. */
export interface GuardedResult {
  content?: unknown[];
  structuredContent?: unknown;
  [key: string]: unknown;
}

/** One thing the guard found in a result. */
export interface ResultFinding {
  /** `secret` or the rule's name. */
  rule: string;
  /** `SECRET` (with its kind) or the rule's finding code. */
  code: string;
  /** The secret's kind (`github-token`), for a secret. */
  kind?: string;
  severity: FindingSeverity;
  /** Where in the result (`content.0.text`, `structuredContent.items.2.token`). */
  field: string;
  /** The flagged text, made visible; a secret's is masked. */
  excerpt: string;
  /** True when the span was redacted. */
  redacted: boolean;
}

/** What the guard made of a result. */
export interface ResultGuardOutcome {
  /** The result to hand on: the same object when nothing was redacted. */
  result: GuardedResult;
  findings: ResultFinding[];
}

/** Where a result came from. */
export interface ResultGuardContext {
  server: string;
  tool: string;
}

/** A check on tool results (interface version 1). */
export interface ResultGuard {
  /** Version of this interface the guard follows. */
  readonly specificationVersion: 'v1';
  readonly name: string;
  inspect(result: GuardedResult, context: ResultGuardContext): ResultGuardOutcome;
}

/** Options of {@link createResultGuard}. */
export interface ResultGuardOptions {
  /** `flag`: report only; `redact`: also replace what was found. @default 'redact' */
  action?: 'flag' | 'redact';
  /** Look for secrets. @default true */
  secrets?: boolean;
  /** Look for invisible characters and hidden markup (redacted), and orders to the model (reported). @default true */
  hiddenText?: boolean;
  /** The secret shapes. @default defaultSecretPatterns */
  secretPatterns?: readonly SecretPattern[];
}

const emptyContext: ToolRuleContext = {
  servers: [],
  toolNames: new Map(),
  serversWithTool: () => [],
  skeletonOf: (text) => text,
  shared: (_key, build) => build(),
};

// Rules whose spans are removed on redaction; the instruction rule's are reported only, since
// removing words from data would change what it says.
const removable: readonly ToolRule[] = [invisibleUnicodeRule, hiddenMarkupRule];

interface Span {
  start: number;
  end: number;
  replacement: string;
}

function redactSpans(text: string, spans: Span[]): string {
  if (spans.length === 0) return text;
  spans.sort((left, right) => left.start - right.start);
  let out = '';
  let at = 0;
  for (const span of spans) {
    if (span.start < at) continue;
    out += text.slice(at, span.start) + span.replacement;
    at = span.end;
  }
  return out + text.slice(at);
}

/** The built-in result guard. */
export function createResultGuard(options: ResultGuardOptions = {}): ResultGuard {
  const redact = (options.action ?? 'redact') === 'redact';
  const secrets = options.secrets === false ? [] : (options.secretPatterns ?? defaultSecretPatterns);
  const hiddenText = options.hiddenText !== false;

  function inspectText(text: string, field: string, findings: ResultFinding[]): string {
    const spans: Span[] = [];
    for (const { kind, pattern } of secrets) {
      pattern.lastIndex = 0;
      for (const match of text.matchAll(pattern)) {
        const secret = match[1] ?? match[0];
        const start = match.index + (match[1] === undefined ? 0 : match[0].indexOf(match[1]));
        findings.push({
          rule: 'secret',
          code: 'SECRET',
          kind,
          severity: 'high',
          field,
          excerpt: `${secret.slice(0, 4)}…(${secret.length} characters)`,
          redacted: redact,
        });
        spans.push({ start, end: start + secret.length, replacement: `[REDACTED:${kind}]` });
      }
    }
    if (hiddenText) {
      const texts: ToolText[] = [{ field, text, prose: true }];
      const checked = { server: '', tool: { name: '' }, texts };
      for (const rule of [...removable, modelInstructionRule]) {
        for (const finding of rule.check(checked, emptyContext)) {
          if (finding.field !== field) continue;
          const removes = removable.includes(rule);
          findings.push({
            rule: rule.name,
            code: finding.code,
            severity: finding.severity,
            field,
            excerpt: excerptOf(text, finding.start, finding.end),
            redacted: redact && removes,
          });
          if (removes) spans.push({ start: finding.start, end: finding.end, replacement: '' });
        }
      }
    }
    return redact ? redactSpans(text, spans) : text;
  }

  function walk(value: unknown, field: string, findings: ResultFinding[], depth: number): unknown {
    if (typeof value === 'string') return inspectText(value, field, findings);
    if (depth > 32 || value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) {
      let copy: unknown[] | undefined;
      value.forEach((item, index) => {
        const next = walk(item, `${field}.${index}`, findings, depth + 1);
        if (next !== item) {
          copy ??= [...value];
          copy[index] = next;
        }
      });
      return copy ?? value;
    }
    let copy: Record<string, unknown> | undefined;
    for (const [key, item] of Object.entries(value)) {
      // Binary parts (images, audio, blobs) are base64, not text a model reads as words.
      if (key === 'data' || key === 'blob') continue;
      const next = walk(item, field === '' ? key : `${field}.${key}`, findings, depth + 1);
      if (next !== item) {
        copy ??= { ...(value as Record<string, unknown>) };
        copy[key] = next;
      }
    }
    return copy ?? value;
  }

  return {
    specificationVersion: 'v1',
    name: 'default',
    inspect(result) {
      const findings: ResultFinding[] = [];
      const guarded: GuardedResult = { ...result };
      let changed = false;
      for (const key of ['content', 'structuredContent'] as const) {
        if (result[key] === undefined) continue;
        const next = walk(result[key], key, findings, 0);
        if (next !== result[key]) {
          guarded[key] = next as never;
          changed = true;
        }
      }
      return { result: changed ? guarded : result, findings };
    },
  };
}
