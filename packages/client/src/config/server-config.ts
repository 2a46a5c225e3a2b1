/**
 * The config format: the `mcpServers` map of Claude Desktop / Claude Code, so existing files work
 * as they are, plus a few Switchboard options per server.
 */
import type { SwitchboardError } from '@switchboard/core';
import type { ServerAuthConfig } from './server-auth-config.js';

/** How Switchboard talks to a server. `http` is Streamable HTTP. */
export type TransportType = 'stdio' | 'http' | 'sse' | 'ws';

/** Approval modes, as core's approval policy understands them. */
export type ApprovalMode = 'annotations' | 'always' | 'never';

/** Approval settings of one server: a mode, or a mode plus allow/deny tool-name globs. */
export type ApprovalConfig =
  | ApprovalMode
  | {
      /** @default 'annotations' */
      mode?: ApprovalMode;
      /** Tool-name globs that run without asking. */
      allow?: string[];
      /** Tool-name globs that are never run. */
      deny?: string[];
    };

/** Per-server timeouts in milliseconds. */
export interface ServerTimeouts {
  /** Connect and initialize. @default 30000 */
  connectMs?: number;
  /** One tool call without progress; each progress notification restarts it. @default 60000 */
  callMs?: number;
  /** Hard deadline of one tool call however much progress it reports. @default none */
  maxTotalMs?: number;
}

/**
 * One entry of `mcpServers`. A type alias rather than an interface so that it is assignable to
 * index-signature types such as the client's `ServerEntry`.
 */
export type ServerConfig = {
  /** Transport, normalised (`streamable-http` → `http`, `websocket` → `ws`). Absent: inferred from `command`/`url`. */
  type?: TransportType;
  /** Executable of a stdio server. */
  command?: string;
  /** Arguments of `command`. */
  args?: string[];
  /** Variables added onto the default environment of a stdio server. */
  env?: Record<string, string>;
  /** A dotenv file whose variables are added to `env` (explicit `env` entries win). */
  envFile?: string;
  /** Working directory of a stdio server. */
  cwd?: string;
  /** Endpoint of an HTTP, SSE or WebSocket server. */
  url?: string;
  /** Static headers sent to a remote server. */
  headers?: Record<string, string>;
  /**
   * A shell command run at each connect whose stdout is a JSON object of headers, merged over
   * `headers` (Claude Code's `headersHelper`): for short-lived tokens. Its output is a secret: it
   * is never logged, and a failure names the command and its exit status, never what it printed.
   */
  headersHelper?: string;
  /** Namespace prefix of this server's tools. @default the server name */
  prefix?: string;
  /** Timeouts of this server. */
  timeouts?: ServerTimeouts;
  /** Approval policy of this server's tools. */
  approval?: ApprovalConfig;
  /** Only these tools (original names or globs such as `read_*`) are used; the rest are hidden. @default every tool */
  includeTools?: string[];
  /** These tools (names or globs) are hidden: never registered, listed, selected or served. Wins over `includeTools`. */
  excludeTools?: string[];
  /** `false` keeps the entry in the config but does not connect it. @default true */
  enabled?: boolean;
  /** What the server is for (shown by tooling, used by tool selection). */
  description?: string;
  /** OAuth of a remote server (grant, client id/secret, scopes, workload identity, enterprise IdP, DPoP); `false` turns it off. */
  auth?: ServerAuthConfig | false;
  /** Protocol version offered at `initialize`, for a server that misbehaves at the latest. @default the latest */
  protocolVersion?: string;
  /**
   * Keys of a host's entry that Switchboard has no use for (VS Code's `dev`, Zed's `settings`…),
   * by host id, kept by `importConfig` so that `exportConfig` to that host writes them again.
   */
  hostKeys?: Record<string, Record<string, unknown>>;
};

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
