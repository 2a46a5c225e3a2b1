/**
 * The servers the page knows — the configured ones and those added in the page — kept beside the
 * connection. The connection forgets a server it does not run (disconnected from the page, disabled
 * in the config, failed on its first connect); the page still lists it, with where it came from
 * and its last failure, so that it can be connected, signed in to or removed. Every change is
 * published as one `servers` event, only when the list the page would see changed.
 */
import type { McpClient, McpConnection, ServerConfig, ServerEntry } from '@switchboard/client';
import { type RegisteredTool, SwitchboardError } from '@switchboard/core';
import { checkPageServerName, pageServerEntry } from './page-server-entry.js';
import type { UiAddServerRequest, UiEvent, UiServer } from './ui-api.js';
import { UiError, UiErrorCode } from './ui-error.js';
import type { UiRedaction } from './ui-redaction.js';
import { toUiServer } from './ui-server-view.js';

/** What the page keeps of one server, connected or not. */
export interface SessionServer {
  entry: ServerConfig;
  origin: UiServer['origin'];
  /** Out of the connection on purpose (disconnected from the page, or disabled in the config). */
  disconnected: boolean;
  /** The failure of the last connect outside the connection. */
  lastError?: UiServer['lastError'];
}

/** Options of {@link createSessionServers}. */
export interface SessionServersOptions {
  /** The configured servers. */
  configured: Readonly<Record<string, ServerConfig>>;
  redaction: UiRedaction;
  publish(event: UiEvent): void;
}

/** The page's servers and what is done to them. */
export interface SessionServers {
  /** The entries the connection starts with: every server not disconnected. */
  initial(): Record<string, ServerConfig>;
  /** Hands over the connection once it is open, and publishes the first list. */
  attach(connection: McpConnection): void;
  list(): UiServer[];
  view(name: string): UiServer;
  /** Publishes the list if it changed since the last time (nothing before `attach`). */
  publish(): void;
  recordOf(name: string): SessionServer;
  toolsOf(server: string): RegisteredTool[];
  toolOf(server: string, name: string): RegisteredTool;
  /** The connected client of a server; throws `SERVER_NOT_CONNECTED` otherwise. */
  clientOf(server: string): McpClient;
  isConnected(name: string): boolean;
  /** A failure outside the connection's supervision, as the server's state shows it. */
  failureOf(error: unknown): UiServer['lastError'];
  add(request: UiAddServerRequest): Promise<UiServer>;
  remove(name: string): Promise<UiServer[]>;
  connect(name: string): Promise<UiServer>;
  reconnect(name: string): Promise<UiServer>;
  disconnect(name: string): Promise<UiServer>;
}

/** Creates the page's servers from the configured ones (their secrets go to the redaction). */
export function createSessionServers(options: SessionServersOptions): SessionServers {
  const { redaction } = options;
  const records = new Map<string, SessionServer>();
  for (const [name, entry] of Object.entries(options.configured)) {
    records.set(name, { entry, origin: 'config', disconnected: entry.enabled === false });
    redaction.addServer(entry as ServerEntry);
  }
  let connection: McpConnection | undefined;
  let lastPublished = '';

  const opened = (): McpConnection => {
    if (connection === undefined) throw new Error('session servers: used before the connection was attached');
    return connection;
  };
  const isConnected = (name: string) => connection?.servers.includes(name) ?? false;

  const recordOf = (name: string): SessionServer => {
    const record = records.get(name);
    if (!record) {
      throw new UiError({
        code: UiErrorCode.UnknownServer,
        message: `No server "${name}" in this session; known: ${[...records.keys()].join(', ') || 'none'}. Add it from the Servers page or to the config.`,
        context: { server: name },
      });
    }
    return record;
  };
  const toolsOf = (server: string): RegisteredTool[] =>
    opened()
      .registry.list()
      .filter((tool) => tool.server === server);

  const view = (
    name: string,
    record: SessionServer,
    stats = opened().metrics().servers,
    statuses = opened().status(),
  ): UiServer => {
    const inConnection = isConnected(name);
    const status = inConnection ? statuses[name] : undefined;
    return toUiServer({
      name,
      origin: record.origin,
      entry: record.entry,
      ...(status ? { status } : {}),
      disconnected: record.disconnected,
      ...(record.lastError ? { lastError: record.lastError } : {}),
      ...(stats[name] ? { stats: stats[name] } : {}),
      tools: inConnection ? toolsOf(name) : [],
      redact: redaction.text,
    });
  };
  const list = (): UiServer[] => {
    // One snapshot for the whole list: each computes every server's percentiles.
    const stats = opened().metrics().servers;
    const statuses = opened().status();
    return [...records].map(([name, record]) => view(name, record, stats, statuses));
  };
  const publish = (): void => {
    if (connection === undefined) return;
    const servers = list();
    const text = JSON.stringify(servers);
    if (text === lastPublished) return;
    lastPublished = text;
    options.publish({ type: 'servers', servers });
  };

  // Connecting outside the connection's own supervision: a failure is the server's state, not an API error.
  const failureOf = (error: unknown): UiServer['lastError'] => ({
    code: SwitchboardError.isInstance(error) ? error.code : 'CONNECTION_FAILED',
    message: redaction.text(error instanceof Error ? error.message : String(error)),
    at: new Date().toISOString(),
  });
  const connect = async (name: string): Promise<UiServer> => {
    const record = recordOf(name);
    record.disconnected = false;
    try {
      if (isConnected(name)) await opened().connect(name);
      else {
        delete record.lastError;
        await opened().addServer(name, { ...record.entry, enabled: true } as ServerEntry);
      }
    } catch (error) {
      if (!isConnected(name)) record.lastError = failureOf(error);
    }
    publish();
    return view(name, record);
  };

  return {
    initial: () =>
      Object.fromEntries(
        [...records]
          .filter(([, record]) => !record.disconnected)
          .map(([name, record]) => [name, record.entry]),
      ),
    attach(opening) {
      connection = opening;
      publish();
    },
    list,
    view: (name) => view(name, recordOf(name)),
    publish,
    recordOf,
    toolsOf,
    toolOf(server, name) {
      recordOf(server);
      const tools = toolsOf(server);
      const tool = tools.find((candidate) => candidate.originalName === name || candidate.name === name);
      if (!tool) {
        throw new UiError({
          code: UiErrorCode.UnknownTool,
          message: `Server "${server}" has no tool "${name}"${isConnected(server) ? '' : ' (it is not connected)'}; it has ${tools.length} tool${tools.length === 1 ? '' : 's'}${
            tools.length
              ? `: ${tools
                  .slice(0, 10)
                  .map((candidate) => candidate.originalName)
                  .join(', ')}${tools.length > 10 ? ', …' : ''}`
              : ''
          }.`,
          context: { server, tool: name },
        });
      }
      return tool;
    },
    clientOf(server) {
      recordOf(server);
      const client = isConnected(server) ? opened().client(server) : undefined;
      if (!client?.connected) {
        throw new UiError({
          code: UiErrorCode.ServerNotConnected,
          message: `Server "${server}" is not connected; connect it first (POST /api/servers/${server}/connect).`,
          context: { server },
        });
      }
      return client;
    },
    isConnected,
    failureOf,
    async add(request) {
      checkPageServerName(request.name);
      if (records.has(request.name)) {
        throw new UiError({
          code: UiErrorCode.ServerExists,
          message: `A server "${request.name}" is already in this session; pick another name, or remove that one first.`,
          context: { server: request.name },
        });
      }
      const entry = pageServerEntry(request);
      redaction.addServer(entry as ServerEntry);
      records.set(request.name, { entry, origin: 'page', disconnected: false });
      return connect(request.name);
    },
    async remove(name) {
      const record = recordOf(name);
      if (record.origin !== 'page') {
        throw new UiError({
          code: UiErrorCode.ServerNotRemovable,
          message: `Server "${name}" comes from the config; disconnect it here, or remove it with 'switchboard servers remove ${name}'.`,
          context: { server: name },
        });
      }
      if (isConnected(name)) await opened().removeServer(name);
      records.delete(name);
      publish();
      return list();
    },
    connect,
    async reconnect(name) {
      const record = recordOf(name);
      if (!isConnected(name)) return connect(name);
      try {
        await opened().reconnect(name);
      } catch {
        // The connection keeps the failure in the server's status.
      }
      publish();
      return view(name, record);
    },
    async disconnect(name) {
      const record = recordOf(name);
      if (isConnected(name)) await opened().removeServer(name);
      record.disconnected = true;
      delete record.lastError;
      publish();
      return view(name, record);
    },
  };
}
