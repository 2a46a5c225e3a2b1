/**
 * A readable diff of two tool definitions, for a person deciding whether to approve a change:
 * each model-visible value on its own line under its path (`inputSchema.properties.a.description:
 * …`), long text split at its line breaks, and every invisible character written as `<U+XXXX>` —
 * a hidden payload shows up in the diff rather than hiding in it. A unified patch for terminals
 * (`switchboard tools diff`), the same lines as data for the ui.
 */
import { createRequire } from 'node:module';
import { visibleText } from '@switchboard/core';
import type * as Diff from 'diff';

// Loaded at the first diff, not when the client is imported: most processes never diff.
const require = createRequire(import.meta.url);
let diffPackage: typeof Diff | undefined;
const loadDiff = (): typeof Diff => {
  diffPackage ??= require('diff') as typeof Diff;
  return diffPackage;
};

/** One line of a definition diff. */
export interface DefinitionDiffLine {
  kind: 'same' | 'added' | 'removed';
  text: string;
}

/** A diff of two definitions. */
export interface DefinitionDiff {
  /** A unified patch (`--- before` / `+++ after`), empty when nothing differs. */
  patch: string;
  /** Every line, marked same, added or removed. */
  lines: DefinitionDiffLine[];
}

function flatten(value: unknown, path: string, lines: string[]): void {
  if (value !== null && typeof value === 'object') {
    const entries = Array.isArray(value)
      ? value.map((item, index) => [String(index), item] as const)
      : Object.entries(value);
    if (entries.length === 0) lines.push(`${path}: ${Array.isArray(value) ? '[]' : '{}'}`);
    for (const [key, item] of entries) flatten(item, path === '' ? key : `${path}.${key}`, lines);
    return;
  }
  if (typeof value === 'string') {
    const shown = visibleText(value).split(/\r?\n/);
    if (shown.length === 1) lines.push(`${path}: ${shown[0]}`);
    else {
      lines.push(`${path}: |`);
      for (const line of shown) lines.push(`  ${line}`);
    }
    return;
  }
  lines.push(`${path}: ${JSON.stringify(value)}`);
}

/** A definition's canonical JSON as one line per value (see the module comment). */
export function definitionLines(definition: string): string {
  const lines: string[] = [];
  flatten(JSON.parse(definition), '', lines);
  return `${lines.join('\n')}\n`;
}

/** The diff from `before` (absent: a new tool) to `after`, both canonical definition texts. */
export function diffDefinitions(
  before: string | undefined,
  after: string,
  labels: { before?: string; after?: string } = {},
): DefinitionDiff {
  const left = before === undefined ? '' : definitionLines(before);
  const right = definitionLines(after);
  const diff = loadDiff();
  const lines: DefinitionDiffLine[] = [];
  for (const part of diff.diffLines(left, right)) {
    const kind = part.added ? 'added' : part.removed ? 'removed' : 'same';
    for (const text of part.value.replace(/\n$/, '').split('\n')) lines.push({ kind, text });
  }
  const patch =
    left === right
      ? ''
      : diff.createTwoFilesPatch(
          labels.before ?? 'pinned',
          labels.after ?? 'offered',
          left,
          right,
          undefined,
          undefined,
          {
            context: 3,
          },
        );
  return { patch, lines };
}
