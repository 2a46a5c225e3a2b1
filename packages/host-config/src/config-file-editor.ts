/**
 * Editing config files in place for `switchboard servers add/remove/import`. Users hand-edit these
 * files, so an edit changes only the members that changed: comments, formatting, key order and
 * keys we do not know stay as they were. Writes are atomic (temp file + rename) and keep the file's
 * permissions; new files are created 0600 because entries often carry tokens.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readFile, realpath, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { configErrorCodes, type ServerConfig } from '@switchboard/client';
import {
  type ConfigIssue,
  createInvalidConfigError,
  describeType,
  type JsoncDocument,
  type JsonMember,
  type JsonNode,
  readJsoncFile,
  validateServerEntry,
} from '@switchboard/client/config-documents';
import { SwitchboardError } from '@switchboard/core';

/** A config file as read for editing. */
export interface ConfigFile {
  /** Absolute path as given. */
  path: string;
  /** False when the file does not exist yet (then `data` is `{}`). */
  exists: boolean;
  /** The whole document as plain data, unknown keys included. */
  data: Record<string, unknown>;
}

/** Changes a config file's data: mutate the copy it gets, or return new data. */
export type ConfigFileUpdate = (
  data: Record<string, unknown>,
  // biome-ignore lint/suspicious/noConfusingVoidType: an updater that only mutates returns void or Promise<void>
) => Record<string, unknown> | void | Promise<Record<string, unknown> | void>;

/** Options of {@link addServer}. */
export interface AddServerOptions {
  /** Replace an existing server of the same name instead of failing. @default false */
  overwrite?: boolean;
}

/** Whether a JSON value is an object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function requireObjectRoot(document: JsoncDocument, path: string): Record<string, unknown> {
  if (!isRecord(document.value)) {
    throw createInvalidConfigError(path, document, [
      {
        path: [],
        message: `expected an object such as { "mcpServers": { … } }, got ${describeType(document.value)}.`,
      },
    ]);
  }
  return document.value;
}

/** Reads a config file for editing; a missing file reads as empty. Invalid JSON throws with line and column. */
export async function readConfigFile(path: string): Promise<ConfigFile> {
  const document = await readJsoncFile(path);
  if (!document) return { path, exists: false, data: {} };
  return { path, exists: true, data: requireObjectRoot(document, path) };
}

/**
 * Applies `update` to a config file's data and writes back only what changed. `update` may mutate
 * the data it gets (a copy) or return new data; it runs again on fresh data if the file changed
 * meanwhile, so it should not have other side effects. Returns whether the file changed.
 */
export async function updateConfigFile(
  path: string,
  update: ConfigFileUpdate,
): Promise<{ changed: boolean }> {
  // Optimistic concurrency: when another writer (a second CLI run, an editor) changed the file
  // while `update` ran, start over from its new contents instead of overwriting them.
  for (let attempt = 1; ; attempt++) {
    const document = await readJsoncFile(path);
    const original = document ? requireObjectRoot(document, path) : {};
    const draft = structuredClone(original);
    const next = (await update(draft)) ?? draft;
    if (!isRecord(next)) {
      throw new SwitchboardError({
        code: 'INVALID_ARGUMENT',
        message: `updateConfigFile(${path}): the update must return an object (or nothing), got ${describeType(next)}.`,
        context: { file: path },
      });
    }
    if (document && deepEqual(original, next)) return { changed: false };
    const text = document
      ? rewriteJsonc(document, next)
      : `${renderJson(next, '', { newline: '\n', unit: '  ' })}\n`;
    const current = await readFile(path, 'utf8').catch(() => undefined);
    if (current !== document?.text && attempt < 5) continue;
    await writeFileAtomic(path, text);
    return { changed: true };
  }
}

/** Adds a server entry (validated first) to a config file, creating the file and folder if missing. */
export async function addServer(
  path: string,
  name: string,
  entry: ServerConfig,
  options: AddServerOptions = {},
): Promise<void> {
  const issues: ConfigIssue[] = [];
  const entryPath = ['mcpServers', name];
  if (name.trim() === '') issues.push({ path: entryPath, message: 'a server name must not be empty.' });
  validateServerEntry(entry, entryPath, {
    issue: (p, message) => issues.push({ path: p, message }),
    warn: () => {},
  });
  if (issues.length > 0) throw createInvalidConfigError(`the entry for ${path}`, undefined, issues);
  const plain = JSON.parse(JSON.stringify(entry)) as Record<string, unknown>;
  await updateConfigFile(path, (data) => {
    const servers = serversOf(data, path);
    if (Object.hasOwn(servers, name) && !options.overwrite) {
      throw new SwitchboardError({
        code: configErrorCodes.serverExists,
        message: `Server "${name}" already exists in ${path}. Remove it first, or pass overwrite (the CLI's --force) to replace it.`,
        context: { server: name, file: path },
      });
    }
    servers[name] = plain;
    data.mcpServers = servers;
    return data;
  });
}

/** Removes a server entry from a config file; throws `SERVER_NOT_FOUND` (listing the names there) when absent. */
export async function removeServer(path: string, name: string): Promise<void> {
  await updateConfigFile(path, (data) => {
    const servers = serversOf(data, path);
    if (!Object.hasOwn(servers, name)) {
      const known = Object.keys(servers);
      throw new SwitchboardError({
        code: configErrorCodes.serverNotFound,
        message: `Server "${name}" is not in ${path} (servers there: ${known.length ? known.join(', ') : 'none'}).`,
        context: { server: name, file: path, known },
      });
    }
    delete servers[name];
    return data;
  });
}

function serversOf(data: Record<string, unknown>, path: string): Record<string, unknown> {
  const servers = data.mcpServers ?? {};
  if (!isRecord(servers)) {
    throw new SwitchboardError({
      code: configErrorCodes.invalid,
      message: `mcpServers in ${path} is ${describeType(servers)}, not an object of servers by name. Fix the file by hand first.`,
      context: { file: path, path: 'mcpServers' },
    });
  }
  return servers;
}

/** Structural equality of JSON data; key order does not matter, undefined members count as absent. */
export function deepEqual(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (Array.isArray(left) || Array.isArray(right)) {
    return (
      Array.isArray(left) &&
      Array.isArray(right) &&
      left.length === right.length &&
      left.every((item, index) => deepEqual(item, right[index]))
    );
  }
  if (!isRecord(left) || !isRecord(right)) return false;
  const leftKeys = Object.keys(left).filter((key) => left[key] !== undefined);
  const rightKeys = Object.keys(right).filter((key) => right[key] !== undefined);
  return leftKeys.length === rightKeys.length && leftKeys.every((key) => deepEqual(left[key], right[key]));
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

interface Style {
  newline: string;
  unit: string;
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** Indentation of the line holding `offset`, or undefined when other text precedes it on the line. */
function ownLineIndent(text: string, offset: number): string | undefined {
  const before = text.slice(lineStart(text, offset), offset);
  return /^[ \t]*$/.test(before) ? before : undefined;
}

function isScalar(value: unknown): boolean {
  return value === null || typeof value !== 'object';
}

/** JSON laid out like a hand-written config: objects one member a line, short scalar arrays inline. */
function renderJson(value: unknown, indent: string, style: Style): string {
  const inner = indent + style.unit;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    if (value.every(isScalar)) {
      const inline = renderInline(value);
      if (inline.length + inner.length <= 100) return inline;
    }
    const items = value.map((item) => `${style.newline}${inner}${renderJson(item, inner, style)}`);
    return `[${items.join(',')}${style.newline}${indent}]`;
  }
  if (isRecord(value)) {
    const keys = Object.keys(value).filter((key) => value[key] !== undefined);
    if (keys.length === 0) return '{}';
    const members = keys.map(
      (key) => `${style.newline}${inner}${JSON.stringify(key)}: ${renderJson(value[key], inner, style)}`,
    );
    return `{${members.join(',')}${style.newline}${indent}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** JSON on one line with a space after `:` and `,`, for objects written inline. */
function renderInline(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(renderInline).join(', ')}]`;
  if (isRecord(value)) {
    const keys = Object.keys(value).filter((key) => value[key] !== undefined);
    return `{${keys.map((key) => `${JSON.stringify(key)}: ${renderInline(value[key])}`).join(', ')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The style of a text: its line ending and indentation unit (two spaces when it cannot tell). */
function detectStyle(text: string): Style {
  return { newline: text.includes('\r\n') ? '\r\n' : '\n', unit: /\n([ \t]+)["}\]]/.exec(text)?.[1] ?? '  ' };
}

/**
 * Produces the text of `document` changed to hold `next`, touching only members whose values
 * changed (recursively, so an unchanged sibling keeps its comments).
 */
export function rewriteJsonc(document: JsoncDocument, next: unknown): string {
  const text = document.text;
  const style = detectStyle(text);
  // A one-line file (`{"mcpServers": {}}` from an echo) has no layout worth keeping: lay it out afresh.
  const withoutStrings = text.replace(/"(?:[^"\\\n]|\\.)*"/g, '""');
  if (!text.trim().includes('\n') && !withoutStrings.includes('/')) {
    return `${renderJson(next, '', style)}${/\r?\n$/.exec(text)?.[0] ?? '\n'}`;
  }
  const edits: Edit[] = [];
  diffNode(text, document.root, next, '', style, edits);
  return applyEdits(text, edits);
}

function applyEdits(text: string, edits: Edit[]): string {
  // Overlapping removals (neighbours both removed) are merged into one.
  const sorted = [...edits].sort((left, right) => left.start - right.start || left.end - right.end);
  const merged: Edit[] = [];
  for (const edit of sorted) {
    const previous = merged[merged.length - 1];
    if (previous && previous.text === '' && edit.text === '' && edit.start <= previous.end) {
      previous.end = Math.max(previous.end, edit.end);
    } else {
      merged.push({ ...edit });
    }
  }
  // Back to front, so earlier offsets stay valid; at one offset a removal goes first, and
  // insertions at one offset are applied last-made first so they read in the order they were made.
  const ordered = merged.map((edit, index) => ({ edit, index }));
  ordered.sort(
    (left, right) =>
      right.edit.start - left.edit.start || right.edit.end - left.edit.end || right.index - left.index,
  );
  let out = text;
  for (const { edit } of ordered) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;
}

/** Offset of the end of the line holding `offset` (the newline's offset, or the text's end). */
function lineEnd(text: string, offset: number): number {
  const newline = text.indexOf('\n', offset);
  if (newline === -1) return text.length;
  return text[newline - 1] === '\r' ? newline - 1 : newline;
}

/** The range to remove for a member: its lines (with the comment lines just above it) or, inline, its text. */
function removalRange(text: string, member: JsonMember): { start: number; end: number } {
  const afterValue = member.commaEnd ?? member.value.end;
  if (ownLineIndent(text, member.keyStart) === undefined) {
    if (member.commaEnd !== undefined) {
      let end = member.commaEnd;
      while (text[end] === ' ' || text[end] === '\t') end++;
      return { start: member.keyStart, end };
    }
    let start = member.keyStart;
    while (start > 0 && (text[start - 1] === ' ' || text[start - 1] === '\t')) start--;
    return { start, end: member.value.end };
  }
  let start = lineStart(text, member.keyStart);
  // Comment lines directly above a member describe it: they go with it.
  while (start > 0) {
    const previousStart = lineStart(text, start - 1);
    if (!/^[ \t]*\/\/.*\r?\n$/.test(text.slice(previousStart, start))) break;
    start = previousStart;
  }
  let end = afterValue;
  const tail = /^[ \t]*(?:\/\/[^\n]*)?\r?\n?/.exec(text.slice(end));
  if (tail && lineEnd(text, end) <= end + tail[0].length) end += tail[0].length;
  return { start, end };
}

function diffNode(
  text: string,
  node: JsonNode,
  next: unknown,
  indent: string,
  style: Style,
  edits: Edit[],
): void {
  if (deepEqual(node.value, next)) return;
  if (node.type !== 'object' || !isRecord(next) || !node.members) {
    const inline =
      ownLineIndent(text, node.start) === undefined && !text.slice(node.start, node.end).includes('\n');
    const rendered =
      inline && node.type === 'object' && isRecord(next)
        ? renderInline(next)
        : renderJson(next, indent, style);
    edits.push({ start: node.start, end: node.end, text: rendered });
    return;
  }
  const members = node.members;
  // With duplicate keys the last one is the effective one; earlier ones are left alone.
  const effective = new Map<string, JsonMember>();
  for (const member of members) effective.set(member.key, member);
  const kept = [...effective.values()].filter((member) => next[member.key] !== undefined);
  if (kept.length === 0) {
    edits.push({ start: node.start, end: node.end, text: renderJson(next, indent, style) });
    return;
  }

  for (const member of kept) {
    const memberIndent = ownLineIndent(text, member.keyStart) ?? indent;
    diffNode(text, member.value, next[member.key], memberIndent, style, edits);
  }

  const lastKept = kept[kept.length - 1] as JsonMember;
  const removed = [...effective.values()].filter((member) => next[member.key] === undefined);
  for (const member of removed) edits.push({ ...removalRange(text, member), text: '' });

  const added = Object.keys(next).filter((key) => next[key] !== undefined && !effective.has(key));
  // The object's last member had no comma and goes away: the last kept one loses its comma,
  // unless new members follow it on lines of their own.
  const finalRemovedWithoutComma = removed.some(
    (member) => member.keyStart > lastKept.keyStart && member.commaEnd === undefined,
  );
  const dropLastKeptComma = (): void => {
    if (!finalRemovedWithoutComma || lastKept.commaEnd === undefined) return;
    let end = lastKept.commaEnd;
    // Inline, the spaces before the removed neighbour go too: `{"a": 1}`, not `{"a": 1 }`.
    const spaces = /^[ \t]*/.exec(text.slice(end))?.[0].length ?? 0;
    if (text[end + spaces] === '"') end += spaces;
    edits.push({ start: lastKept.commaEnd - 1, end, text: '' });
  };
  if (added.length === 0) {
    dropLastKeptComma();
    return;
  }

  const anchorIndent = ownLineIndent(text, lastKept.keyStart);
  const afterAnchor = lastKept.commaEnd ?? lastKept.value.end;
  const anchorLineEnd = lineEnd(text, afterAnchor);
  const cleanTail = /^[ \t]*(?:\/\/[^\n]*)?$/.test(text.slice(afterAnchor, anchorLineEnd).replace(/\r$/, ''));
  if (anchorIndent !== undefined && cleanTail) {
    // New members go on their own lines after the anchor's line, keeping its trailing comment in place.
    const trailingCommas = members[members.length - 1]?.commaEnd !== undefined;
    if (lastKept.commaEnd === undefined)
      edits.push({ start: lastKept.value.end, end: lastKept.value.end, text: ',' });
    const pieces = added.map(
      (key) =>
        `${style.newline}${anchorIndent}${JSON.stringify(key)}: ${renderJson(next[key], anchorIndent, style)}`,
    );
    const insertion = pieces.join(',') + (trailingCommas ? ',' : '');
    edits.push({ start: anchorLineEnd, end: anchorLineEnd, text: insertion });
    return;
  }
  dropLastKeptComma();
  const pieces = added.map((key) =>
    anchorIndent === undefined
      ? `${JSON.stringify(key)}: ${renderInline(next[key])}`
      : `${JSON.stringify(key)}: ${renderJson(next[key], anchorIndent, style)}`,
  );
  const separator = anchorIndent === undefined ? ', ' : `,${style.newline}${anchorIndent}`;
  edits.push({
    start: lastKept.value.end,
    end: lastKept.value.end,
    text: separator + pieces.join(separator),
  });
}

/** Writes a file atomically: a temp file in the same folder, flushed, then renamed over the target. */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  let target = path;
  let mode = 0o600;
  try {
    // Write through a symlink to the file it points at, instead of replacing the link.
    target = await realpath(path);
    mode = (await stat(target)).mode & 0o777;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw ioError(path, error);
  }
  const directory = dirname(target);
  const temporary = join(
    directory,
    `.${basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`,
  );
  try {
    await mkdir(directory, { recursive: true });
    const handle = await open(temporary, 'wx', mode);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    // The process umask may have narrowed the mode given to open().
    await chmod(temporary, mode);
    await rename(temporary, target);
  } catch (error) {
    await unlink(temporary).catch(() => {});
    throw ioError(path, error);
  }
}

function ioError(path: string, error: unknown): SwitchboardError {
  return new SwitchboardError({
    code: configErrorCodes.io,
    message: `Cannot write config file ${path}: ${(error as Error).message}. Check the folder exists and is writable.`,
    context: { file: path },
    cause: error,
  });
}
