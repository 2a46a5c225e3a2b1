/**
 * A YAML config file (Continue's and Goose's) as the same document shape the JSONC reader gives,
 * so import and its error messages work alike: the value, and a node tree whose offsets point at
 * each key and value, so a bad value is reported with file, line and key. Parsed by `yaml` (a
 * well-kept YAML library), whose `Document` is kept too: export edits it, and its `toString()`
 * keeps comments and the layout of what it did not change.
 */
import { SwitchboardError } from '@switchboard/core';
import type { Document, Node } from 'yaml';
import { configErrorCodes } from './config-error.js';
import { loadYaml } from './config-libraries.js';
import { type JsoncDocument, type JsonNode, positionAt } from './jsonc-document.js';

/** A parsed YAML file: the common document shape plus the `yaml` Document for editing. */
export interface YamlConfigDocument extends JsoncDocument {
  yaml: Document.Parsed;
}

function typeOf(value: unknown): JsonNode['type'] {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object') return 'object';
  if (typeof value === 'number' || typeof value === 'bigint') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  return 'string';
}

function nodeOf(node: unknown, document: Document.Parsed, fallback: number): JsonNode {
  const { isAlias, isMap, isPair, isScalar, isSeq } = loadYaml();
  const range = (node as Node | null)?.range;
  const start = range?.[0] ?? fallback;
  const end = range?.[1] ?? fallback;
  if (isMap(node)) {
    const members: NonNullable<JsonNode['members']> = [];
    const value: Record<string, unknown> = {};
    for (const pair of node.items) {
      if (!isPair(pair)) continue;
      const key = String(isScalar(pair.key) ? pair.key.value : pair.key);
      const keyStart = (pair.key as Node | null)?.range?.[0] ?? start;
      const member = nodeOf(pair.value, document, keyStart);
      members.push({ key, keyStart, value: member });
      Object.defineProperty(value, key, {
        value: member.value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return { type: 'object', start, end, value, members };
  }
  if (isSeq(node)) {
    const items = node.items.map((item) => nodeOf(item, document, start));
    return { type: 'array', start, end, value: items.map((item) => item.value), items };
  }
  if (isAlias(node)) {
    const value = node.resolve(document)?.toJSON();
    return { type: typeOf(value), start, end, value };
  }
  const value = isScalar(node) ? node.value : null;
  return { type: typeOf(value), start, end, value: value ?? null };
}

/** Parses a YAML text; a syntax error is a `CONFIG_INVALID_YAML` error with line and column. */
export function parseYamlDocument(text: string, source: string): YamlConfigDocument {
  const yaml = loadYaml().parseDocument(text, { prettyErrors: false, uniqueKeys: false });
  const [error] = yaml.errors;
  if (error !== undefined) {
    // Positions from the offset, not the library's pretty message: that one quotes the line, which may hold a secret.
    const { line, column } = positionAt(text, error.pos[0]);
    throw new SwitchboardError({
      code: configErrorCodes.invalidYaml,
      message: `Invalid YAML in ${source}:${line}:${column}: ${error.message.split('\n')[0]}. Fix the file (or pass another with --path).`,
      context: { file: source, line, column },
      cause: error,
    });
  }
  const root = nodeOf(yaml.contents, yaml, 0);
  return { text, value: root.value, root, yaml };
}
