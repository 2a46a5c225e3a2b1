/**
 * The config format: the `mcpServers` map of Claude Desktop / Claude Code, so existing files work
 * as they are, plus a few Switchboard options per server.
 */
import type { ApprovalModeName, ApprovalRules, SwitchboardError } from '@switchboard/core';
import type { TransportType } from '@switchboard/transports';
import type { ServerEntry } from './server-entry.js';

/** @deprecated use `ApprovalModeName` (core's `ApprovalMode` also takes a function). Kept for one release. */
export type ApprovalMode = ApprovalModeName;

/**
 * Approval settings of one server as a config file holds them (JSON: no function, no policy
 * object): a mode, or a mode plus allow/deny tool-name globs. The client's `ApprovalSetting`
 * takes these and more.
 */
export type ApprovalConfig =
  | ApprovalModeName
  | (ApprovalRules & { /** @default 'annotations' */ mode?: ApprovalModeName });

/**
 * One entry of `mcpServers` as the loader leaves it: a `ServerEntry` whose `type` is normalised and
 * whose `approval` is in its JSON form, plus the keys only a config file has.
 */
export interface ServerConfig extends ServerEntry {
  /** Transport, normalised (`streamable-http` → `http`, `websocket` → `ws`). Absent: inferred from `command`/`url`. */
  type?: TransportType;
  /** A dotenv file whose variables are added to `env` (explicit `env` entries win). */
  envFile?: string;
  /** Approval of this server's tools, in a config file's form. @default 'annotations' */
  approval?: ApprovalConfig;
  /** What the server is for (shown by tooling, used by tool selection). */
  description?: string;
  /**
   * Keys of a host's entry that Switchboard has no use for (VS Code's `dev`, Zed's `settings`…),
   * by host id, kept by `importConfig` so that `exportConfig` to that host writes them again.
   */
  hostKeys?: Record<string, Record<string, unknown>>;
}

/** Where a piece of config came from. */
export interface ConfigSource {
  /** A file path, or `env:SWITCHBOARD_MCP_SERVERS`. */
  path: string;
  /** `user` (~/.switchboard), `project`, `file` (given explicitly) or `env`. */
  kind: 'user' | 'project' | 'file' | 'env';
}

/** A server entry or file that `loadConfig({ onError: 'skip' })` left out, and why. */
export interface ConfigError {
  /** The server left out; absent when a whole file (or a top-level key) was the problem. */
  server?: string;
  source: ConfigSource;
  /** A `CONFIG_*` error naming file and JSON path; never holds secret values. */
  error: SwitchboardError;
}

/** The merged result of {@link loadConfig}. */
export interface SwitchboardConfig {
  /** Servers by name, after merging, filtering by `allowedServers` and expanding variables. */
  mcpServers: Record<string, ServerConfig>;
  /** The effective `allowedServers` list, when one was set. */
  allowedServers?: string[];
  /** Config sources read, in merge order (later overrides earlier). */
  sources: ConfigSource[];
  /** Which source each server's entry came from. */
  serverSources: Record<string, ConfigSource>;
  /** Non-fatal problems (unknown keys, unknown names in `allowedServers`). Never holds secret values. */
  warnings: string[];
  /** What `onError: 'skip'` left out (always empty with the default `'throw'`). */
  errors: ConfigError[];
}
