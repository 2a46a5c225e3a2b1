/**
 * A TOML config file (Codex's `config.toml`) as the same document shape the JSONC reader gives, so
 * import and its error messages work alike: the value parsed by smol-toml (a well-kept TOML
 * parser), and a node tree whose offsets point at the line that sets each key — a table's header,
 * or `key = …` inside it — so a bad value is reported with file, line and key.
 */
import { SwitchboardError } from '@switchboard/core';
import { configErrorCodes } from './config-error.js';
import { loadSmolToml } from './config-libraries.js';
import type { JsoncDocument, JsonNode } from './jsonc-document.js';

function typeOf(value: unknown): JsonNode['type'] {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object') return value instanceof Date ? 'string' : 'object';
  if (typeof value === 'number' || typeof value === 'bigint') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  return 'string';
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
}

/** A key of a dotted table path as TOML may spell it: bare, "quoted" or 'literal'. */
function keyPattern(key: string): string {
  const escaped = escapeRegExp(key);
  return `(?:${escaped}|"${escaped}"|'${escaped}')`;
}

/** Offset of the header `[a.b.c]` (or `[[a.b.c]]`) of a table path, or undefined. */
function headerOffset(text: string, path: readonly string[]): number | undefined {
  if (path.length === 0) return undefined;
  const pattern = new RegExp(
    `^[ \\t]*\\[\\[?[ \\t]*${path.map(keyPattern).join('[ \\t]*\\.[ \\t]*')}[ \\t]*\\]`,
    'm',
  );
  return pattern.exec(text)?.index;
}

/** Offset of the line `key = …` within the section that starts at `from` (up to the next header). */
function keyOffset(text: string, from: number, key: string): number | undefined {
  const headerEnd = text.indexOf('\n', from);
  const sectionStart = headerEnd === -1 ? text.length : headerEnd + 1;
  const nextHeader = /^[ \t]*\[/m.exec(text.slice(sectionStart));
  const section = text.slice(sectionStart, nextHeader ? sectionStart + nextHeader.index : undefined);
  const match = new RegExp(`^[ \\t]*${keyPattern(key)}[ \\t]*=`, 'm').exec(section);
  return match === null
    ? undefined
    : sectionStart + match.index + (match[0].length - match[0].trimStart().length);
}

/** The node tree of a parsed value, each node placed at the best line known for its path. */
function nodeOf(text: string, value: unknown, path: string[], fallback: number): JsonNode {
  const own = headerOffset(text, path) ?? fallback;
  const node: JsonNode = { type: typeOf(value), start: own, end: own, value };
  if (node.type === 'object') {
    node.members = Object.entries(value as Record<string, unknown>).map(([key, member]) => {
      const start = headerOffset(text, [...path, key]) ?? keyOffset(text, own, key) ?? own;
      return { key, keyStart: start, value: nodeOf(text, member, [...path, key], start) };
    });
  } else if (node.type === 'array') {
    node.items = (value as unknown[]).map((item) => nodeOf(text, item, [], own));
  }
  return node;
}

/** Parses a TOML text; a syntax error is a `CONFIG_INVALID_TOML` error with line and column. */
export function parseTomlDocument(text: string, source: string): JsoncDocument {
  const { parse, TomlError } = loadSmolToml();
  let value: Record<string, unknown>;
  try {
    value = parse(text) as Record<string, unknown>;
  } catch (error) {
    const where = error instanceof TomlError ? `:${error.line}:${error.column}` : '';
    const detail = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    throw new SwitchboardError({
      code: configErrorCodes.invalidToml,
      message: `Invalid TOML in ${source}${where}: ${detail}. Fix the file (or pass another with --path).`,
      context: {
        file: source,
        ...(error instanceof TomlError ? { line: error.line, column: error.column } : {}),
      },
      cause: error,
    });
  }
  return { text, value, root: nodeOf(text, value, [], 0) };
}
