/**
 * What a trust rule reports: one finding per suspicious span of text, with the rule and code that
 * found it, how serious it is and where it is, so a person can see exactly what was flagged.
 */

/** How serious a finding is, from least to most. */
export type FindingSeverity = 'info' | 'low' | 'medium' | 'high' | 'critical';

/** The severities in rising order. */
export const findingSeverities: readonly FindingSeverity[] = ['info', 'low', 'medium', 'high', 'critical'];

/** The rank of a severity (`info` 0 … `critical` 4), for comparisons. */
export function severityRank(severity: FindingSeverity): number {
  return findingSeverities.indexOf(severity);
}

/** True when `severity` is at or above `threshold`. */
export function severityAtLeast(severity: FindingSeverity, threshold: FindingSeverity): boolean {
  return severityRank(severity) >= severityRank(threshold);
}

/** One thing a rule flagged in a tool's definition. */
export interface ToolFinding {
  /** The rule's name (`invisible-unicode`). */
  rule: string;
  /** The finding's code (`TAG_CHARACTERS`): stable, for policies and tests. */
  code: string;
  severity: FindingSeverity;
  /** The server offering the tool. */
  server: string;
  /** The tool's name on its server. */
  tool: string;
  /** Where the flagged text is (`description`, `inputSchema.properties.path.description`, `name`). */
  field: string;
  /** The flagged span, as UTF-16 offsets into that field's text. */
  start: number;
  end: number;
  /** The flagged text, with invisible characters shown as `<U+200B>` and cut to a readable length. */
  excerpt: string;
  /** What was found and why it matters, for a person. */
  message: string;
}

const maxExcerpt = 120;

/** The flagged span of `text`, made visible: invisible and control characters as `<U+XXXX>`, cut at 120 characters. */
export function excerptOf(text: string, start: number, end: number): string {
  const shown = visibleText(text.slice(start, end), { lineBreaks: 'space', maxLength: maxExcerpt + 1 });
  return shown.length > maxExcerpt ? `${shown.slice(0, maxExcerpt)}…` : shown;
}

/**
 * `text` with every invisible, directional or control character written as `<U+XXXX>`, so that a
 * person sees what a model reads. Line breaks and tabs are kept, or with `lineBreaks: 'space'`
 * become spaces.
 */
export function visibleText(
  text: string,
  options: { lineBreaks?: 'keep' | 'space'; maxLength?: number } = {},
): string {
  const space = options.lineBreaks === 'space';
  const maxLength = options.maxLength ?? Number.POSITIVE_INFINITY;
  let shown = '';
  for (const character of text) {
    const code = character.codePointAt(0) ?? 0;
    if (code === 0x0a || code === 0x0d || code === 0x09) shown += space ? ' ' : character;
    else shown += isShownAsCode(code) ? `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>` : character;
    if (shown.length >= maxLength) break;
  }
  return shown;
}

function isShownAsCode(code: number): boolean {
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0xad ||
    code === 0x34f ||
    code === 0x61c ||
    code === 0x115f ||
    code === 0x1160 ||
    code === 0x180e ||
    (code >= 0x200b && code <= 0x200f) ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2060 && code <= 0x206f) ||
    code === 0x3164 ||
    (code >= 0xfe00 && code <= 0xfe0f) ||
    code === 0xfeff ||
    code === 0xffa0 ||
    (code >= 0xe0000 && code <= 0xe0fff)
  );
}
