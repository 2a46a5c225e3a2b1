/**
 * Which of a server's tools exist for Switchboard at all: `includeTools` / `excludeTools` name
 * globs (Gemini CLI's keys; Codex's `enabled_tools` and `disabled_tools` map onto them). A hidden
 * tool never reaches the registry, so no selector, gateway or model sees it and it costs no
 * tokens — unlike an approval `deny`, which refuses a call of a tool that is still listed.
 */

import { compileNameGlob } from './name-glob.js';
import { SwitchboardError } from './switchboard-error.js';

/** Options of {@link createToolFilter}. */
export interface ToolFilterOptions {
  /** Only tools matching one of these globs are kept (original names). @default every tool */
  includeTools?: readonly string[];
  /** Tools matching one of these globs are hidden; wins over `includeTools`. @default none */
  excludeTools?: readonly string[];
}

/** Decides whether a tool of a server is kept: `true` keeps it. */
export type ToolFilter = (originalName: string) => boolean;

function compileList(list: unknown, key: string, where: string): RegExp[] | undefined {
  if (list === undefined) return undefined;
  if (!Array.isArray(list) || list.some((glob) => typeof glob !== 'string' || glob === '')) {
    throw new SwitchboardError({
      code: 'INVALID_ARGUMENT',
      message: `${where}: ${key} must be an array of tool names or globs such as "read_*" (got ${JSON.stringify(list)}).`,
      context: { key },
    });
  }
  return list.map(compileNameGlob);
}

/** The filter of one server's tools; `undefined` when nothing is filtered. */
export function createToolFilter(options: ToolFilterOptions, where = 'Tool filter'): ToolFilter | undefined {
  const include = compileList(options.includeTools, 'includeTools', where);
  const exclude = compileList(options.excludeTools, 'excludeTools', where);
  if (include === undefined && exclude === undefined) return undefined;
  return (name) =>
    (include === undefined || include.some((pattern) => pattern.test(name))) &&
    !(exclude ?? []).some((pattern) => pattern.test(name));
}
