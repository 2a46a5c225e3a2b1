/**
 * The seam between the client and the transports: builds the transport of one server entry and
 * keeps what error messages need (the tail of a stdio server's stderr). Everything transport
 * specific lives behind this one function so the client's supervision logic does not care how
 * bytes move.
 */

import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Logger } from '@switchboard/core';
import type { Redactor } from './redactor.js';
import { resolveTransportKind, type ServerEntry } from './server-entry.js';

/** A transport ready to connect, with what the client needs to explain failures. */
export interface ClientTransportHandle {
  transport: Transport;
  kind: 'stdio' | 'http' | 'sse' | 'ws';
  /** The last lines the server wrote to stderr (stdio only), already redacted. */
  stderrTail(): string[];
  /** Process id of a stdio server while it runs. */
  pid?: () => number | undefined;
  /** The transport to try instead when the first one is refused with a 4xx (Streamable HTTP → SSE). */
  fallback?: () => ClientTransportHandle;
}

/** Options of {@link createClientTransport}. */
export interface ClientTransportOptions {
  name: string;
  logger: Logger;
  redactor: Redactor;
  /** Lines of stderr kept for error messages. @default 20 */
  stderrLines?: number;
}

/** Builds the transport of `entry`: `command` → stdio, `url` → Streamable HTTP (SSE fallback); `type` wins. */
export function createClientTransport(
  entry: ServerEntry,
  options: ClientTransportOptions,
): ClientTransportHandle {
  const kind = resolveTransportKind(entry);
  if (kind === 'stdio') return createStdio(entry, options);
  if (kind === 'ws') {
    throw new TypeError(`WebSocket transport for server "${options.name}" needs @switchboard/transports`);
  }
  const url = new URL(entry.url ?? '');
  const requestInit = entry.headers ? { headers: { ...entry.headers } } : undefined;
  const sse = (): ClientTransportHandle => ({
    transport: new SSEClientTransport(url, requestInit ? { requestInit } : {}),
    kind: 'sse',
    stderrTail: () => [],
  });
  if (kind === 'sse') return sse();
  const handle: ClientTransportHandle = {
    transport: new StreamableHTTPClientTransport(url, requestInit ? { requestInit } : {}),
    kind: 'http',
    stderrTail: () => [],
  };
  // Only an unforced `url` falls back: `type: 'http'` means the user knows the server speaks it.
  if (entry.type === undefined) handle.fallback = sse;
  return handle;
}

function createStdio(entry: ServerEntry, options: ClientTransportOptions): ClientTransportHandle {
  const keep = options.stderrLines ?? 20;
  const tail: string[] = [];
  const transport = new StdioClientTransport({
    command: entry.command ?? '',
    args: entry.args ?? [],
    env: { ...getDefaultEnvironment(), ...(entry.env ?? {}) },
    ...(entry.cwd ? { cwd: entry.cwd } : {}),
    stderr: 'pipe',
  });
  let partial = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    for (const raw of lines) {
      const line = options.redactor.redact(raw.replace(/\r$/, ''));
      if (line.length === 0) continue;
      tail.push(line);
      if (tail.length > keep) tail.shift();
      options.logger.debug({ server: options.name, stream: 'stderr' }, line);
    }
  });
  return {
    transport,
    kind: 'stdio',
    pid: () => transport.pid ?? undefined,
    stderrTail: () => (partial ? [...tail, options.redactor.redact(partial)] : [...tail]),
  };
}
