/**
 * Markup that hides text from a person or dresses it up as a higher authority for the model:
 * HTML and Markdown comments (a rendered description drops them, the model reads them), elements
 * styled invisible, `<IMPORTANT>`-style tags that tool-poisoning payloads wrap their orders in, and
 * chat-template tokens that pretend a system turn starts. Ordinary structuring tags (`<example>`,
 * `<usage>`) are left alone: descriptions use them to organise honest text.
 */

import { excerptOf } from '../tool-finding.js';
import type { RuleFinding, ToolRule } from '../tool-rule.js';

/** Finding codes of the `hidden-markup` rule. */
export const HiddenMarkupCode = {
  /** An HTML comment or a Markdown link-reference comment. */
  Comment: 'HIDDEN_COMMENT',
  /** A tag that claims authority over the model (`<IMPORTANT>`, `<system>`, `<instructions>`). */
  AuthorityTag: 'AUTHORITY_TAG',
  /** An element hidden by style or attribute. */
  HiddenElement: 'HIDDEN_ELEMENT',
  /** A chat-template token (`<|im_start|>`, `[INST]`, `<<SYS>>`) that fakes a new turn. */
  ChatTemplateToken: 'CHAT_TEMPLATE_TOKEN',
} as const;

const patterns: ReadonlyArray<{ code: string; pattern: RegExp; message: string }> = [
  {
    code: HiddenMarkupCode.Comment,
    pattern: /<!--[\s\S]*?(?:-->|$)|^\s*\[(?:\/\/|comment)\]:\s*(?:#|<>)[^\n]*/gim,
    message: 'a comment: hidden when the description is rendered, read in full by the model.',
  },
  {
    code: HiddenMarkupCode.AuthorityTag,
    pattern:
      /<\/?\s*(?:important|system|system[_-]?prompt|instructions?|hidden|secret|admin|override|assistant|ai[_-]?instructions?|model[_-]?instructions?|critical)\b[^<>]{0,80}>/gi,
    message: 'a tag that gives its text authority over the model, the wrapper tool-poisoning payloads use.',
  },
  {
    code: HiddenMarkupCode.HiddenElement,
    pattern:
      /<[a-z][\w-]*\b[^<>]*?(?:style\s*=\s*["'][^"']*(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0|opacity\s*:\s*0(?![.\d]))|\shidden(?:\s|>|=))[^<>]*>/gi,
    message: 'an element hidden from view by its style or attribute.',
  },
  {
    code: HiddenMarkupCode.ChatTemplateToken,
    pattern:
      /<\|(?:im_start|im_end|system|user|assistant|endoftext|begin_of_text|start_header_id)\|>|\[\/?INST\]|<<\/?SYS>>/gi,
    message: 'a chat-template token: text that pretends a new system or user turn begins.',
  },
];

// Every pattern needs one of these characters; most texts have none.
const candidate = /[<[]/;

/** The `hidden-markup` rule. */
export const hiddenMarkupRule: ToolRule = {
  specificationVersion: 'v1',
  scope: 'tool',
  name: 'hidden-markup',
  codes: Object.values(HiddenMarkupCode),
  check(tool) {
    const findings: RuleFinding[] = [];
    for (const { field, text } of tool.texts) {
      if (!candidate.test(text)) continue;
      for (const { code, pattern, message } of patterns) {
        pattern.lastIndex = 0;
        for (const match of text.matchAll(pattern)) {
          const start = match.index;
          const end = start + match[0].length;
          findings.push({
            code,
            severity: 'high',
            field,
            start,
            end,
            excerpt: excerptOf(text, start, end),
            message: `Found ${message}`,
          });
        }
      }
    }
    return findings;
  },
};
