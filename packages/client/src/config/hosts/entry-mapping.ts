/**
 * The import half of a host module, as small steps on a working copy of one raw entry: rename a
 * host key to ours, move a host timeout into `timeouts`, translate the host's reference spelling,
 * and keep every key Switchboard has no meaning for (so exporting back writes it again). A value
 * of the wrong type is passed on unmapped, so the validator reports it under the host's key name.
 */
import { serverEntryKeys } from '../validate-server-config.js';
import type { MappedEntry } from './host-format.js';

/**
 * Keys the Switchboard validator knows; anything else in a host entry is kept for the host. Our
 * aliases of `type` and our own `hostKeys` are left out: in a host's file they are the host's.
 */
export const switchboardKeys: ReadonlySet<string> = new Set(
  [...serverEntryKeys].filter((key) => !['transport', 'transportType', 'hostKeys'].includes(key)),
);

/** True for a plain object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A working copy of one raw entry and what mapping it has done so far. */
export interface EntryMapping {
  /** The entry being mapped (mutable). */
  entry: Record<string, unknown>;
  /** Our key → the host's key it came from (mutable, for mappings `rename` cannot express). */
  renamed: Record<string, string>;
  /** Our key ← the host's key. */
  rename(from: string, to: string): EntryMapping;
  /** A positive number under `key`, times `scale`, becomes `timeouts[target]` (unless set already). */
  timeout(key: string, scale: number, target: 'callMs' | 'connectMs'): EntryMapping;
  /** Applies `translate` to every string the client reads references in (command, args, env, headers, url, cwd, envFile). */
  references(translate: (value: string) => string): EntryMapping;
  /** Moves `key` into the kept host keys; `quiet` keeps it without a warning. */
  keep(key: string, options?: { quiet?: boolean }): EntryMapping;
  /** Marks the entry as one Switchboard cannot run. */
  skip(reason: string): EntryMapping;
  /** Keeps every key Switchboard does not know (`quiet` ones without a warning) and returns the result. */
  done(quiet?: readonly string[]): MappedEntry;
}

/** Starts mapping one raw entry. */
export function mapEntry(raw: Record<string, unknown>): EntryMapping {
  const entry: Record<string, unknown> = { ...raw };
  const renamed: Record<string, string> = {};
  const kept: Record<string, unknown> = {};
  const reported: string[] = [];
  let skip: string | undefined;
  const mapping: EntryMapping = {
    entry,
    renamed,
    rename(from, to) {
      if (entry[from] === undefined || entry[to] !== undefined) return mapping;
      entry[to] = entry[from];
      delete entry[from];
      renamed[to] = from;
      return mapping;
    },
    timeout(key, scale, target) {
      const value = entry[key];
      if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return mapping;
      delete entry[key];
      const timeouts = isRecord(entry.timeouts) ? entry.timeouts : {};
      entry.timeouts = { [target]: value * scale, ...timeouts };
      return mapping;
    },
    references(translate) {
      for (const key of ['command', 'url', 'cwd', 'envFile']) {
        if (typeof entry[key] === 'string') entry[key] = translate(entry[key] as string);
      }
      if (Array.isArray(entry.args)) {
        entry.args = entry.args.map((arg) => (typeof arg === 'string' ? translate(arg) : arg));
      }
      for (const key of ['env', 'headers']) {
        const map = entry[key];
        if (!isRecord(map)) continue;
        entry[key] = Object.fromEntries(
          Object.entries(map).map(([name, value]) => [
            name,
            typeof value === 'string' ? translate(value) : value,
          ]),
        );
      }
      return mapping;
    },
    keep(key, options = {}) {
      if (!Object.hasOwn(entry, key)) return mapping;
      kept[key] = entry[key];
      delete entry[key];
      if (!options.quiet) reported.push(key);
      return mapping;
    },
    skip(reason) {
      skip = reason;
      return mapping;
    },
    done(quiet = []) {
      for (const key of Object.keys(entry)) {
        if (!switchboardKeys.has(key)) mapping.keep(key, { quiet: quiet.includes(key) });
      }
      return { entry, renamed, kept, reported, ...(skip === undefined ? {} : { skip }) };
    },
  };
  return mapping;
}
