/**
 * The connection facts of one MCP server, as the `mcpServers` map of Claude Desktop / Claude Code
 * spells them, plus Switchboard's per-server options. Structurally compatible with `ServerConfig`
 * from the config loader, so a loaded config can be passed as is.
 */

/** How a server is reached. `http` is Streamable HTTP (with legacy SSE fallback when not forced). */
export type ServerTransportType = 'stdio' | 'http' | 'streamable-http' | 'sse' | 'ws';

/** Per-server timeouts in milliseconds (the config loader's `timeouts`). */
export interface ServerTimeouts {
  /** Connect + `initialize`. @default 30000 */
  connectMs?: number;
  /** Each request (tool call, list...) without progress; each progress notification restarts it. @default 60000 */
  callMs?: number;
  /** Hard deadline of one tool call however much progress it reports. @default none */
  maxTotalMs?: number;
}

/** One MCP server entry. */
export interface ServerEntry {
  command?: string;
  args?: string[];
  /** Added onto the default environment (PATH and the like), not a replacement. */
  env?: Record<string, string>;
  cwd?: string;
  type?: ServerTransportType | (string & {});
  url?: string;
  headers?: Record<string, string>;
  /** A shell command run at each connect whose stdout (a JSON object) is merged over `headers`. Its output is never logged. */
  headersHelper?: string;
  /** Namespace prefix of this server's tools. @default the server name */
  prefix?: string;
  /** Timeouts for this server. */
  timeouts?: ServerTimeouts;
  /** Approval policy for this server's tools (core's `createApprovalPolicy` input). */
  approval?: unknown;
  /** Only these tools (original names or globs such as `read_*`) are used; the rest are hidden. @default every tool */
  includeTools?: string[];
  /** These tools (names or globs) are hidden: never registered, listed, selected or served. Wins over `includeTools`. */
  excludeTools?: string[];
  /** `false` skips the server. @default true */
  enabled?: boolean;
  /** Protocol version offered at `initialize`. @default the SDK's latest */
  protocolVersion?: string;
  [key: string]: unknown;
}

/** True when `value` looks like a server entry rather than an SDK transport. */
export function isServerEntry(value: unknown): value is ServerEntry {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  if (typeof record.start === 'function' && typeof record.send === 'function') return false;
  return typeof record.command === 'string' || typeof record.url === 'string';
}
