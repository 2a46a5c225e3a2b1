/**
 * Names across servers that collide or only look alike. A tool whose name differs from another
 * server's only by confusable characters (`read_fiIe`, `reаd_file` with a Cyrillic а) exists to be
 * picked by mistake; that is a finding a policy can block. Of two look-alikes, the one with more
 * characters that stand for others (`I` for `l`, `а` for `a`) is the likely impostor: it is `high`,
 * the other `medium` — so adding a look-alike of an honest tool does not block the honest tool. Two servers offering the very same name
 * is common and honest (both have `search`): the registry gives each its own public name, so it is
 * reported for information only.
 */

import type { RuleFinding, ToolRule, ToolRuleContext } from '../tool-rule.js';

/** Finding codes of the `confusable-name` rule. */
export const ConfusableNameCode = {
  /** Another server's tool name differs from this one only by look-alike characters. */
  Confusable: 'CONFUSABLE_NAME',
  /** Another server offers a tool of the very same name. */
  Collision: 'NAME_COLLISION',
} as const;

type SkeletonIndex = Map<string, Array<{ server: string; name: string }>>;

function skeletonIndex(context: ToolRuleContext): SkeletonIndex {
  return context.shared('confusable-name/skeletons', () => {
    const index: SkeletonIndex = new Map();
    for (const [name, servers] of context.toolNames) {
      const skeleton = context.skeletonOf(name);
      let entries = index.get(skeleton);
      if (entries === undefined) {
        entries = [];
        index.set(skeleton, entries);
      }
      for (const server of servers) entries.push({ server, name });
    }
    return index;
  });
}

/** How many characters of `name` stand for other characters (their skeleton differs). */
function disguise(name: string, context: ToolRuleContext): number {
  let count = 0;
  for (const character of name) if (context.skeletonOf(character) !== character) count++;
  return count;
}

/** The `confusable-name` rule. */
export const confusableNameRule: ToolRule = {
  specificationVersion: 'v1',
  scope: 'connection',
  name: 'confusable-name',
  codes: Object.values(ConfusableNameCode),
  check(tool, context) {
    if (context.servers.length < 2) return [];
    const name = tool.tool.name;
    const others = (skeletonIndex(context).get(context.skeletonOf(name)) ?? []).filter(
      (entry) => entry.server !== tool.server,
    );
    if (others.length === 0) return [];
    const findings: RuleFinding[] = [];
    const lookAlikes = others.filter((entry) => entry.name !== name);
    const same = others.filter((entry) => entry.name === name);
    const list = (entries: typeof others) =>
      entries.map((entry) => `"${entry.name}" of "${entry.server}"`).join(', ');
    const own = disguise(name, context);
    if (lookAlikes.length > 0)
      findings.push({
        code: ConfusableNameCode.Confusable,
        severity: lookAlikes.some((entry) => disguise(entry.name, context) > own) ? 'medium' : 'high',
        field: 'name',
        start: 0,
        end: name.length,
        excerpt: name,
        message: `Looks like ${list(lookAlikes)} but is a different name: a model or a person may pick the wrong tool.`,
      });
    if (same.length > 0)
      findings.push({
        code: ConfusableNameCode.Collision,
        severity: 'info',
        field: 'name',
        start: 0,
        end: name.length,
        excerpt: name,
        message: `Also offered as ${list(same)}; each keeps its own public name.`,
      });
    return findings;
  },
};
