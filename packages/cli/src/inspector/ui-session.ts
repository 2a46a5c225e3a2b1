/**
 * The session behind `switchboard ui`: the CLI's configured servers connected once (as every
 * command connects them: the registry store, sign-ins, the approval policy of each server), with
 * everything the page shows kept around them — the protocol log, the calls and the questions they
 * wait on, the selection playground, the metrics history — and the live events that tell the page
 * of each change. The HTTP routes are thin over this; every value that leaves it is redacted.
 */
import {
  createFileTokenStore,
  defaultTokenDirectory,
  type McpConnection,
  type ServerConfig,
  type ServerEntry,
} from '@switchboard/client';
import { type RegisteredTool, SwitchboardError, silentLogger, type ToolUsage } from '@switchboard/core';
import type { CommandContext } from '../cli-command.js';
import { homeOf } from '../cli-home.js';
import { showsLogLevel } from '../cli-log-level.js';
import { cliLogger, connectServers, loadCliConfig } from '../cli-session.js';
import { storePathOf } from '../registry-store-of.js';
import { signInServer } from '../server-sign-in.js';
import type {
  UiAddServerRequest,
  UiCall,
  UiCallRequest,
  UiEvent,
  UiLogEntry,
  UiMetrics,
  UiPrompt,
  UiResources,
  UiSelection,
  UiSelectRequest,
  UiServer,
  UiSignIn,
  UiToolDetail,
  UiToolSummary,
} from '../ui/ui-api.js';
import { createMetricsHistory, type MetricsHistory } from './metrics-history.js';
import { createPendingRequests, type PendingRequests } from './pending-requests.js';
import { createProtocolLog, type ProtocolLog } from './protocol-log.js';
import { createServerQuestions } from './server-questions.js';
import { createUiCalls, type UiCalls } from './ui-calls.js';
import { UiError, UiErrorCode } from './ui-error.js';
import { createUiEventStream, type UiEventStream } from './ui-event-stream.js';
import { createUiRedaction, type UiRedaction } from './ui-redaction.js';
import { createUiSelector, type UiSelector } from './ui-selector.js';
import { toUiServer } from './ui-server-view.js';
import { toUiToolDetail, toUiToolSummary } from './ui-tool-view.js';

/** Options of {@link createUiSession}. */
export interface UiSessionOptions {
  /** The command's context: config discovery (`--config`), home, env (store, embedder, sign-ins). */
  context: CommandContext;
  /** Protocol log entries kept. @default 20000 */
  logCapacity?: number;
  /** How long log entries gather before a live `log` event. @default 50 */
  logBatchMs?: number;
  /** Time between metrics samples (and server state checks). @default 2000 */
  metricsIntervalMs?: number;
  /** Opens an OAuth sign-in URL for the person (the page gets it too). @default none */
  openUrl?: (url: string) => void;
}

/** The session the HTTP routes serve. */
export interface UiSession {
  readonly events: UiEventStream;
  /** What a new live stream starts with: the servers and the questions waiting. */
  initialEvents(): UiEvent[];
  servers(): UiServer[];
  server(name: string): UiServer;
  /** Adds a server from the page (kept when it fails to connect, so it can be signed in or fixed). */
  addServer(request: UiAddServerRequest): Promise<UiServer>;
  /** Removes a server added in the page; answers the servers left. */
  removeServer(name: string): Promise<UiServer[]>;
  connectServer(name: string): Promise<UiServer>;
  reconnectServer(name: string): Promise<UiServer>;
  disconnectServer(name: string): Promise<UiServer>;
  signIn(name: string): Promise<UiSignIn>;
  tools(server: string): UiToolSummary[];
  tool(server: string, tool: string): UiToolDetail;
  resources(server: string): Promise<UiResources>;
  readResource(server: string, uri: string): Promise<unknown>;
  prompts(server: string): Promise<UiPrompt[]>;
  getPrompt(server: string, name: string, args: Record<string, string>): Promise<unknown>;
  readonly calls: Pick<UiCalls, 'get' | 'list' | 'cancel'>;
  startCall(request: UiCallRequest): UiCall;
  readonly pending: Pick<PendingRequests, 'list' | 'answer'>;
  log(filter: { server?: string; since?: number; limit?: number }): UiLogEntry[];
  select(request: UiSelectRequest): Promise<UiSelection>;
  metrics(): UiMetrics;
  /** Masks the session's secrets (error messages on their way out). */
  redact(text: string): string;
  /** Cancels the calls, withdraws the questions, closes the servers. */
  close(): Promise<void>;
}

/** One server the page knows: configured, or added in the page. */
interface ServerRecord {
  entry: ServerConfig;
  origin: UiServer['origin'];
  /** Out of the connection on purpose (disconnected from the page, or disabled in the config). */
  disconnected: boolean;
  /** The failure of the last connect outside the connection. */
  lastError?: UiServer['lastError'];
}

/** Page servers' names: what a config key may be, so a page server could be written to one later. */
const serverName = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** Connects the configured servers and starts the session around them. */
export async function createUiSession(options: UiSessionOptions): Promise<UiSession> {
  const { context } = options;
  const logger = showsLogLevel(context.io.env, 'info') ? cliLogger(context) : silentLogger;

  // Step 1: the servers, as the config has them, and their secrets.
  const config = await loadCliConfig(context);
  const records = new Map<string, ServerRecord>();
  const redaction: UiRedaction = createUiRedaction();
  for (const [name, entry] of Object.entries(config.mcpServers)) {
    records.set(name, { entry, origin: 'config', disconnected: entry.enabled === false });
    redaction.addServer(entry as ServerEntry);
  }

  // Step 2: what the page watches.
  const events = createUiEventStream();
  const log: ProtocolLog = createProtocolLog({
    ...(options.logCapacity === undefined ? {} : { capacity: options.logCapacity }),
    ...(options.logBatchMs === undefined ? {} : { batchMs: options.logBatchMs }),
    redact: redaction.value,
  });
  log.subscribe((entries) => events.publish({ type: 'log', entries }));
  const pending = createPendingRequests(events.publish);
  const questions = createServerQuestions(pending, redaction);
  const calls = createUiCalls({ publish: events.publish, pending, questions, redaction });

  let listReady = false;
  // Step 3: connect, as every command does, with the page answering what servers ask.
  const connection: McpConnection = await connectServers(
    context,
    Object.fromEntries(
      [...records].filter(([, record]) => !record.disconnected).map(([name, record]) => [name, record.entry]),
    ),
    {
      onMessage: (server, event) => {
        log.append(server, event);
      },
      approve: calls.approve,
      elicitation: questions.elicitation(),
      sampling: questions.sampling(),
      onToolsChanged: (server) => {
        events.publish({ type: 'tools-changed', server });
        // Tools can arrive while connectServers is still settling the others (before `connection`
        // and the list below exist): the list is published once it does, in step 5.
        if (listReady) publishServers();
      },
    },
  );

  // Step 4: earlier runs' usage, read once (this run's calls are counted live).
  const storedUsage = await readStoredUsage(context);

  // Step 5: the server list, published whenever it changes (checked on the metrics beat too).
  let lastServers = '';
  const serverView = (
    name: string,
    record: ServerRecord,
    stats = connection.metrics().servers,
    statuses = connection.status(),
  ): UiServer => {
    const inConnection = connection.servers.includes(name);
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
  const servers = () => {
    // One snapshot for the whole list: each computes every server's percentiles.
    const stats = connection.metrics().servers;
    const statuses = connection.status();
    return [...records].map(([name, record]) => serverView(name, record, stats, statuses));
  };
  function publishServers(): void {
    const list = servers();
    const text = JSON.stringify(list);
    if (text === lastServers) return;
    lastServers = text;
    events.publish({ type: 'servers', servers: list });
  }
  const history: MetricsHistory = createMetricsHistory({
    read: () => connection.metrics(),
    ...(options.metricsIntervalMs === undefined ? {} : { intervalMs: options.metricsIntervalMs }),
    onSample: publishServers,
  });
  const unsubscribeCallEnds = events.subscribe((event) => {
    if (event.type === 'call-end') publishServers();
  });
  listReady = true;
  publishServers();

  const selector: UiSelector = createUiSelector({ context, registry: connection.registry, logger });

  // Lookups that name what is missing and what exists.
  const recordOf = (name: string): ServerRecord => {
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
  function toolsOf(server: string): RegisteredTool[] {
    return connection.registry.list().filter((tool) => tool.server === server);
  }
  const toolOf = (server: string, name: string): RegisteredTool => {
    recordOf(server);
    const tools = toolsOf(server);
    const tool = tools.find((candidate) => candidate.originalName === name || candidate.name === name);
    if (!tool) {
      throw new UiError({
        code: UiErrorCode.UnknownTool,
        message: `Server "${server}" has no tool "${name}"${connection.servers.includes(server) ? '' : ' (it is not connected)'}; it has ${tools.length} tool${tools.length === 1 ? '' : 's'}${
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
  };
  const clientOf = (server: string) => {
    recordOf(server);
    const client = connection.servers.includes(server) ? connection.client(server) : undefined;
    if (!client?.connected) {
      throw new UiError({
        code: UiErrorCode.ServerNotConnected,
        message: `Server "${server}" is not connected; connect it first (POST /api/servers/${server}/connect).`,
        context: { server },
      });
    }
    return client;
  };

  // Connecting outside the connection's own supervision: a failure is the server's state, not an API error.
  const failureOf = (error: unknown): UiServer['lastError'] => ({
    code: SwitchboardError.isInstance(error) ? error.code : 'CONNECTION_FAILED',
    message: redaction.text(error instanceof Error ? error.message : String(error)),
    at: new Date().toISOString(),
  });
  const connectServer = async (name: string): Promise<UiServer> => {
    const record = recordOf(name);
    record.disconnected = false;
    try {
      if (connection.servers.includes(name)) await connection.connect(name);
      else {
        delete record.lastError;
        await connection.addServer(name, { ...record.entry, enabled: true } as ServerEntry);
      }
    } catch (error) {
      if (!connection.servers.includes(name)) record.lastError = failureOf(error);
    }
    publishServers();
    return serverView(name, record);
  };

  return {
    events,
    initialEvents: () => [
      { type: 'servers', servers: servers() },
      ...pending.list().map((request): UiEvent => ({ type: 'pending', request })),
    ],
    servers,
    server: (name) => serverView(name, recordOf(name)),
    async addServer(request) {
      if (!serverName.test(request.name)) {
        throw new UiError({
          code: UiErrorCode.BadRequest,
          message: `A server name is 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit; "${request.name}" is not.`,
          context: { server: request.name },
        });
      }
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
      return connectServer(request.name);
    },
    async removeServer(name) {
      const record = recordOf(name);
      if (record.origin !== 'page') {
        throw new UiError({
          code: UiErrorCode.ServerNotRemovable,
          message: `Server "${name}" comes from the config; disconnect it here, or remove it with 'switchboard servers remove ${name}'.`,
          context: { server: name },
        });
      }
      if (connection.servers.includes(name)) await connection.removeServer(name);
      records.delete(name);
      publishServers();
      return servers();
    },
    connectServer,
    async reconnectServer(name) {
      const record = recordOf(name);
      if (!connection.servers.includes(name)) return connectServer(name);
      try {
        await connection.reconnect(name);
      } catch {
        // The connection keeps the failure in the server's status.
      }
      publishServers();
      return serverView(name, record);
    },
    async disconnectServer(name) {
      const record = recordOf(name);
      if (connection.servers.includes(name)) await connection.removeServer(name);
      record.disconnected = true;
      delete record.lastError;
      publishServers();
      return serverView(name, record);
    },
    async signIn(name) {
      const record = recordOf(name);
      if (!record.entry.url) {
        throw new UiError({
          code: UiErrorCode.SignInUnavailable,
          message: `Server "${name}" is not a remote (HTTP) server: only those sign in with OAuth.`,
          context: { server: name },
        });
      }
      return startSignIn(name, record);
    },
    tools: (server) => {
      recordOf(server);
      return toolsOf(server).map(toUiToolSummary);
    },
    tool: (server, name) => toUiToolDetail(toolOf(server, name)),
    async resources(server) {
      const client = clientOf(server);
      if (!client.capabilities?.resources) return { resources: [], templates: [] };
      const [resources, templates] = await Promise.all([
        client.listResources(),
        client.listResourceTemplates(),
      ]);
      return redaction.value({
        resources: resources.map(({ uri, name, title, description, mimeType }) => ({
          uri,
          ...definedFields({ name, title, description, mimeType }),
        })),
        templates: templates.map(({ uriTemplate, name, title, description, mimeType }) => ({
          uriTemplate,
          ...definedFields({ name, title, description, mimeType }),
        })),
      });
    },
    readResource: async (server, uri) => redaction.value(await clientOf(server).readResource(uri)),
    async prompts(server) {
      const client = clientOf(server);
      if (!client.capabilities?.prompts) return [];
      return redaction.value(
        (await client.listPrompts()).map(({ name, title, description, arguments: args }) => ({
          name,
          ...definedFields({ title, description }),
          ...(args
            ? {
                arguments: args.map((arg) => ({
                  name: arg.name,
                  ...definedFields({ description: arg.description, required: arg.required }),
                })),
              }
            : {}),
        })),
      );
    },
    getPrompt: async (server, name, args) => redaction.value(await clientOf(server).getPrompt(name, args)),
    calls,
    startCall: (request) => calls.start(toolOf(request.server, request.tool), request.arguments),
    pending,
    log: (filter) => log.entries(filter),
    select: (request) => selector.select(request),
    metrics() {
      const live = connection.metrics().tools;
      const stored = new Map(storedUsage.map((usage) => [`${usage.server}\u0000${usage.tool}`, usage]));
      const toolCalls: UiMetrics['toolCalls'] = [];
      for (const [server, tools] of Object.entries(live)) {
        for (const [tool, stats] of Object.entries(tools)) {
          const key = `${server}\u0000${tool}`;
          const before = stored.get(key);
          stored.delete(key);
          toolCalls.push({
            server,
            tool,
            calls: stats.calls,
            errors: stats.errors,
            ...(before ? { storedCalls: before.calls } : {}),
          });
        }
      }
      for (const usage of stored.values()) {
        toolCalls.push({
          server: usage.server,
          tool: usage.tool,
          calls: 0,
          errors: 0,
          storedCalls: usage.calls,
        });
      }
      return { series: history.series(), toolCalls };
    },
    redact: redaction.text,
    async close() {
      history.stop();
      unsubscribeCallEnds();
      calls.cancelAll();
      pending.withdrawAll();
      await calls.settled();
      log.flush();
      events.close();
      await selector.close();
      await connection.close();
    },
  };

  /** Starts an OAuth sign-in; answers once the authorization URL is known (or the sign-in is done). */
  function startSignIn(name: string, record: ServerRecord): Promise<UiSignIn> {
    return new Promise<UiSignIn>((resolve, reject) => {
      let answered = false;
      const answer = (signIn: UiSignIn) => {
        if (answered) return;
        answered = true;
        resolve(signIn);
      };
      signInServer({
        name,
        entry: record.entry,
        store: createFileTokenStore({ directory: defaultTokenDirectory(homeOf(context)) }),
        openUrl: (url) => {
          options.openUrl?.(url.href);
          answer({ server: name, authorizationUrl: url.href, state: 'started' });
        },
      })
        .then(async () => {
          answer({ server: name, state: 'signed-in' });
          // The new tokens are used by a fresh connection.
          if (connection.servers.includes(name)) await connection.reconnect(name).catch(() => {});
          else await connectServer(name);
          publishServers();
        })
        .catch((error: unknown) => {
          record.lastError = failureOf(error);
          publishServers();
          if (!answered) {
            answered = true;
            reject(error);
          }
        });
    });
  }
}

/** The config entry of a server added in the page: a URL or a command, nothing else. */
function pageServerEntry(request: UiAddServerRequest): ServerConfig {
  const hasUrl = typeof request.url === 'string' && request.url !== '';
  const hasCommand = typeof request.command === 'string' && request.command !== '';
  if (hasUrl === hasCommand) {
    throw new UiError({
      code: UiErrorCode.BadRequest,
      message: `Server "${request.name}" needs either "url" (a remote server, e.g. a gateway's http://127.0.0.1:8080/mcp) or "command" (a local one), not ${hasUrl ? 'both' : 'neither'}.`,
      context: { server: request.name },
    });
  }
  if (hasUrl) {
    try {
      new URL(request.url as string);
    } catch {
      throw new UiError({
        code: UiErrorCode.BadRequest,
        message: `Server "${request.name}": "url" is not a valid URL; write it in full, e.g. http://127.0.0.1:8080/mcp.`,
        context: { server: request.name },
      });
    }
    return { url: request.url as string, ...(request.headers ? { headers: { ...request.headers } } : {}) };
  }
  return {
    command: request.command as string,
    ...(request.args ? { args: [...request.args] } : {}),
    ...(request.env ? { env: { ...request.env } } : {}),
  };
}

/** The usage the registry store holds from earlier runs; none when the store is off or unreadable. */
async function readStoredUsage(context: CommandContext): Promise<ToolUsage[]> {
  if (context.io.env.SWITCHBOARD_STORE === 'off') return [];
  try {
    const { readUsage } = await import('../read-usage.js');
    return (await readUsage(storePathOf(context))).tools;
  } catch {
    // No driver (better-sqlite3 is optional) or no database: the charts show this run only.
    return [];
  }
}

/** The fields of `fields` that are set. */
function definedFields<T extends Record<string, unknown>>(
  fields: T,
): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}
