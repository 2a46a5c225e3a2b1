/**
 * How the page sees a server: the connection's status (state, era, version, respawns, last error),
 * this process's call figures, where the server came from and what it runs — redacted — and, for
 * a Switchboard gateway (`switchboard serve --http`), the upstream servers behind it, read from
 * the gateway's namespaced tool names.
 */
import type { CallStats, ServerConfig, ServerStatus } from '@switchboard/client';
import type { RegisteredTool } from '@switchboard/core';
import type { UiServer } from './ui-api.js';

/** What {@link toUiServer} is made from. */
export interface ServerViewInput {
  name: string;
  origin: UiServer['origin'];
  entry: ServerConfig;
  /** The connection's status; absent while the server is not part of the connection. */
  status?: ServerStatus;
  /** Disconnected from the page (absent from the connection on purpose). */
  disconnected: boolean;
  /** The failure of the last connect made outside the connection (a server added in the page). */
  lastError?: UiServer['lastError'];
  stats?: CallStats;
  /** The server's registered tools (for a gateway's upstreams). */
  tools: readonly RegisteredTool[];
  redact(text: string): string;
}

/** The server name a Switchboard gateway introduces itself with, unless configured otherwise. */
const gatewayServerName = 'switchboard-gateway';

/** A gateway's public tool name under its default naming: `mcp__<upstream>__<tool>`. */
const gatewayToolName = /^mcp__(.+?)__./;

/** The page's view of one server. */
export function toUiServer(input: ServerViewInput): UiServer {
  const { status, entry } = input;
  const lastError = status?.lastError ?? input.lastError;
  const upstreams = gatewayUpstreams(status?.serverInfo?.name, input.tools);
  return {
    name: input.name,
    state: stateOf(input),
    origin: input.origin,
    transport: status?.transport ?? entry.type ?? (entry.url ? 'http' : 'stdio'),
    target: describeServerTarget(entry, input.redact),
    ...(status?.era ? { era: status.era } : {}),
    ...(status?.protocolVersion ? { protocolVersion: status.protocolVersion } : {}),
    ...(status?.serverInfo ? { serverInfo: { ...status.serverInfo } } : {}),
    toolCount: status?.toolCount ?? 0,
    respawns: status?.respawns ?? 0,
    ...(lastError ? { lastError: { ...lastError, message: input.redact(lastError.message) } } : {}),
    calls: input.stats?.calls ?? 0,
    errors: input.stats?.errors ?? 0,
    latency: {
      ...(input.stats?.p50Ms === undefined ? {} : { p50: input.stats.p50Ms }),
      ...(input.stats?.p95Ms === undefined ? {} : { p95: input.stats.p95Ms }),
    },
    ...(upstreams ? { upstreams } : {}),
  };
}

function stateOf(input: ServerViewInput): string {
  if (input.status) return input.status.state;
  if (input.disconnected) return 'disconnected';
  if (input.lastError?.code === 'NEEDS_AUTH') return 'needs-auth';
  return input.lastError ? 'failed' : 'disconnected';
}

/**
 * What the server runs or where it is, without secrets: a URL's origin and path (no credentials,
 * no query, where tokens travel), a command line with every known secret masked.
 */
export function describeServerTarget(entry: ServerConfig, redact: (text: string) => string): string {
  if (entry.url) {
    try {
      const url = new URL(entry.url);
      return `${url.origin}${url.pathname}`;
    } catch {
      return 'an invalid URL';
    }
  }
  return redact([entry.command, ...(entry.args ?? [])].filter(Boolean).join(' '));
}

/**
 * The upstream servers of a gateway: the `<upstream>` of its tools named `mcp__<upstream>__<tool>`,
 * when the server says it is a Switchboard gateway or most of its tools follow that naming (a
 * gateway named otherwise). Undefined for any other server.
 */
export function gatewayUpstreams(
  serverName: string | undefined,
  tools: readonly Pick<RegisteredTool, 'originalName'>[],
): string[] | undefined {
  const upstreams = tools
    .map((tool) => gatewayToolName.exec(tool.originalName)?.[1])
    .filter((upstream): upstream is string => upstream !== undefined);
  if (upstreams.length === 0) return undefined;
  if (serverName !== gatewayServerName && upstreams.length * 2 <= tools.length) return undefined;
  return [...new Set(upstreams)].sort();
}
