/**
 * Invisible or directional Unicode in model-visible text: a person reading the tool in a config
 * screen sees nothing, the model reads every character. Tag characters (U+E0000–E007F) spell
 * ASCII invisibly; runs of variation selectors carry bytes ("emoji smuggling"); bidi overrides
 * and isolates reorder what a person sees; zero-width characters hide text or split words so a
 * filter misses them. Legitimate uses are left alone: a zero-width joiner inside an emoji or
 * between letters of scripts that need it, a variation selector after an emoji or ideograph,
 * tag characters inside a flag emoji, a byte-order mark at the start.
 */

import { excerptOf } from '../tool-finding.js';
import type { RuleFinding, ToolRule } from '../tool-rule.js';

/** Finding codes of the `invisible-unicode` rule. */
export const InvisibleUnicodeCode = {
  /** Unicode tag characters outside a flag emoji: invisible ASCII. */
  TagCharacters: 'TAG_CHARACTERS',
  /** Bidi embedding, override or isolate controls: text shown in another order than read. */
  BidiControl: 'BIDI_CONTROL',
  /** Zero-width or filler characters between ASCII text. */
  ZeroWidth: 'ZERO_WIDTH_CHARACTERS',
  /** Several variation selectors in a row, or one after plain ASCII: bytes hidden in selectors. */
  VariationSelectors: 'VARIATION_SELECTORS',
} as const;

// Anything this rule may flag; most texts contain none, and one test skips them.
const candidate =
  /\u034F|[\u115F\u1160\u180E\u200B-\u200D\u202A-\u202E\u2060-\u2064\u2066-\u2069\u3164\uFEFF\uFFA0\u{E0000}-\u{E01EF}]|[\uFE00-\uFE0F]/u;

type Kind = 'tag' | 'bidi' | 'zero' | 'selector';

function kindOf(code: number): Kind | undefined {
  if (code >= 0xe0000 && code <= 0xe007f) return 'tag';
  if ((code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069)) return 'bidi';
  if ((code >= 0xfe00 && code <= 0xfe0f) || (code >= 0xe0100 && code <= 0xe01ef)) return 'selector';
  if (
    code === 0x034f ||
    code === 0x115f ||
    code === 0x1160 ||
    code === 0x180e ||
    (code >= 0x200b && code <= 0x200d) ||
    (code >= 0x2060 && code <= 0x2064) ||
    code === 0x3164 ||
    code === 0xfeff ||
    code === 0xffa0
  )
    return 'zero';
  return undefined;
}

const pictographic = /\p{Extended_Pictographic}|\p{Emoji_Modifier}|\p{Regional_Indicator}/u;
const scriptLetter = /[\p{L}\p{M}]/u;
const ideograph = /[\p{Script=Han}\p{Script=Hangul}\p{Script=Hiragana}\p{Script=Katakana}]/u;

function isAsciiOrAbsent(character: string | undefined): boolean {
  return character === undefined || character.charCodeAt(0) < 0x80;
}

/** Whether the character at `index` (of the code points `chars`) is a legitimate use. */
function isLegitimate(chars: readonly string[], index: number, kind: Kind, code: number): boolean {
  const before = chars[index - 1];
  const after = chars[index + 1];
  if (kind === 'tag') {
    // A subdivision flag: U+1F3F4 then tag letters, ended by CANCEL TAG (U+E007F).
    let start = index;
    while (start > 0 && kindOf(chars[start - 1]?.codePointAt(0) ?? 0) === 'tag') start--;
    let end = index;
    while (end + 1 < chars.length && kindOf(chars[end + 1]?.codePointAt(0) ?? 0) === 'tag') end++;
    return chars[start - 1] === '\u{1F3F4}' && chars[end] === '\u{E007F}' && end - start <= 8;
  }
  if (kind === 'selector') {
    // One selector after an emoji, a symbol or an ideograph; a run of them is a payload.
    if (before === undefined || kindOf(before.codePointAt(0) ?? 0) === 'selector') return false;
    if (after !== undefined && kindOf(after.codePointAt(0) ?? 0) === 'selector') return false;
    return !isAsciiOrAbsent(before) || code === 0xfe0e || code === 0xfe0f;
  }
  if (kind === 'zero') {
    if (code === 0xfeff) return index === 0;
    // ZWJ / ZWNJ join emoji and the letters of scripts that need them (Arabic, Indic, Persian).
    if (code === 0x200c || code === 0x200d) {
      if (before === undefined || after === undefined) return false;
      if (pictographic.test(before) || pictographic.test(after)) return true;
      return (
        !isAsciiOrAbsent(before) &&
        !isAsciiOrAbsent(after) &&
        scriptLetter.test(before) &&
        scriptLetter.test(after)
      );
    }
    // Hangul fillers inside Hangul text are letters, not padding.
    if ((code === 0x115f || code === 0x1160 || code === 0x3164 || code === 0xffa0) && before !== undefined)
      return ideograph.test(before);
    return false;
  }
  return false;
}

const codeOf: Record<Kind, string> = {
  tag: InvisibleUnicodeCode.TagCharacters,
  bidi: InvisibleUnicodeCode.BidiControl,
  zero: InvisibleUnicodeCode.ZeroWidth,
  selector: InvisibleUnicodeCode.VariationSelectors,
};

const messageOf: Record<Kind, string> = {
  tag: 'Unicode tag characters: invisible to a person, read by the model as ASCII text.',
  bidi: 'bidirectional control characters: the text is shown in another order than the model reads it.',
  zero: 'zero-width or filler characters: invisible text, or words split so that a filter misses them.',
  selector: 'variation selectors in a run or after plain text: a known way to hide bytes in text.',
};

// More findings than this per text say nothing more; the count is in the last one's message.
const maxFindingsPerText = 5;

/** Finds invisible and directional characters in one text. */
function scan(text: string, field: string): RuleFinding[] {
  if (!candidate.test(text)) return [];
  const chars = Array.from(text);
  const findings: RuleFinding[] = [];
  let offset = 0;
  let run: { kind: Kind; start: number; end: number; count: number } | undefined;
  let extra = 0;
  const close = () => {
    if (run === undefined) return;
    if (findings.length >= maxFindingsPerText) extra++;
    else {
      // One zero-width character between words can be a pasted artefact; a run of them is a payload.
      const severity =
        run.kind === 'zero' && run.count < 3 ? 'medium' : run.kind === 'tag' ? 'critical' : 'high';
      findings.push({
        code: codeOf[run.kind],
        severity,
        field,
        start: run.start,
        end: run.end,
        excerpt: excerptOf(text, run.start, run.end),
        message: `${run.count} ${messageOf[run.kind]}`,
      });
    }
    run = undefined;
  };
  for (let index = 0; index < chars.length; index++) {
    const character = chars[index] as string;
    const code = character.codePointAt(0) ?? 0;
    const kind = kindOf(code);
    if (kind !== undefined && !isLegitimate(chars, index, kind, code)) {
      if (run !== undefined && run.kind === kind && run.end === offset) {
        run.end = offset + character.length;
        run.count++;
      } else {
        close();
        run = { kind, start: offset, end: offset + character.length, count: 1 };
      }
    } else if (run !== undefined) close();
    offset += character.length;
  }
  close();
  const last = findings.at(-1);
  if (extra > 0 && last !== undefined) last.message += ` (${extra} more such spans in this text)`;
  return findings;
}

/** The `invisible-unicode` rule. */
export const invisibleUnicodeRule: ToolRule = {
  specificationVersion: 'v1',
  scope: 'tool',
  name: 'invisible-unicode',
  codes: Object.values(InvisibleUnicodeCode),
  check(tool) {
    const findings: RuleFinding[] = [];
    findings.push(...scan(tool.tool.name, 'name'));
    for (const { field, text } of tool.texts) findings.push(...scan(text, field));
    return findings;
  },
};
