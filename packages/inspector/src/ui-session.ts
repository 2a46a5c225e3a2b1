/**
 * The session behind the inspector: the host's servers connected once (as the host connects them:
 * its store, its sign-ins), with everything the page shows kept around them — the protocol log,
 * the calls and the questions they wait on, the selection playground, the metrics history — and
 * the live events that tell the page of each change. The HTTP routes are thin over this; every
 * value that leaves it is redacted. Built in named steps, each from the file that holds one part:
 * the servers (session-servers.ts), the calls (ui-calls.ts), sign-ins (session-sign-in.ts),
 * resources and prompts (session-catalog.ts), metrics (session-metrics.ts), tool trust
 * (session-trust.ts).
 */
import { type ConnectMcpOptions, connectMcp, type McpConnection, type McpServers } from '@switchboard/client';
import { type Logger, silentLogger, type ToolUsage } from '@switchboard/core';
import type { Embedder } from '@switchboard/tool-selection';
import type { InspectorHost } from './inspector-host.js';
import { createMetricsHistory, type MetricsHistory } from './metrics-history.js';
import { createPendingRequests, type PendingRequests } from './pending-requests.js';
import { createProtocolLog, type ProtocolLog } from './protocol-log.js';
import { createServerQuestions } from './server-questions.js';
import { createSessionCatalog, type SessionCatalog } from './session-catalog.js';
import { readSessionMetrics } from './session-metrics.js';
import { createSessionServers, type SessionServers } from './session-servers.js';
import { startSignIn } from './session-sign-in.js';
import { createSessionTrust, type SessionTrust } from './session-trust.js';
import type {
  UiAddServerRequest,
  UiAppRequest,
  UiAppView,
  UiCall,
  UiCallRequest,
  UiEvent,
  UiLogEntry,
  UiMetrics,
  UiSelection,
  UiSelectRequest,
  UiServer,
  UiServerCard,
  UiSignIn,
  UiToolDetail,
  UiToolSummary,
} from './ui-api.js';
import { createUiApps, type UiApps } from './ui-apps.js';
import { createUiCalls, type UiCalls } from './ui-calls.js';
import { createUiEventStream, type UiEventStream } from './ui-event-stream.js';
import { createUiRedaction, type UiRedaction } from './ui-redaction.js';
import { createUiSelector, type UiSelector } from './ui-selector.js';
import { readUiServerCard } from './ui-server-card.js';
import { toUiToolDetail, toUiToolSummary } from './ui-tool-view.js';

/** Options of {@link createUiSession}. */
export interface UiSessionOptions {
  /** The program running the inspector: its servers and how to reach them. */
  host: InspectorHost;
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
export interface UiSession extends SessionCatalog {
  readonly events: UiEventStream;
  /** What a new live stream starts with: the servers and the questions waiting. */
  initialEvents(): UiEvent[];
  servers(): UiServer[];
  server(name: string): UiServer;
  /** The server's Server Card, read from the server itself (`ui-server-card.ts`). */
  serverCard(name: string): Promise<UiServerCard>;
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
  readonly calls: Pick<UiCalls, 'get' | 'list' | 'cancel'>;
  startCall(request: UiCallRequest): UiCall;
  /** The MCP App of an ended call, to render (`ui-apps.ts`). */
  openApp(callId: string): Promise<UiAppView>;
  /** Answers a request the app of a view sent through the page. */
  appRequest(viewId: string, request: UiAppRequest): Promise<unknown>;
  closeApp(viewId: string): void;
  /** Where the app views are served from, and what the sandbox serves (the HTTP server binds them). */
  readonly apps: Pick<UiApps, 'bindSandbox' | 'document'>;
  readonly pending: Pick<PendingRequests, 'list' | 'answer'>;
  log(filter: { server?: string; since?: number; limit?: number }): UiLogEntry[];
  select(request: UiSelectRequest): Promise<UiSelection>;
  metrics(): UiMetrics;
  /** Tool trust: what is held back from the model, and the decisions (`session-trust.ts`). */
  readonly trust: Pick<SessionTrust, 'reviews' | 'approve' | 'reject'>;
  /** Masks the session's secrets (error messages on their way out). */
  redact(text: string): string;
  /** Cancels the calls, withdraws the questions, closes the servers. */
  close(): Promise<void>;
}

/** What the page watches while servers run: the log, the questions servers ask, the calls. */
interface SessionWatch {
  events: UiEventStream;
  log: ProtocolLog;
  pending: PendingRequests;
  questions: ReturnType<typeof createServerQuestions>;
  calls: UiCalls;
  apps: UiApps;
}

/** Connects the host's servers and starts the session around them. */
export async function createUiSession(options: UiSessionOptions): Promise<UiSession> {
  const { host } = options;
  const logger = host.logger ?? silentLogger;

  // Step 1: the servers, as the host has them, and their secrets.
  const redaction: UiRedaction = createUiRedaction();
  const events = createUiEventStream();
  const servers = createSessionServers({ configured: host.servers, redaction, publish: events.publish });

  // Step 2: what the page watches.
  let connection: McpConnection | undefined;
  const watch = watchSession(options, events, redaction, () => {
    if (connection === undefined) throw new Error('the servers are not connected yet');
    return connection;
  });

  // Step 3: connect, as the host connects, with the page answering what servers ask.
  connection = await connectServers(host, servers, watch);

  // Step 4: earlier runs' usage, read once (this run's calls are counted live).
  const storedUsage = await readStoredUsage(host);

  // Step 5: the server list, published whenever it changes (checked on the metrics beat too).
  servers.attach(connection);
  const history: MetricsHistory = createMetricsHistory({
    read: () => connection.metrics(),
    ...(options.metricsIntervalMs === undefined ? {} : { intervalMs: options.metricsIntervalMs }),
    onSample: servers.publish,
  });
  const unsubscribeCallEnds = events.subscribe((event) => {
    if (event.type === 'call-end') servers.publish();
  });

  // Step 6: the selection playground over the connected tools (it loads at its first query).
  const selector: UiSelector = createUiSelector({
    registry: connection.registry,
    logger,
    cwd: host.cwd ?? process.cwd(),
    embedder: () => (host.embedder ?? defaultEmbedder)(logger),
  });

  // Step 7: tool trust, reviewed in the page.
  const trust = createSessionTrust(connection, redaction, events.publish);

  const { log, pending, calls, apps } = watch;
  return {
    ...createSessionCatalog(servers, redaction),
    events,
    initialEvents: () => [
      { type: 'servers', servers: servers.list() },
      ...pending.list().map((request): UiEvent => ({ type: 'pending', request })),
    ],
    servers: servers.list,
    server: servers.view,
    serverCard: (name) => readUiServerCard(servers.recordOf(name).entry, redaction.text),
    addServer: servers.add,
    removeServer: servers.remove,
    connectServer: servers.connect,
    reconnectServer: servers.reconnect,
    disconnectServer: servers.disconnect,
    signIn: async (name) =>
      startSignIn(name, {
        servers,
        connection,
        signIn: host.signIn?.bind(host),
        ...(options.openUrl ? { openUrl: options.openUrl } : {}),
      }),
    tools: (server) => {
      servers.recordOf(server);
      return servers.toolsOf(server).map(toUiToolSummary);
    },
    tool: (server, name) => toUiToolDetail(servers.toolOf(server, name)),
    calls,
    startCall: (request) => calls.start(servers.toolOf(request.server, request.tool), request.arguments),
    openApp: (callId) => apps.open(calls.get(callId)),
    appRequest: (viewId, request) => apps.request(viewId, request),
    closeApp: (viewId) => apps.close(viewId),
    apps,
    pending,
    log: (filter) => log.entries(filter),
    select: (request) => selector.select(request),
    metrics: () => readSessionMetrics({ connection, history, storedUsage }),
    trust,
    redact: redaction.text,
    async close() {
      history.stop();
      trust.close();
      unsubscribeCallEnds();
      apps.closeAll();
      calls.cancelAll();
      pending.withdrawAll();
      await calls.settled();
      log.flush();
      events.close();
      await selector.close();
      await connection.close();
    },
  };
}

/** The protocol log, the questions servers ask and the page's calls, each publishing its events. */
function watchSession(
  options: UiSessionOptions,
  events: UiEventStream,
  redaction: UiRedaction,
  connection: () => McpConnection,
): SessionWatch {
  const log: ProtocolLog = createProtocolLog({
    ...(options.logCapacity === undefined ? {} : { capacity: options.logCapacity }),
    ...(options.logBatchMs === undefined ? {} : { batchMs: options.logBatchMs }),
    redact: redaction.value,
  });
  log.subscribe((entries) => events.publish({ type: 'log', entries }));
  const pending = createPendingRequests(events.publish);
  const questions = createServerQuestions(pending, redaction);
  const calls = createUiCalls({ publish: events.publish, pending, questions, redaction });
  const apps = createUiApps({ connection, calls, log, redaction });
  return { events, log, pending, questions, calls, apps };
}

/** Connects the servers not disconnected, through the host, with the page's handlers. */
function connectServers(
  host: InspectorHost,
  servers: SessionServers,
  watch: SessionWatch,
): Promise<McpConnection> {
  const handlers: ConnectMcpOptions = {
    onMessage: (server, event) => {
      watch.log.append(server, event);
    },
    approve: watch.calls.approve,
    elicitation: watch.questions.elicitation(),
    sampling: watch.questions.sampling(),
    onToolsChanged: (server) => {
      watch.events.publish({ type: 'tools-changed', server });
      // Tools can arrive while the servers are still connecting (before the list exists): the
      // list is published once the connection is attached, in step 5; until then this does nothing.
      servers.publish();
    },
  };
  const connect: NonNullable<InspectorHost['connect']> =
    host.connect?.bind(host) ??
    ((entries, options) => connectMcp(entries as McpServers, { onError: 'skip', ...options }));
  return connect(servers.initial(), handlers);
}

/** The usage the host keeps from earlier runs; none when it keeps none or cannot read it. */
async function readStoredUsage(host: InspectorHost): Promise<ToolUsage[]> {
  try {
    return (await host.storedUsage?.()) ?? [];
  } catch {
    // No store or no driver: the charts show this run only.
    return [];
  }
}

/** Tool selection's shipped offline model: the page never downloads anything. */
async function defaultEmbedder(_logger: Logger): Promise<Embedder> {
  const { createOfflineEmbedder } = await import('@switchboard/tool-selection');
  return createOfflineEmbedder();
}
