/**
 * Targeted edits of the `[mcp_servers.NAME]` tables of a TOML file (Codex's `config.toml`).
 * smol-toml parses and writes TOML but does not keep comments, so writing the whole parsed file
 * back would drop every comment and reorder the user's settings. Instead, each changed server's
 * tables (`[mcp_servers.NAME]` and its sub-tables such as `[mcp_servers.NAME.env]`) are replaced
 * in place by smol-toml's rendering of the new entry, a new server is appended, a removed one is
 * cut out, and every other line of the file stays exactly as it was (comments above a table stay
 * with it).
 */

import { configErrorCodes } from '@switchboard/client';
import { loadSmolToml } from '@switchboard/client/config-documents';
import { SwitchboardError } from '@switchboard/core';

/** The changes to make: entries to write (by name) and names to remove. */
export interface TomlServerChanges {
  set: Record<string, Record<string, unknown>>;
  remove: string[];
}

interface Header {
  /** Offset of the header line's start. */
  start: number;
  /** The table's key path. */
  path: string[];
}

/** The key path of a table header line (`[a."b.c".d]` → `["a", "b.c", "d"]`), or undefined. */
function headerPath(line: string): string[] | undefined {
  const match = /^[ \t]*\[\[?(.*?)\]\]?[ \t]*(?:#.*)?$/.exec(line);
  if (!match) return undefined;
  const body = match[1] as string;
  const path: string[] = [];
  let index = 0;
  while (index < body.length) {
    while (body[index] === ' ' || body[index] === '\t') index++;
    const quote = body[index];
    if (quote === '"' || quote === "'") {
      let end = index + 1;
      let key = '';
      while (end < body.length && body[end] !== quote) {
        if (quote === '"' && body[end] === '\\') {
          key += JSON.parse(`"${body.slice(end, end + 2)}"`) as string;
          end += 2;
        } else key += body[end++];
      }
      path.push(key);
      index = end + 1;
    } else {
      const end = body.slice(index).search(/[ \t.]|$/);
      path.push(body.slice(index, index + end));
      index += end;
    }
    while (body[index] === ' ' || body[index] === '\t') index++;
    if (body[index] === '.') index++;
  }
  return path;
}

function headersOf(text: string): Header[] {
  const headers: Header[] = [];
  let offset = 0;
  for (const line of text.split('\n')) {
    const path = headerPath(line.replace(/\r$/, ''));
    if (path) headers.push({ start: offset, path });
    offset += line.length + 1;
  }
  return headers;
}

function startsWith(path: string[], prefix: string[]): boolean {
  return prefix.every((key, index) => path[index] === key);
}

/** End of a table's own lines: before the comments and blank lines that lead into the next header. */
function sectionEnd(text: string, from: number, next: number): number {
  const lines = text.slice(from, next).split('\n');
  let end = lines.length;
  while (end > 1 && /^[ \t]*(#.*)?\r?$/.test(lines[end - 1] as string)) end--;
  return from + lines.slice(0, end).join('\n').length + (end < lines.length ? 1 : 0);
}

/** The TOML of one server's tables. */
function renderServer(table: string, name: string, entry: Record<string, unknown>): string {
  return loadSmolToml()
    .stringify({ [table]: { [name]: entry } })
    .replace(/\n+$/, '\n');
}

/**
 * Applies `changes` to the `[table.NAME]` tables of `text`, leaving everything else as it was.
 * A server that exists only in another form (inline `NAME = { … }`) cannot be edited in place:
 * that is an error asking to write it as a table first.
 */
export function editTomlServers(
  text: string,
  table: string,
  changes: TomlServerChanges,
  file: string,
  existing: Record<string, unknown>,
): string {
  let out = text;
  const names = [...Object.keys(changes.set), ...changes.remove];
  // Back to front, so earlier offsets stay valid.
  const edits: { start: number; end: number; text: string }[] = [];
  const appended: string[] = [];
  for (const name of names) {
    const headers = headersOf(text);
    const own = headers
      .map((header, index) => ({ header, next: headers[index + 1]?.start ?? text.length }))
      .filter(({ header }) => startsWith(header.path, [table, name]));
    const entry = changes.set[name];
    if (own.length === 0) {
      if (Object.hasOwn(existing, name)) {
        throw new SwitchboardError({
          code: configErrorCodes.invalid,
          message: `Server "${name}" in ${file} is written inline, not as a [${table}.${name}] table, so it cannot be edited in place without losing the file's comments. Write it as a table, then export again.`,
          context: { file, server: name },
        });
      }
      if (entry) appended.push(renderServer(table, name, entry));
      continue;
    }
    own.forEach(({ header, next }, index) => {
      const replacement = index === 0 && entry ? renderServer(table, name, entry) : '';
      let start = header.start;
      let end = sectionEnd(text, header.start, next);
      // A table cut out takes the comment lines just above it: they described it.
      if (replacement === '') {
        for (;;) {
          const previous = text.lastIndexOf('\n', start - 2) + 1;
          if (start === 0 || !/^[ \t]*#.*\r?\n$/.test(text.slice(previous, start))) break;
          start = previous;
        }
      }
      // A table cut out takes the blank lines after it, so no gap is left where it was.
      if (replacement === '')
        while (text[end] === '\n' || (text[end] === '\r' && text[end + 1] === '\n'))
          end += text[end] === '\r' ? 2 : 1;
      edits.push({ start, end, text: replacement });
    });
  }
  // New servers go after the file's last server table (else at the end), so servers stay together.
  const headers = headersOf(text);
  const lastIndex = headers.findLastIndex((header) => header.path[0] === table);
  const last = headers[lastIndex];
  if (appended.length > 0 && last !== undefined && lastIndex < headers.length - 1) {
    const at = sectionEnd(text, last.start, headers[lastIndex + 1]?.start ?? text.length);
    edits.push({ start: at, end: at, text: appended.map((block) => `\n${block}`).join('') });
    appended.length = 0;
  }
  edits.sort((left, right) => right.start - left.start);
  for (const edit of edits) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  for (const block of appended) {
    if (out.length > 0 && !out.endsWith('\n')) out += '\n';
    out += `${out.trim().length > 0 ? '\n' : ''}${block}`;
  }
  return out;
}
