/**
 * Parses a JSON command-line argument and, when it is not JSON, says where it broke (line,
 * column and the text around it). Node 20's `JSON.parse` often reports only "Unexpected token",
 * without a position, so a small scanner finds the first offending character itself.
 */
import { UsageError } from './cli-error.js';

/** Offset of the first character where `text` stops being valid JSON, or the length if it ends early. */
export function findJsonErrorOffset(text: string): number {
  let at = 0;
  const fail = (): never => {
    throw at;
  };
  const space = () => {
    while (at < text.length && ' \t\r\n'.includes(text[at]!)) at++;
  };
  const literal = (word: string) => {
    for (const character of word) {
      if (text[at] !== character) fail();
      at++;
    }
  };
  const string = () => {
    at++;
    while (at < text.length && text[at] !== '"') {
      if (text[at] === '\\') at++;
      else if (text.charCodeAt(at) < 0x20) fail();
      at++;
    }
    if (at >= text.length) fail();
    at++;
  };
  const number = () => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(at));
    if (!match) fail();
    at += match![0].length;
  };
  const value = (): void => {
    space();
    const character = text[at];
    if (character === '{') {
      at++;
      space();
      if (text[at] === '}') {
        at++;
        return;
      }
      for (;;) {
        space();
        if (text[at] !== '"') fail();
        string();
        space();
        if (text[at] !== ':') fail();
        at++;
        value();
        space();
        if (text[at] === ',') at++;
        else if (text[at] === '}') {
          at++;
          return;
        } else fail();
      }
    }
    if (character === '[') {
      at++;
      space();
      if (text[at] === ']') {
        at++;
        return;
      }
      for (;;) {
        value();
        space();
        if (text[at] === ',') at++;
        else if (text[at] === ']') {
          at++;
          return;
        } else fail();
      }
    }
    if (character === '"') string();
    else if (character === 't') literal('true');
    else if (character === 'f') literal('false');
    else if (character === 'n') literal('null');
    else number();
  };
  try {
    value();
    space();
    return at < text.length ? at : -1;
  } catch (offset) {
    return Math.min(offset as number, text.length);
  }
}

/** Parses `text` as a JSON object given to `flag`. */
export function parseJsonArgument(text: string, flag: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const offset = findJsonErrorOffset(text);
    let where = '';
    if (offset >= text.length) {
      where = ' at the end: the text stops before the value is complete (a missing } ] or "?)';
    } else if (offset >= 0) {
      const before = text.slice(0, offset);
      const line = before.split('\n').length;
      const column = offset - before.lastIndexOf('\n');
      const excerpt = text.slice(Math.max(0, offset - 15), offset + 15).replace(/\n/g, ' ');
      where = ` at line ${line}, column ${column}, near '${excerpt}' (unexpected '${text[offset]}')`;
    }
    throw new UsageError(
      `${flag} is not valid JSON${where}. Quote keys and strings with double quotes, e.g. --args '{"path": "."}'.`,
      { flag, cause: (error as Error).message },
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UsageError(`${flag} must be a JSON object of arguments, like '{"path": "."}'.`, { flag });
  }
  return value as Record<string, unknown>;
}
