/**
 * Tool trust in a trace: the names of the span that reviews a server's listing, of the events it
 * carries — one per finding (rule, code, severity, field, the flagged span) and one per tool held
 * back (quarantined or rejected, and what changed) — and the attributes of each. Plain strings and
 * records, as in `mcp-semantic-conventions.ts`: core imports no OpenTelemetry package.
 *
 * What leaves the process: names, codes and where the text is, never a definition's text, but the
 * flagged span itself — a person needs it to judge the finding. That span is the server's own text,
 * which may hold a secret (a description that pastes a token, a URL with a password), so it goes out
 * with every secret shape masked (`[REDACTED:kind]`) and cut to {@link maxTrustExcerptLength}.
 */
import { defaultSecretPatterns } from './secret-patterns.js';
import type { ToolFinding } from './tool-finding.js';
import type { ToolTrustVerdict } from './trust-review.js';

/** The span that reviews one server's listing (`trust review {server}`). */
export const trustReviewSpanName = (server: string): string => `trust review ${server}`;

/** Names of the events on a trust review span. */
export const TrustSpanEvent = {
  /** One finding of a rule on a listed tool. */
  finding: 'switchboard.trust.finding',
  /** A listed tool held back from the model (quarantined or rejected), or let through by `pin: 'warn'`. */
  quarantined: 'switchboard.trust.quarantined',
} as const;

/** Attribute names of the trust review span and its events. */
export const TrustAttribute = {
  /** The server whose listing is reviewed. */
  server: 'switchboard.trust.server',
  /** How many tools the listing had (span). */
  listed: 'switchboard.trust.listed',
  /** How many of them are held back (span). */
  heldBack: 'switchboard.trust.held_back',
  /** How many findings there are (span). */
  findings: 'switchboard.trust.findings',
  /** The tool (events), as the MCP conventions name a tool. */
  tool: 'gen_ai.tool.name',
  /** The rule's name (`model-instruction`). */
  rule: 'switchboard.trust.rule',
  /** The finding's code (`SENSITIVE_FILE_ACCESS`). */
  code: 'switchboard.trust.code',
  /** `info` … `critical`. */
  severity: 'switchboard.trust.severity',
  /** Where the flagged text is (`inputSchema.properties.path.description`). */
  field: 'switchboard.trust.field',
  /** The flagged span's UTF-16 offsets in that field. */
  start: 'switchboard.trust.start',
  end: 'switchboard.trust.end',
  /** The flagged span, made visible, secrets masked, cut (see the module comment). */
  excerpt: 'switchboard.trust.excerpt',
  /** `quarantined` or `rejected`. */
  state: 'switchboard.trust.state',
  /** Why: `changed`, `new-tool`, `renamed`, `new-server`, `finding`. */
  change: 'switchboard.trust.change',
  /** The parts of a changed definition (`description`, `inputSchema`, …). */
  parts: 'switchboard.trust.parts',
  /** The pinned name a renamed tool had. */
  previousName: 'switchboard.trust.previous_name',
  /** False when the tool is hidden and refused; true under `pin: 'warn'`. */
  usable: 'switchboard.trust.usable',
} as const;

/** The longest flagged span an event carries (characters). */
export const maxTrustExcerptLength = 64;

/** An event's attributes: what OpenTelemetry's `Attributes` accepts of them. */
export type TrustSpanAttributes = Record<string, string | number | boolean | string[]>;

/** `text` with every secret shape masked, then cut to {@link maxTrustExcerptLength} characters. */
export function safeTrustExcerpt(text: string): string {
  let masked = text;
  // Masked before the cut, so that a secret cut in half is still recognised by its whole shape.
  for (const { kind, pattern } of defaultSecretPatterns)
    masked = masked.replace(pattern, `[REDACTED:${kind}]`);
  return masked.length > maxTrustExcerptLength ? `${masked.slice(0, maxTrustExcerptLength)}…` : masked;
}

/** The attributes of one finding's event. */
export function findingSpanAttributes(finding: ToolFinding): TrustSpanAttributes {
  return {
    [TrustAttribute.server]: finding.server,
    [TrustAttribute.tool]: finding.tool,
    [TrustAttribute.rule]: finding.rule,
    [TrustAttribute.code]: finding.code,
    [TrustAttribute.severity]: finding.severity,
    [TrustAttribute.field]: finding.field,
    [TrustAttribute.start]: finding.start,
    [TrustAttribute.end]: finding.end,
    [TrustAttribute.excerpt]: safeTrustExcerpt(finding.excerpt),
  };
}

/** The attributes of a held-back tool's event (names and codes only). */
export function verdictSpanAttributes(verdict: ToolTrustVerdict): TrustSpanAttributes {
  return {
    [TrustAttribute.server]: verdict.server,
    [TrustAttribute.tool]: verdict.tool,
    [TrustAttribute.state]: verdict.state,
    [TrustAttribute.usable]: verdict.usable,
    ...(verdict.change === undefined ? {} : { [TrustAttribute.change]: verdict.change }),
    ...(verdict.parts === undefined || verdict.parts.length === 0
      ? {}
      : { [TrustAttribute.parts]: [...verdict.parts] }),
    ...(verdict.previousName === undefined ? {} : { [TrustAttribute.previousName]: verdict.previousName }),
  };
}
