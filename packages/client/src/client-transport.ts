/**
 * The seam between the client and @switchboard/transports: builds the transport of one server
 * entry and keeps what error messages need (the tail of a stdio server's stderr, its pid).
 */
import type { Logger } from '@switchboard/core';
import {
  createTransport,
  isStdioTransport,
  resolveTransportType,
  type Transport,
  type TransportType,
} from '@switchboard/transports';
import type { ServerEntry } from './config/server-entry.js';
import type { Redactor } from './redactor.js';
import { type ClientAuthOptions, createServerAuthProvider } from './server-auth.js';

/** A transport ready to connect, with what the client needs to explain failures. */
export interface ClientTransportHandle {
  transport: Transport;
  kind: TransportType;
  /** The last lines the server wrote to stderr (stdio only), redacted. */
  stderrTail(): string[];
  /** Process id of a stdio server while it runs. */
  pid(): number | undefined;
}

/** Options of {@link createClientTransport}. */
export interface ClientTransportOptions {
  name: string;
  /** Already redacting: transports log stderr lines, which may quote secrets. */
  logger: Logger;
  redactor: Redactor;
  /** OAuth of remote servers (token store, sign-in URL opener). */
  auth?: ClientAuthOptions;
}

/** Builds the transport of `entry`: `command` → stdio, `url` → Streamable HTTP (SSE fallback); `type` wins. */
export function createClientTransport(
  entry: ServerEntry,
  options: ClientTransportOptions,
): ClientTransportHandle {
  const kind = resolveTransportType(entry, options.name);
  const authProvider =
    kind === 'http' ? createServerAuthProvider(options.name, entry, options.auth) : undefined;
  const transport = createTransport(entry, {
    name: options.name,
    logger: options.logger,
    ...(authProvider ? { http: { authProvider } } : {}),
  });
  if (!isStdioTransport(transport)) return { transport, kind, stderrTail: () => [], pid: () => undefined };
  return {
    transport,
    kind,
    stderrTail: () =>
      transport
        .stderrTail()
        .split('\n')
        .filter((line) => line.trim().length > 0)
        .map((line) => options.redactor.redact(line)),
    pid: () => transport.pid,
  };
}
