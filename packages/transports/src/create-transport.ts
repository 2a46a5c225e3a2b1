/**
 * A server entry (the `mcpServers` format of Claude Desktop / Claude Code) to the transport that
 * reaches it: the one place where the kind is decided (explicit `type` first, else `command` → stdio,
 * `url` → Streamable HTTP or WebSocket) and where an entry that names none is refused with what to
 * add. The stdio transport is loaded only when it starts, so this entry never loads `child_process`.
 */
import type { Transport } from '@modelcontextprotocol/client';
import type { Logger } from '@switchboard/core';
import { DeferredTransport } from './deferred-transport.js';
import { createSseTransport } from './sse-transport.js';
import type { StdioExitInfo, StdioTransport, StdioTransportOptions } from './stdio-transport.js';
import {
  createStreamableHttpTransport,
  type StreamableHttpTransportOptions,
} from './streamable-http-transport.js';
import { TransportError, TransportErrorCode } from './transport-error.js';
import { createWebSocketTransport } from './websocket-transport.js';

/** How a server is reached, normalised (the one name of this concept): `http` is Streamable HTTP. */
export type TransportType = 'stdio' | 'http' | 'sse' | 'ws';

/**
 * How to reach one MCP server: the `mcpServers` entry format of Claude Desktop / Claude Code
 * (`command`, `args`, `env`, `cwd`, `type`, `url`, `headers`) plus `bearerToken`. The client's
 * `ServerEntry` extends it with Switchboard's per-server options, and the config loader's
 * `ServerConfig` extends that.
 */
export interface TransportEntry {
  /**
   * Explicit transport; wins over inference from `command` / `url`. The aliases `streamable-http`,
   * `streamableHttp` and `websocket` are accepted. Typed open, since entries come from config
   * files: any other string is refused by {@link resolveTransportType} with `CONFIG_INVALID`.
   * @default inferred: `command` → `stdio`, a `ws(s)://` URL → `ws`, another URL → `http`
   */
  type?: TransportType | 'streamable-http' | 'streamableHttp' | 'websocket' | (string & {});
  /** Executable of a stdio server. */
  command?: string;
  /** Arguments of a stdio server. */
  args?: string[];
  /** Variables added onto a stdio server's default environment (PATH and the like), not a replacement. Never logged. */
  env?: Record<string, string>;
  /** Working directory of a stdio server. */
  cwd?: string;
  /** URL of an HTTP, SSE or WebSocket server. */
  url?: string;
  /** Headers sent with every HTTP request / the WebSocket upgrade. Never logged. */
  headers?: Record<string, string>;
  /** Sent as `Authorization: Bearer <token>`. Never logged. */
  bearerToken?: string;
}

/** Options of {@link createTransport}. */
export interface CreateTransportOptions {
  /** Server name used in logs and errors. @default the command or the URL's host */
  name?: string;
  /** Receives stderr lines of stdio servers (debug) and lifecycle events. @default silentLogger */
  logger?: Logger;
  /** Extra stdio settings (shutdown timeouts, watchdog, inherited environment). */
  stdio?: Pick<
    StdioTransportOptions,
    | 'stdinCloseTimeoutMs'
    | 'killTimeoutMs'
    | 'watchdog'
    | 'inheritEnv'
    | 'stderrTailLines'
    | 'stderrTailCharacters'
  >;
  /** Extra Streamable HTTP settings. `sseFallback` defaults to true. */
  http?: Pick<
    StreamableHttpTransportOptions,
    'sseFallback' | 'reconnection' | 'agent' | 'sessionId' | 'authProvider'
  >;
}

/** True for the transport of a stdio server (gives access to its process: pid, stderr tail, exit). */
export function isStdioTransport(transport: Transport): transport is StdioTransport {
  return typeof (transport as Partial<StdioTransport>).stderrTail === 'function';
}

/** Which transport an entry asks for, explicit `type` first. */
export function resolveTransportType(entry: TransportEntry, name = 'server'): TransportType {
  switch (entry.type) {
    case 'stdio':
      return 'stdio';
    case 'http':
      return 'http';
    case 'sse':
      return 'sse';
    case 'ws':
      return 'ws';
    case 'streamable-http':
    case 'streamableHttp':
      return 'http';
    case 'websocket':
      return 'ws';
    case undefined:
      break;
    default:
      throw new TransportError({
        code: TransportErrorCode.ConfigInvalid,
        message: `MCP server "${name}" has an unknown transport type "${String(entry.type)}". Use "stdio", "http", "sse" or "ws".`,
        context: { server: name, type: entry.type },
      });
  }
  if (entry.command !== undefined) return 'stdio';
  if (entry.url !== undefined) return /^wss?:/i.test(entry.url) ? 'ws' : 'http';
  throw new TransportError({
    code: TransportErrorCode.ConfigInvalid,
    message: `MCP server "${name}" has neither "command" (a stdio server to start) nor "url" (an HTTP, SSE or WebSocket server). Add one of them.`,
    context: { server: name },
  });
}

/**
 * Creates the transport for a server entry: `command` → stdio; `url` → Streamable HTTP with
 * legacy SSE fallback (`ws://` → WebSocket); an explicit `type` wins. The stdio implementation is
 * loaded when the transport starts, so importing this entry never loads `node:child_process`.
 */
export function createTransport(entry: TransportEntry, options: CreateTransportOptions = {}): Transport {
  const type = resolveTransportType(entry, options.name);
  const name = options.name ?? (type === 'stdio' ? entry.command : hostOf(entry.url)) ?? 'server';
  const logger = options.logger;
  const common = {
    name,
    ...(logger ? { logger } : {}),
    ...(entry.headers ? { headers: entry.headers } : {}),
    ...(entry.bearerToken !== undefined ? { bearerToken: entry.bearerToken } : {}),
  };
  switch (type) {
    case 'stdio': {
      const command = entry.command;
      if (command === undefined || command.length === 0) {
        throw new TransportError({
          code: TransportErrorCode.ConfigInvalid,
          message: `MCP server "${name}" is of type "stdio" but has no "command". Add the command that starts it.`,
          context: { server: name },
        });
      }
      const stdioOptions: StdioTransportOptions = {
        command,
        name,
        ...(entry.args ? { args: entry.args } : {}),
        ...(entry.env ? { env: entry.env } : {}),
        ...(entry.cwd !== undefined ? { cwd: entry.cwd } : {}),
        ...(logger ? { logger } : {}),
        ...options.stdio,
      };
      return new DeferredStdioTransport(async () => {
        const { createStdioTransport } = await import('./stdio-transport.js');
        return createStdioTransport(stdioOptions);
      });
    }
    case 'http':
      // Both eras: the SDK Client's version negotiation decides what goes over it.
      return createStreamableHttpTransport({
        url: requireUrl(entry, name, type),
        ...common,
        ...options.http,
      });
    case 'sse':
      return createSseTransport({ url: requireUrl(entry, name, type), ...common });
    case 'ws':
      return createWebSocketTransport({ url: requireUrl(entry, name, type), ...common });
  }
}

function hostOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}

function requireUrl(entry: TransportEntry, name: string, type: TransportType): string {
  const url = entry.url;
  if (url === undefined || url.length === 0) {
    throw new TransportError({
      code: TransportErrorCode.ConfigInvalid,
      message: `MCP server "${name}" is of type "${type}" but has no "url". Add the server's URL.`,
      context: { server: name, type },
    });
  }
  try {
    new URL(url);
  } catch (cause) {
    throw new TransportError({
      code: TransportErrorCode.ConfigInvalid,
      message: `MCP server "${name}" has an invalid "url". Give an absolute URL such as http://localhost:3000/mcp.`,
      context: { server: name, type },
      cause,
    });
  }
  return url;
}

/** The stdio transport as returned by `createTransport`: its process is spawned (and the module loaded) on start. */
class DeferredStdioTransport extends DeferredTransport<StdioTransport> implements StdioTransport {
  onexit?: ((info: StdioExitInfo) => void) | undefined;

  get pid(): number | undefined {
    return this.inner?.pid;
  }

  get exitCode(): number | null {
    return this.inner?.exitCode ?? null;
  }

  get stderr(): StdioTransport['stderr'] {
    return this.inner?.stderr ?? null;
  }

  stderrTail(): string {
    return this.inner?.stderrTail() ?? '';
  }

  protected override attach(inner: StdioTransport): void {
    inner.onexit = (info) => this.onexit?.(info);
  }
}
