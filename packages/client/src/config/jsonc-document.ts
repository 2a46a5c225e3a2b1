/**
 * A small JSONC parser that keeps source offsets: config files are hand-edited, so we accept
 * comments and trailing commas, report errors by line and column, point validation errors at
 * the offending value, and let the config editor change one member without touching the rest.
 */
import { SwitchboardError } from '@switchboard/core';

/** A JSON value with the offsets of its text in the source. */
export interface JsonNode {
  type: 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null';
  /** Offset of the first character of the value. */
  start: number;
  /** Offset just after the last character of the value. */
  end: number;
  /** The plain JavaScript value. */
  value: unknown;
  /** Members of an object, in source order. */
  members?: JsonMember[];
  /** Items of an array, in source order. */
  items?: JsonNode[];
}

/** One `"key": value` member of an object node. */
export interface JsonMember {
  key: string;
  /** Offset of the opening quote of the key. */
  keyStart: number;
  value: JsonNode;
  /** Offset just after the comma that follows the value, when there is one. */
  commaEnd?: number;
}

/** A parsed JSONC text: the tree, the plain value and the text it came from. */
export interface JsoncDocument {
  text: string;
  root: JsonNode;
  value: unknown;
}

/** A 1-based line and column. */
export interface SourcePosition {
  line: number;
  column: number;
}

/** Line and column (1-based) of an offset in a text. */
export function positionAt(text: string, offset: number): SourcePosition {
  let line = 1;
  let lineStart = 0;
  for (let index = 0; index < offset && index < text.length; index++) {
    if (text.charCodeAt(index) === 10) {
      line++;
      lineStart = index + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** A JSON path segment: an object key or an array index. */
export type JsonPathSegment = string | number;

const identifierPattern = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

/** Formats a path as `mcpServers.github.args[2]` (keys that are not identifiers are quoted). */
export function formatJsonPath(path: readonly JsonPathSegment[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (identifierPattern.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out === '' ? '(root)' : out;
}

/** The node at a path, or the deepest existing ancestor when the path does not exist. */
export function findNode(root: JsonNode, path: readonly JsonPathSegment[]): JsonNode {
  let node = root;
  for (const segment of path) {
    let next: JsonNode | undefined;
    if (typeof segment === 'number') next = node.items?.[segment];
    else next = node.members?.findLast((member) => member.key === segment)?.value;
    if (next === undefined) return node;
    node = next;
  }
  return node;
}

const numberPattern = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * Parses JSON with comments (`//`, `/* *\/`) and trailing commas.
 * @param source Where the text came from (a file path), named in errors.
 */
export function parseJsonc(text: string, source: string): JsoncDocument {
  let offset = text.charCodeAt(0) === 0xfeff ? 1 : 0;

  const fail = (message: string, at: number, hint?: string): never => {
    const { line, column } = positionAt(text, at);
    throw new SwitchboardError({
      code: 'CONFIG_INVALID_JSON',
      message: `${source}:${line}:${column}: invalid JSON: ${message}.${hint ? ` ${hint}` : ''}`,
      context: { file: source, line, column },
    });
  };

  const describe = (at: number): string => {
    if (at >= text.length) return 'end of file';
    const char = text[at] as string;
    return /[\x20-\x7e]/.test(char)
      ? `'${char}'`
      : `character U+${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
  };

  const skipTrivia = (): void => {
    while (offset < text.length) {
      const char = text[offset];
      if (char === ' ' || char === '\t' || char === '\n' || char === '\r' || char === '\ufeff') {
        offset++;
      } else if (char === '/' && text[offset + 1] === '/') {
        while (offset < text.length && text[offset] !== '\n') offset++;
      } else if (char === '/' && text[offset + 1] === '*') {
        const close = text.indexOf('*/', offset + 2);
        if (close === -1) fail('unterminated /* comment', offset, 'Close it with */.');
        offset = close + 2;
      } else {
        return;
      }
    }
  };

  const parseString = (): JsonNode => {
    const start = offset;
    offset++;
    while (offset < text.length) {
      const char = text[offset];
      if (char === '"') {
        offset++;
        const raw = text.slice(start, offset);
        try {
          return { type: 'string', start, end: offset, value: JSON.parse(raw) as string };
        } catch {
          // Never quote the string itself: it may hold a secret.
          return fail(
            'invalid escape sequence in string',
            start,
            'Use \\\\ for a backslash (e.g. in Windows paths).',
          );
        }
      }
      if (char === '\\') offset += 2;
      else if (char === '\n')
        return fail('unterminated string', start, 'Close the string with " on the same line.');
      else offset++;
    }
    return fail('unterminated string', start, 'Close the string with ".');
  };

  const parseValue = (depth: number): JsonNode => {
    if (depth > 256) fail('nesting too deep', offset);
    skipTrivia();
    const start = offset;
    const char = text[offset];
    if (char === '{') {
      offset++;
      const members: JsonMember[] = [];
      const value: Record<string, unknown> = {};
      skipTrivia();
      while (text[offset] !== '}') {
        if (text[offset] !== '"') {
          fail(
            `expected a property name in double quotes or '}', found ${describe(offset)}`,
            offset,
            members.length > 0 ? 'Check for a missing comma or an extra one.' : undefined,
          );
        }
        const keyNode = parseString();
        const key = keyNode.value as string;
        skipTrivia();
        if (text[offset] !== ':') fail(`expected ':' after property name, found ${describe(offset)}`, offset);
        offset++;
        const member: JsonMember = { key, keyStart: keyNode.start, value: parseValue(depth + 1) };
        members.push(member);
        Object.defineProperty(value, key, {
          value: member.value.value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
        skipTrivia();
        if (text[offset] === ',') {
          offset++;
          member.commaEnd = offset;
          skipTrivia();
        } else if (text[offset] !== '}') {
          fail(
            `expected ',' or '}' after a property value, found ${describe(offset)}`,
            offset,
            'A comma may be missing.',
          );
        }
      }
      offset++;
      return { type: 'object', start, end: offset, value, members };
    }
    if (char === '[') {
      offset++;
      const items: JsonNode[] = [];
      skipTrivia();
      while (text[offset] !== ']') {
        items.push(parseValue(depth + 1));
        skipTrivia();
        if (text[offset] === ',') {
          offset++;
          skipTrivia();
        } else if (text[offset] !== ']') {
          fail(
            `expected ',' or ']' after an array item, found ${describe(offset)}`,
            offset,
            'A comma may be missing.',
          );
        }
      }
      offset++;
      return { type: 'array', start, end: offset, value: items.map((item) => item.value), items };
    }
    if (char === '"') return parseString();
    for (const [word, value] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (text.startsWith(word, offset)) {
        offset += word.length;
        return { type: value === null ? 'null' : 'boolean', start, end: offset, value };
      }
    }
    numberPattern.lastIndex = offset;
    const match = numberPattern.exec(text);
    if (match) {
      offset += match[0].length;
      return { type: 'number', start, end: offset, value: Number(match[0]) };
    }
    if (char === "'") return fail('strings must use double quotes', offset);
    return fail(`unexpected ${describe(offset)}`, offset);
  };

  skipTrivia();
  if (offset >= text.length) fail('the file is empty', offset, 'Write at least {}.');
  const root = parseValue(0);
  skipTrivia();
  if (offset < text.length) fail(`unexpected ${describe(offset)} after the end of the JSON value`, offset);
  return { text, root, value: root.value };
}
