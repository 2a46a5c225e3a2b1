/**
 * Text that gives the model orders instead of describing the tool: overriding earlier instructions,
 * hiding something from the user, reading key and config files, sending secrets or the
 * conversation somewhere. Honest descriptions say what a tool does and how to call it; these
 * phrases are what tool-poisoning payloads are made of (OWASP MCP03). Invisible characters are
 * dropped before matching, so a word split by a zero-width space is still found.
 */

import { excerptOf } from '../tool-finding.js';
import type { RuleFinding, ToolRule } from '../tool-rule.js';

/** Finding codes of the `model-instruction` rule. */
export const ModelInstructionCode = {
  /** "Ignore previous instructions", "you are now in developer mode". */
  OverrideInstructions: 'OVERRIDE_INSTRUCTIONS',
  /** "Do not tell the user", "without informing the user". */
  ConcealFromUser: 'CONCEAL_FROM_USER',
  /** An order to read key, credential or client-config files (`~/.ssh/id_rsa`, `mcp.json`, `.env`). */
  SensitiveFileAccess: 'SENSITIVE_FILE_ACCESS',
  /** An order to pass secrets or the conversation into a call or elsewhere. */
  Exfiltration: 'EXFILTRATION',
} as const;

const sensitiveFile = String.raw`(?:~?\/?\.ssh\/\S*|id_(?:rsa|dsa|ecdsa|ed25519)\b|authorized_keys|\.aws\/credentials|mcp\.json|claude_desktop_config\.json|\.npmrc|\.netrc|\.pgpass|\.git-credentials|\.docker\/config\.json|\/etc\/(?:passwd|shadow)|(?<![\w.])\.env(?![\w-])|wallet\.dat|\.kube\/config|\.bash_history|\.zsh_history)`;

const secretThing = String.raw`(?:api[ _-]?keys?|secret[ _-]?keys?|private[ _-]?keys?|ssh[ _-]?keys?|passwords?|passphrases?|credentials|(?:access|auth|session|bearer|refresh)[ _-]?tokens?|environment variables|env vars|system prompt|conversation(?: history)?|chat history|previous messages|(?:the )?contents? of (?:the |that |this )?file)`;

// Any character but a sentence end (a period inside a path such as `~/.ssh` does not end one).
const sameSentence = String.raw`(?:[^.\n]|\.(?=\S))`;

const patterns: ReadonlyArray<{ code: string; pattern: RegExp; message: string; hint: RegExp }> = [
  {
    code: ModelInstructionCode.OverrideInstructions,
    pattern:
      /\b(?:ignore|disregard|forget|override|bypass)\s+(?:(?:all|any|the|your|these|every|of|each)\s+)*(?:previous|prior|above|earlier|preceding|original|system|safety|other)\s+(?:instructions?|prompts?|rules|directions|guidelines|messages|context|constraints)\b|\byou are now (?:in )?(?:developer|dan|god|jailbreak|unrestricted) mode\b|\bnew (?:system )?instructions\s*:/gi,
    message: 'tells the model to set aside its instructions.',
    hint: /ignore|disregard|forget|override|bypass|you are now|instructions\s*:/i,
  },
  {
    code: ModelInstructionCode.ConcealFromUser,
    pattern:
      /\b(?:do not|don't|never|must not|should not|shall not)\s+(?:tell|inform|mention(?: this| it)? to|reveal(?: this| it)? to|disclose(?: this| it)? to|alert|notify|let)\s+(?:it\s+|this\s+|anything\s+)?(?:to\s+)?the\s+user\b|\bwithout\s+(?:telling|informing|notifying|alerting|letting)\s+the\s+user\b|\b(?:hide|conceal|keep)\s+(?:this|it|that)\s+(?:secret\s+|hidden\s+)?from\s+the\s+user\b|\bthe\s+user\s+(?:must|should|need)\s+not\s+(?:know|see|notice|be told|be informed)\b/gi,
    message: 'tells the model to keep something from the user.',
    hint: /\buser\b/i,
  },
  {
    code: ModelInstructionCode.SensitiveFileAccess,
    pattern: new RegExp(
      String.raw`\b(?:read|cat|open|load|include|send|pass|upload|attach|provide|copy|extract|forward|append|embed|fetch)\b${sameSentence}{0,60}?${sensitiveFile}`,
      'gi',
    ),
    message: 'tells the model to read or send a key, credential or client-config file.',
    hint: /ssh|id_|authorized_keys|credentials|mcp\.json|claude_desktop|rc\b|pgpass|git-cred|docker\/|\/etc\/|\.env|wallet|kube|history/i,
  },
  {
    code: ModelInstructionCode.Exfiltration,
    pattern: new RegExp(
      String.raw`\b(?:pass|send|forward|upload|post|transmit|leak|exfiltrate|include|append|attach|put)\s+(?:all\s+|any\s+|the\s+|your\s+|its\s+|their\s+)*${secretThing}${sameSentence}{0,60}?\b(?:as|in|into|to|via)\s+(?:the\s+|a\s+)?['"\`]?\w+['"\`]?\s+(?:parameter|argument|field|param)\b|\bsidenote\b`,
      'gi',
    ),
    message: 'tells the model to pass secrets or the conversation on.',
    hint: /sidenote|param|argument|field/i,
  },
];

// Characters dropped before matching: they only hide or split words.
const invisible =
  /\u034F|[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u{E0000}-\u{E01EF}]/gu;

/** `text` without invisible characters, with the map from each kept position back to the original. */
function visible(text: string): { text: string; offsets: number[] | undefined } {
  invisible.lastIndex = 0;
  if (!invisible.test(text)) return { text, offsets: undefined };
  const offsets: number[] = [];
  let kept = '';
  for (let index = 0; index < text.length; ) {
    const code = text.codePointAt(index) ?? 0;
    const width = code > 0xffff ? 2 : 1;
    const character = text.slice(index, index + width);
    invisible.lastIndex = 0;
    if (!invisible.test(character)) {
      for (let unit = 0; unit < width; unit++) offsets.push(index + unit);
      kept += character;
    }
    index += width;
  }
  offsets.push(text.length);
  return { text: kept, offsets };
}

/** The `model-instruction` rule. */
export const modelInstructionRule: ToolRule = {
  specificationVersion: 'v1',
  scope: 'tool',
  name: 'model-instruction',
  codes: Object.values(ModelInstructionCode),
  check(tool) {
    const findings: RuleFinding[] = [];
    for (const { field, text: original } of tool.texts) {
      const { text, offsets } = visible(original);
      for (const { code, pattern, message, hint } of patterns) {
        // A cheap test of a word every match needs, before the full pattern.
        if (!hint.test(text)) continue;
        pattern.lastIndex = 0;
        for (const match of text.matchAll(pattern)) {
          const start = offsets === undefined ? match.index : (offsets[match.index] ?? 0);
          const end =
            offsets === undefined
              ? match.index + match[0].length
              : (offsets[match.index + match[0].length - 1] ?? original.length - 1) + 1;
          findings.push({
            code,
            severity: 'high',
            field,
            start,
            end,
            excerpt: excerptOf(original, start, end),
            message: `Instruction-like text: ${message}`,
          });
        }
      }
    }
    return findings;
  },
};
