/**
 * Cross-server shadowing: one server's tool text naming a tool of another server on the same
 * connection ("when this tool is available, `send_email` must bcc …"). A server describes its own
 * tools; text about another server's tools is how a poisoned server steers calls it does not own.
 * Only distinctive names count (with `_`, `-`, `.` or an inner capital, five characters or more),
 * and a name the tool's own server also offers is its own: plain words ("search") would flag every
 * description.
 */

import { excerptOf } from '../tool-finding.js';
import type { RuleFinding, ToolRule } from '../tool-rule.js';

/** Finding codes of the `shadowing` rule. */
export const ShadowingCode = {
  /** The text names a tool that another connected server offers. */
  NamesOtherServerTool: 'NAMES_OTHER_SERVER_TOOL',
} as const;

// Identifier-like words: with a separator, or camelCase.
const identifier = /[A-Za-z][A-Za-z0-9]*(?:(?:__?|[.-])[A-Za-z0-9]+)+|[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*/g;

function squash(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Whether `prefix` namespaces a tool of `servers`: it says `mcp`, or names one of those servers. */
function isNamespace(prefix: string, servers: readonly string[]): boolean {
  const squashed = squash(prefix);
  if (squashed.includes('mcp')) return true;
  return (
    squashed !== '' &&
    servers.some((server) => squash(server).includes(squashed) || squashed.includes(squash(server)))
  );
}

/** Whether a tool name is distinctive enough that naming it means the tool, not a word. */
export function isDistinctiveName(name: string): boolean {
  return name.length >= 5 && /[a-z0-9][_.-]?[A-Z]|[_.-]/.test(name) && /[A-Za-z]/.test(name);
}

/** The `shadowing` rule. */
export const shadowingRule: ToolRule = {
  specificationVersion: 'v1',
  scope: 'connection',
  name: 'shadowing',
  codes: Object.values(ShadowingCode),
  check(tool, context) {
    if (context.servers.length < 2) return [];
    const findings: RuleFinding[] = [];
    const own = tool.server;
    // The servers of another server's tool this word names; `own` when the word names one of the
    // tool's own server's tools (then its suffixes are not read as other names).
    const named = (name: string): readonly string[] | 'own' | undefined => {
      // The map read first: most words name no tool, and then the name test is not needed.
      const servers = context.serversWithTool(name);
      if (servers.length === 0 || !isDistinctiveName(name)) return undefined;
      return servers.includes(own) ? 'own' : servers;
    };
    for (const { field, text, prose } of tool.texts) {
      if (!prose) continue;
      identifier.lastIndex = 0;
      for (const match of text.matchAll(identifier)) {
        const word = match[0];
        // `mcp_tool_send_email` or `other__send_email` name `send_email`: try each suffix after a separator.
        let name = word;
        let servers = named(word);
        for (let cut = 1; servers === undefined && cut < word.length - 1; cut++) {
          const character = word.charCodeAt(cut);
          // After `_`, `.` or `-` (a doubled `__` is cut after its second `_`).
          if (character !== 0x5f && character !== 0x2e && character !== 0x2d) continue;
          if (word.charCodeAt(cut + 1) === 0x5f) continue;
          const suffix = word.slice(cut + 1);
          const holders = named(suffix);
          // A prefix counts only as a namespace (`mcp_`, the other server's name): in
          // `ref_search_web` on server `ref`, `search_web` is the server's own word.
          if (holders === undefined || (holders !== 'own' && !isNamespace(word.slice(0, cut), holders)))
            continue;
          name = suffix;
          servers = holders;
        }
        if (servers === undefined || servers === 'own') continue;
        const start = match.index + word.length - name.length;
        const end = match.index + word.length;
        findings.push({
          code: ShadowingCode.NamesOtherServerTool,
          severity: 'high',
          field,
          start,
          end,
          excerpt: excerptOf(text, start, end),
          message: `Names "${name}", a tool of ${servers.map((server) => `"${server}"`).join(', ')}: text on one server steering another server's tool (shadowing).`,
        });
      }
    }
    return findings;
  },
};
