/**
 * `createMcpClient`: runs the connect steps of one server (`connect-steps.ts`: transport, request
 * engine, era negotiation — modern first, then the 2025 `initialize`), then hands the connection to
 * its façade (`connected-mcp-client.ts`) with its telemetry, and opens its change streams.
 */
import type { Transport } from '@modelcontextprotocol/client';
import { loadOpenTelemetry, networkTransportOf, silentLogger } from '@switchboard/core';
import type { ClientTransportHandle } from './client-transport.js';
import { isServerEntry, type ServerEntry } from './config/server-entry.js';
import { type ConnectSettings, connectSettings, openConnection } from './connect-steps.js';
import { ConnectedMcpClient } from './connected-mcp-client.js';
import type { NegotiatedSession } from './era-negotiation.js';
import type { McpClient } from './mcp-client.js';
import type { McpClientOptions } from './mcp-client-options.js';
import { needsServerCard, resolveEntryFromCard } from './server-card.js';
import type { OpenTelemetryApi } from './telemetry/open-telemetry-api.js';
import type { ConnectionFacts } from './telemetry/request-telemetry.js';
import { createRequestTelemetry } from './telemetry/request-tracing.js';

/** Connects to one MCP server (a config entry or a ready SDK transport), negotiating the era. */
export async function createMcpClient(
  name: string,
  source: ServerEntry | Transport,
  options: McpClientOptions = {},
): Promise<McpClient> {
  return connectMcpClient(name, source, options);
}

/** {@link createMcpClient}, typed as the connection's class (its send link is what supervision calls). */
export async function connectMcpClient(
  name: string,
  source: ServerEntry | Transport,
  options: McpClientOptions = {},
): Promise<ConnectedMcpClient> {
  // Step 0: a site's URL alone gets the endpoint (and version) its Server Card declares.
  if (isServerEntry(source) && needsServerCard(source)) {
    source = await resolveEntryFromCard(name, source, { logger: options.logger ?? silentLogger });
  }
  const settings = connectSettings(name, source, options);
  // Loaded while connecting (once per process; undefined when not installed or not wanted).
  const openTelemetry = options.telemetry === false ? undefined : loadOpenTelemetry<OpenTelemetryApi>();
  const opened = await openConnection(source, options, settings);
  const telemetry = createRequestTelemetry(
    await openTelemetry,
    options.telemetry,
    connectionFacts(source, opened.handle, opened.session, settings),
  );
  const client = new ConnectedMcpClient({
    opened,
    settings,
    options,
    telemetry,
  });
  await client.listenForChanges();
  settings.logger.info(
    { server: name, transport: opened.handle.kind, era: client.era, protocolVersion: client.protocolVersion },
    'connected',
  );
  return client;
}

/** What a request's span says about the connection (read once connected: the negotiated version). */
function connectionFacts(
  source: ServerEntry | Transport,
  handle: ClientTransportHandle,
  session: NegotiatedSession,
  settings: ConnectSettings,
): ConnectionFacts {
  const url = isServerEntry(source) && handle.kind !== 'stdio' ? parseUrl(source.url) : undefined;
  return {
    protocolVersion: session.protocolVersion,
    networkTransport: settings.custom ? undefined : networkTransportOf(handle.kind),
    ...(url === undefined
      ? {}
      : {
          serverAddress: url.hostname,
          serverPort: Number(url.port) || (url.protocol === 'https:' || url.protocol === 'wss:' ? 443 : 80),
        }),
    sessionId: () => handle.transport.sessionId,
    redact: (text) => settings.redactor.redact(text),
  };
}

function parseUrl(url: string | undefined): URL | undefined {
  if (url === undefined) return undefined;
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}
