/**
 * The one interface every host module implements: where a host keeps its MCP servers (files per
 * platform, document syntax, the path of the servers inside), how one of its entries becomes a
 * Switchboard `ServerConfig` (import) and back (export), and how it spells a reference to an
 * environment variable. `importConfig` and `exportConfig` are short flows over this interface, so
 * adding a host is adding one module to `hosts/index.ts`.
 */
import type { VariableSource } from '../expand-variables.js';
import type { JsonPathSegment } from '../jsonc-document.js';
import type { ConfigSource, ServerConfig } from '../server-config.js';

/** The hosts whose config files Switchboard reads and writes. */
export type HostId =
  | 'claude-desktop'
  | 'claude-code'
  | 'cursor'
  | 'vscode'
  | 'windsurf'
  | 'zed'
  | 'gemini-cli'
  | 'cline'
  | 'codex'
  | 'continue'
  | 'goose';

/** The syntax of a host's config file. */
export type HostSyntax = 'jsonc' | 'toml' | 'yaml';

/** What locating a host's files depends on. */
export interface HostLocationContext {
  home: string;
  cwd: string;
  platform: NodeJS.Platform;
  /** For `APPDATA`, `USERPROFILE` (Windows), `XDG_CONFIG_HOME` and hosts' own `*_HOME` variables. */
  env: VariableSource;
}

/** One place a host keeps servers: a file (or a folder of block files) and the path inside it. */
export interface HostLocation extends ConfigSource {
  /** Path of the servers inside the document: a map by name, or (Continue) a list of entries with `name`. */
  serversPath: string[];
  /** Directory `${workspaceFolder}` stands for. */
  workspaceFolder: string;
  /** Set when `path` is a folder whose files with these extensions are each one document (Continue's blocks). */
  directoryOf?: string[];
}

/** One server entry as the host's file has it. */
export interface HostEntry {
  name: string;
  /** The entry's raw value. */
  raw: unknown;
  /** JSON path of the entry in the document (a name in a map, an index in a list). */
  path: JsonPathSegment[];
}

/** An entry mapped onto Switchboard's keys, ready for validation. */
export interface MappedEntry {
  /** The entry in Switchboard's key names (values not yet validated). */
  entry: Record<string, unknown>;
  /** Our key → the host's key it came from, so validation errors name what the file says. */
  renamed: Record<string, string>;
  /** Host keys with no Switchboard meaning, kept in `hostKeys[host]` for exporting back. */
  kept: Record<string, unknown>;
  /** Of the kept keys, those worth a warning (the host's own bookkeeping keys are kept quietly). */
  reported: string[];
  /** Set when the entry is not a server Switchboard can run (Goose's builtins): the reason. */
  skip?: string;
}

/** What a host entry becomes on export. */
export interface ExportedEntry {
  /** The entry in the host's format; undefined when the server cannot be exported to this host. */
  entry: Record<string, unknown> | undefined;
  /** What the user should know or do (a variable to set, a key the host has no room for). */
  warnings: string[];
  /** VS Code `inputs` the entry refers to (password prompts standing in for literal secrets). */
  inputs?: Record<string, unknown>[];
}

/** What exporting one entry can look at. */
export interface ExportEntryContext {
  name: string;
  /** The host's current entry of that name, if the file has one (to keep its form). */
  existing: unknown;
  /** The project folder, when the file written is a project's (VS Code, Cursor write it back as `${workspaceFolder}`). */
  workspaceFolder?: string;
}

/** One host's config format. */
export interface HostFormat {
  id: HostId;
  /** The host's name as people know it. */
  title: string;
  syntax: HostSyntax;
  /** Files read by default, in merge order (later wins, as in the host). */
  locations(context: HostLocationContext): HostLocation[];
  /** The file `exportConfig` writes by default (the user-level one). */
  exportLocation(context: HostLocationContext): HostLocation;
  /** The locations inside an explicitly given file. */
  locationsInFile(path: string, context: HostLocationContext): HostLocation[];
  /**
   * Where the servers are inside a parsed document; undefined when it has none. Default: the
   * location's `serversPath`. (VS Code's settings.json nests them under `mcp`; Claude Code keys
   * local servers by project folder.)
   */
  serversPathIn?(value: unknown, location: HostLocation, context: HostLocationContext): string[] | undefined;
  /** The host's placeholder for the project folder, written back into a project file's paths. */
  workspacePlaceholder?: string;
  /** `list` for hosts that keep servers as a list of entries with `name` (Continue). @default 'map' */
  shape?: 'map' | 'list';
  /** Maps one raw entry onto Switchboard's keys (before validation). */
  toServerConfig(raw: Record<string, unknown>): MappedEntry;
  /** Writes one Switchboard server as the host's entry. */
  fromServerConfig(config: ServerConfig, context: ExportEntryContext): ExportedEntry;
  /**
   * How the host refers to an environment variable in its config, or undefined when it has no
   * such syntax (then exporting a server that needs one is refused with a warning).
   */
  envReference(variable: string, fallback?: string): string | undefined;
}
