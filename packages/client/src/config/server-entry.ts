/**
 * The connection facts of one MCP server, as the `mcpServers` map of Claude Desktop / Claude Code
 * spells them, plus Switchboard's per-server options. One shape in three layers, each extending the
 * one before: transports' `TransportEntry` (how to reach the server), `ServerEntry` (what the client
 * does with it) and the loader's `ServerConfig` (normalised, plus what only a config file says), so
 * a loaded config is passed as is. Beside the config format it extends, though `connectMcp` and
 * `createMcpClient` read it.
 */
import type { ToolTrustPolicy } from '@switchboard/core';
import type { TransportEntry, TransportType } from '@switchboard/transports';
import type { ApprovalSetting } from '../approval-setting.js';
import type { ServerAuthConfig } from './server-auth-config.js';

/**
 * @deprecated use `TransportType` (the normalised kind), or `TransportEntry['type']` for every
 * spelling an entry accepts. Kept for one release.
 */
export type ServerTransportType = TransportType | 'streamable-http';

/** Per-server timeouts in milliseconds (an entry's `timeouts`). */
export interface ServerTimeouts {
  /** Connect: the version probe and `initialize` together. @default 30000 */
  connectMs?: number;
  /** Each request (tool call, list...) without progress; each progress notification restarts it. @default 60000 */
  callMs?: number;
  /** Hard deadline of one tool call however much progress it reports. @default none */
  maxTotalMs?: number;
}

/**
 * One MCP server entry: a `TransportEntry` plus what the client does with the server. Other keys
 * are allowed (and ignored), so entries read from a host's file pass as they are.
 */
export interface ServerEntry extends TransportEntry {
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
  /** Approval of this server's tools (a config file holds the `ApprovalConfig` part of it). @default 'annotations' */
  approval?: ApprovalSetting;
  /** Only these tools (original names or globs such as `read_*`) are used; the rest are hidden. @default every tool */
  includeTools?: string[];
  /** These tools (names or globs) are hidden: never registered, listed, selected or served. Wins over `includeTools`. */
  excludeTools?: string[];
  /** `false` keeps the entry but does not connect it. @default true */
  enabled?: boolean;
  /**
   * Tool pinning and checks of this server, over the connection's `trust` policy (`pin`,
   * `newServers`, `quarantineAt`). @default the connection's policy
   */
  trust?: ToolTrustPolicy;
  /**
   * OAuth of a remote server (grant, client id/secret, scopes, workload identity, enterprise IdP,
   * DPoP); `false` turns it off. None is attempted with a `bearerToken` or an `Authorization` header.
   * @default OAuth as the server's challenge asks
   */
  auth?: ServerAuthConfig | false;
  /**
   * Pins the protocol version: `2026-07-28` speaks only the modern era; a 2025 version is offered
   * at `initialize`, for a server that misbehaves at the latest. @default negotiated (modern first, then `initialize`)
   */
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
