/** Which protocol log entries a filter keeps: by server, direction, method and free text. */
import type { UiLogEntry } from './ui-types.js';

export interface LogFilter {
  server: string;
  direction: '' | 'in' | 'out';
  method: string;
  text: string;
}

export const emptyLogFilter: LogFilter = { server: '', direction: '', method: '', text: '' };

// The JSON text of each entry, lower-cased, made once: a text filter then scans 10,000 entries
// per keystroke without stringifying them again.
const searchText = new WeakMap<UiLogEntry, string>();

function textOf(entry: UiLogEntry): string {
  let text = searchText.get(entry);
  if (text === undefined) {
    text = JSON.stringify(entry.message).toLowerCase();
    searchText.set(entry, text);
  }
  return text;
}

export function logEntryMatches(entry: UiLogEntry, filter: LogFilter): boolean {
  if (filter.server !== '' && entry.server !== filter.server) return false;
  if (filter.direction !== '' && entry.direction !== filter.direction) return false;
  if (filter.method !== '' && !(entry.method ?? '').toLowerCase().includes(filter.method.toLowerCase()))
    return false;
  if (filter.text !== '' && !textOf(entry).includes(filter.text.toLowerCase())) return false;
  return true;
}

/** A one-line digest of an entry's message for its row (params, result or error, shortened). */
export function logEntrySummary(entry: UiLogEntry, maxLength = 160): string {
  const message = entry.message as Record<string, unknown> | undefined;
  const body = message?.params ?? message?.result ?? message?.error;
  if (body === undefined) return '';
  const text = JSON.stringify(body) ?? '';
  return text.length > maxLength ? `${text.slice(0, maxLength)}…` : text;
}
