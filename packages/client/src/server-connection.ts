/**
 * Supervision of one server — the supervise link of its calls: connects, notices when it dies,
 * respawns it with exponential backoff and jitter, re-initializes an HTTP session the server
 * forgot, retries a call that failed on the connection only when that is safe, and fails fast
 * through a circuit breaker when the server keeps failing. (Each request's own deadline, progress
 * and cancellation are kept by the connection's request engine.)
 */

import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import { type Logger, SwitchboardError } from '@switchboard/core';
import { resolveTransportType } from '@switchboard/transports';
import { computeBackoffDelay, createCircuitBreaker } from './circuit-breaker.js';
import {
  ClientError,
  ClientErrorCode,
  isAuthError,
  isConnectionError,
  isSessionLost,
} from './client-error.js';
import type { ServerEntry } from './config/server-entry.js';
import type { ConnectedMcpClient } from './connected-mcp-client.js';
import { connectMcpClient } from './create-mcp-client.js';
import type { McpClientOptions } from './mcp-client-options.js';
import type { ServerState, ServerStatus } from './server-status.js';
import type { ToolCall } from './tool-call-chain.js';

export type { ServerState, ServerStatus } from './server-status.js';

/** Supervision settings. */
export interface SupervisionOptions {
  /** Respawn (or reconnect) a server that died, in the background. `false` waits for the next use. @default true */
  respawn?: boolean;
  /** First respawn delay; doubles each attempt, plus up to 50 % jitter. @default 3000 */
  baseDelayMs?: number;
  /** Respawn attempts before giving up (the next use tries again). @default 5 */
  maxAttempts?: number;
  /** Consecutive connection failures that open the circuit breaker. @default 5 */
  failureThreshold?: number;
  /** How long an open circuit waits before letting one trial through. @default 30000 */
  cooldownMs?: number;
}

/** Options of {@link createServerConnection}. */
export interface ServerConnectionOptions {
  name: string;
  entry: ServerEntry;
  clientOptions: McpClientOptions;
  logger: Logger;
  supervision: SupervisionOptions;
}

/** What a server connection tells whoever holds its tools. */
export interface ServerConnectionListener {
  /** The server's tool list, after every (re)connect and `list_changed` (the connect waits for the first). */
  tools(tools: Tool[]): void | Promise<void>;
  /** The server is gone for good (gave up respawning). */
  gone(): void;
}

/** One supervised server. */
export interface ServerConnection {
  readonly name: string;
  /** Starts telling `listener` about tools (set once, before the first connect). */
  listen(listener: ServerConnectionListener): void;
  status(): ServerStatus;
  /** The current client, if connected. */
  client(): ConnectedMcpClient | undefined;
  /** Connects now (or returns the current client); rejects with the connection error. */
  ensureConnected(): Promise<ConnectedMcpClient>;
  /**
   * The supervise link: sends the call on the live connection (connecting first if needed),
   * reconnecting and retrying once on a connection failure when `call.retrySafe` (or when the
   * request never ran).
   */
  send(call: ToolCall): Promise<CallToolResult>;
  /** Drops the current session and connects again. */
  reconnect(): Promise<ConnectedMcpClient>;
  close(): Promise<void>;
}

/** Creates the supervisor of one server (not connected yet: call `ensureConnected`). */
export function createServerConnection(options: ServerConnectionOptions): ServerConnection {
  const { name, logger } = options;
  const baseDelayMs = options.supervision.baseDelayMs ?? 3000;
  const maxAttempts = options.supervision.maxAttempts ?? 5;
  const respawn = options.supervision.respawn ?? true;
  const breaker = createCircuitBreaker({
    ...(options.supervision.failureThreshold === undefined
      ? {}
      : { failureThreshold: options.supervision.failureThreshold }),
    ...(options.supervision.cooldownMs === undefined ? {} : { cooldownMs: options.supervision.cooldownMs }),
  });
  const transport = resolveTransportType(options.entry, name);

  let state: ServerState = 'idle';
  let current: ConnectedMcpClient | undefined;
  let pending: Promise<ConnectedMcpClient> | undefined;
  let lastError: ServerStatus['lastError'];
  let respawns = 0;
  let attempts = 0;
  let respawnTimer: NodeJS.Timeout | undefined;
  let releaseRespawn: ((client: Promise<ConnectedMcpClient>) => void) | undefined;
  let toolCount = 0;
  let closed = false;
  let hadSession = false;
  let listener: ServerConnectionListener = { tools: () => {}, gone: () => {} };

  const fail = (error: SwitchboardError): void => {
    lastError = { code: error.code, message: error.message, at: new Date().toISOString() };
    state = isAuthError(error) ? 'needs-auth' : 'failed';
  };

  const connectOnce = async (): Promise<ConnectedMcpClient> => {
    state = 'connecting';
    let client: ConnectedMcpClient;
    try {
      client = await connectMcpClient(name, options.entry, options.clientOptions);
    } catch (error) {
      const failure = asError(error, name);
      if (isConnectionError(failure) || failure.code === ClientErrorCode.Timeout) breaker.recordFailure();
      fail(failure);
      throw failure;
    }
    if (closed) {
      await client.close();
      throw closedError(name);
    }
    breaker.recordSuccess();
    attempts = 0;
    current = client;
    state = 'connected';
    lastError = undefined;
    if (hadSession) respawns++;
    hadSession = true;
    client.onToolsChanged((tools) => {
      toolCount = tools.length;
      Promise.resolve(listener.tools(tools)).catch((error: unknown) =>
        logger.warn(
          { server: name },
          `applying the changed tool list failed: ${asError(error, name).message}`,
        ),
      );
    });
    client.onClose((error) => {
      if (current !== client) return;
      current = undefined;
      breaker.recordFailure();
      fail(error);
      if (!closed && respawn) scheduleRespawn();
    });
    try {
      const tools = await client.listTools();
      toolCount = tools.length;
      // Awaited: the tools are reviewed (trust) and registered before the connect resolves.
      await listener.tools(tools);
    } catch (error) {
      // A server that connects but cannot list tools is still usable for resources and prompts.
      logger.warn({ server: name }, `listing tools failed: ${asError(error, name).message}`);
    }
    return client;
  };

  const connect = (): Promise<ConnectedMcpClient> => {
    if (!pending) {
      pending = connectOnce().finally(() => {
        pending = undefined;
      });
    }
    return pending;
  };

  const scheduleRespawn = (): void => {
    if (respawnTimer || closed) return;
    attempts++;
    if (attempts > maxAttempts) {
      logger.error({ server: name, attempts: maxAttempts }, 'giving up respawning; the next use tries again');
      attempts = 0;
      toolCount = 0;
      listener.gone();
      return;
    }
    const delay = computeBackoffDelay(attempts, baseDelayMs);
    logger.warn({ server: name, attempt: attempts, delayMs: delay }, 'server died; respawning');
    // Callers arriving meanwhile wait for this attempt instead of starting their own.
    pending = new Promise<ConnectedMcpClient>((resolve) => {
      releaseRespawn = resolve;
    });
    const release = releaseRespawn as (client: Promise<ConnectedMcpClient>) => void;
    const waiting = pending;
    state = 'connecting';
    respawnTimer = setTimeout(() => {
      respawnTimer = undefined;
      releaseRespawn = undefined;
      const attempt = connectOnce();
      release(attempt);
      attempt.then(
        () => {
          if (pending === waiting) pending = undefined;
        },
        () => {
          if (pending === waiting) pending = undefined;
          scheduleRespawn();
        },
      );
    }, delay);
    waiting.catch(() => {});
  };

  const ensureConnected = async (): Promise<ConnectedMcpClient> => {
    if (closed) throw closedError(name);
    if (current?.connected) return current;
    if (pending) return pending;
    if (!breaker.allow()) {
      const retryAt = breaker.retryAt === undefined ? 'soon' : new Date(breaker.retryAt).toISOString();
      throw new ClientError({
        code: ClientErrorCode.CircuitOpen,
        message: `MCP server "${name}" failed ${breaker.consecutiveFailures} times in a row; calls fail fast until ${retryAt}. Last error: ${lastError?.message ?? 'unknown'}`,
        context: { server: name, retryAt, lastError: lastError?.code },
      });
    }
    return connect();
  };

  const reconnect = async (): Promise<ConnectedMcpClient> => {
    const previous = current;
    current = undefined;
    if (previous) await previous.close();
    return ensureConnected();
  };

  const recover = async (
    error: unknown,
    client: ConnectedMcpClient,
    call: ToolCall,
  ): Promise<CallToolResult> => {
    if (!isConnectionError(error) || closed) throw error;
    const failure = error;
    const tool = call.tool;
    // The server never ran a request it rejected for an unknown session: re-initialize and retry.
    const neverRan = isSessionLost(failure);
    if (neverRan) {
      logger.info({ server: name }, 'session lost; re-initializing');
      if (current === client) {
        current = undefined;
        await client.close();
      }
    }
    if (!neverRan && !call.retrySafe) {
      throw new ClientError({
        code: failure.code,
        message: `${failure.message} The call was not retried: tool "${tool}" is not annotated read-only or idempotent, so it may have run already. Check its effect before calling it again.`,
        context: { ...failure.context, retried: false },
        cause: failure,
      });
    }
    if (call.options.signal?.aborted) throw error;
    logger.info({ server: name, tool }, 'retrying once after reconnecting');
    const fresh = await ensureConnected();
    return fresh.sendCall(call);
  };

  return {
    name,
    listen(next) {
      listener = next;
    },
    status() {
      const kind = current?.transportKind;
      const status: ServerStatus = {
        state,
        // The connected client knows better (a URL entry may have fallen back to legacy SSE).
        transport: kind === 'sse' ? 'sse' : transport,
        circuit: breaker.state,
        consecutiveFailures: breaker.consecutiveFailures,
        respawns,
        toolCount,
      };
      if (lastError) status.lastError = lastError;
      if (breaker.retryAt !== undefined && breaker.state === 'open') {
        status.circuitRetryAt = new Date(breaker.retryAt).toISOString();
      }
      const info = current?.serverInfo;
      if (info) status.serverInfo = { name: info.name, version: info.version };
      if (current) status.era = current.era;
      if (current?.protocolVersion) status.protocolVersion = current.protocolVersion;
      return status;
    },
    client: () => current,
    ensureConnected,
    reconnect,
    send(call) {
      // Hot path: a live session is called directly, without an extra async hop.
      const live = current;
      if (live?.connected && !closed) {
        return live.sendCall(call).catch((error: unknown) => recover(error, live, call));
      }
      return ensureConnected().then((client) =>
        client.sendCall(call).catch((error: unknown) => recover(error, client, call)),
      );
    },
    async close() {
      closed = true;
      if (respawnTimer) clearTimeout(respawnTimer);
      respawnTimer = undefined;
      releaseRespawn?.(Promise.reject(closedError(name)));
      releaseRespawn = undefined;
      const client = current;
      current = undefined;
      if (client) await client.close();
      // A connect in flight closes its own client when it sees `closed`.
      await pending?.catch(() => {});
      state = 'idle';
      toolCount = 0;
    },
  };
}

function asError(error: unknown, server: string): SwitchboardError {
  if (SwitchboardError.isInstance(error)) return error;
  return new ClientError({
    code: ClientErrorCode.ConnectionFailed,
    message: `MCP server "${server}": ${error instanceof Error ? error.message : String(error)}`,
    context: { server },
    cause: error,
  });
}

function closedError(server: string): SwitchboardError {
  return new ClientError({
    code: ClientErrorCode.ClientClosed,
    message: `MCP server "${server}" was closed; create a new connection to use it again.`,
    context: { server },
  });
}
