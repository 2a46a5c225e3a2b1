/**
 * Connecting one MCP server, as named steps: the settings (timeouts, redaction, a pin checked
 * before anything starts), the transport of the entry, the request engine on it, starting it (a
 * stdio server is spawned here, once: a missing command fails at once), the era negotiation
 * (`era-negotiation.ts`; a stdio server that exits on the version probe is started once more for
 * `initialize`), all within the connect deadline. A failure leaves nothing running and is
 * explained once: what the server did, its stderr once, and stdout advice only when it really
 * wrote something that is not JSON-RPC.
 */
import type { ClientCapabilities, Implementation, Transport } from '@modelcontextprotocol/client';
import { type Logger, type SwitchboardError, silentLogger } from '@switchboard/core';
import { TransportErrorCode } from '@switchboard/transports';
import { ClientError, ClientErrorCode, describeUrl, type ErrorScene, toClientError } from './client-error.js';
import { type ClientTransportHandle, createClientTransport } from './client-transport.js';
import { isServerEntry, type ServerEntry } from './config/server-entry.js';
import {
  initializeLegacyEra,
  type NegotiatedSession,
  type NegotiationSettings,
  probeModernEra,
} from './era-negotiation.js';
import { withHelperHeaders } from './headers-helper.js';
import type { McpClientOptions } from './mcp-client-options.js';
import { createProtocolTap } from './protocol-message-tap.js';
import { checkProtocolVersion, eraOf } from './protocol-version.js';
import { createRedactingLogger } from './redacting-logger.js';
import { createRedactor, type Redactor } from './redactor.js';
import { RequestEngine } from './request-engine.js';
import { type AnswerServerRequest, createServerRequestAnswers } from './server-request-answers.js';
import { serverSecrets } from './server-secrets.js';

/** The identifier of the tasks extension (SEP-2663). */
const tasksExtension = 'io.modelcontextprotocol/tasks';

const defaultClientInfo: Implementation = { name: 'switchboard', version: '0.0.0' };

/** What every step of one connection reads. */
export interface ConnectSettings {
  name: string;
  logger: Logger;
  redactor: Redactor;
  initializeTimeoutMs: number;
  requestTimeoutMs: number;
  maxTotalTimeoutMs: number | undefined;
  onProgress: McpClientOptions['onProgress'];
  /** How the server is reached, for messages: the command in quotes, or the URL without secrets. */
  target: string;
  /** A transport given by the caller (no entry). */
  custom: boolean;
  pin: string | undefined;
  clientInfo: Implementation;
  capabilities: ClientCapabilities;
}

/** What went wrong on the transport, kept for the messages of later errors. */
export class TransportProblems {
  /** Lines or bodies the server wrote that are not JSON-RPC (stdout advice is given only for these). */
  readonly output: string[] = [];
  /** How the server process ended, when it did. */
  exit: SwitchboardError | undefined;
  /** The last problem of any kind. */
  last: string | undefined;

  record(error: Error, redactor: Redactor): void {
    const message = redactor.redact(error.message);
    this.last = message;
    const code = (error as { code?: unknown }).code;
    if (code === TransportErrorCode.ServerExited) this.exit = error as SwitchboardError;
    else if (
      (error as { context?: { line?: unknown } }).context?.line !== undefined &&
      this.output.length < 5
    ) {
      this.output.push(message);
    }
  }
}

/** Where the connection's events go once the client exists (the engine is made before it). */
export interface ConnectionEvents {
  notification(method: string, params: Record<string, unknown> | undefined): void;
  closed(): void;
}

/** A connected server: its engine, transport and what it said about itself. */
export interface OpenedConnection {
  engine: RequestEngine;
  handle: ClientTransportHandle;
  session: NegotiatedSession;
  problems: TransportProblems;
  /** How the server's requests are answered (the client's handlers). */
  answers: AnswerServerRequest;
  /** Set by the client it becomes (until then notifications are dropped). */
  events: Partial<ConnectionEvents>;
}

/** Step 1: timeouts, redaction, capabilities, the version pin (checked before anything is spawned: a typo costs nothing). */
export function connectSettings(
  name: string,
  source: ServerEntry | Transport,
  options: McpClientOptions,
): ConnectSettings {
  const entry = isServerEntry(source) ? source : undefined;
  const redactor = createRedactor([...(entry ? serverSecrets(entry) : []), ...(options.secrets ?? [])]);
  const pin = options.protocolVersion ?? entry?.protocolVersion;
  if (pin !== undefined) checkProtocolVersion(String(pin), `MCP server "${name}"`);
  return {
    name,
    logger: createRedactingLogger(options.logger ?? silentLogger, redactor),
    redactor,
    initializeTimeoutMs: options.initializeTimeoutMs ?? entry?.timeouts?.connectMs ?? 30_000,
    requestTimeoutMs: options.requestTimeoutMs ?? entry?.timeouts?.callMs ?? 60_000,
    maxTotalTimeoutMs: options.maxTotalTimeoutMs ?? entry?.timeouts?.maxTotalMs,
    onProgress: options.onProgress,
    target: entry ? (entry.command ? `"${entry.command}"` : describeUrl(entry.url)) : 'the given transport',
    custom: entry === undefined,
    pin: pin === undefined ? undefined : String(pin),
    clientInfo: options.clientInfo ?? defaultClientInfo,
    capabilities: clientCapabilities(options),
  };
}

/** The capabilities this client declares: each handler given, and the tasks extension unless turned off. */
function clientCapabilities(options: McpClientOptions): ClientCapabilities {
  const capabilities: ClientCapabilities = {};
  if (options.roots) capabilities.roots = { listChanged: true };
  if (options.sampling) capabilities.sampling = {};
  if (options.elicitation) {
    capabilities.elicitation = {
      form: options.applyElicitationDefaults === false ? {} : { applyDefaults: true },
    };
  }
  if (options.tasks !== false) capabilities.extensions = { [tasksExtension]: {} };
  return capabilities;
}

/** Step 2: the transport of the entry (or the one given); a headersHelper runs at every connect. */
async function transportHandle(
  source: ServerEntry | Transport,
  options: McpClientOptions,
  settings: ConnectSettings,
): Promise<ClientTransportHandle> {
  if (!isServerEntry(source)) {
    return { transport: source, kind: 'http', stderrTail: () => [], pid: () => undefined };
  }
  const entry = await withHelperHeaders(settings.name, source, settings.redactor);
  try {
    return createClientTransport(entry, {
      name: settings.name,
      logger: settings.logger,
      redactor: settings.redactor,
      ...(options.auth ? { auth: options.auth } : {}),
    });
  } catch (error) {
    throw toClientError(error, {
      server: settings.name,
      operation: 'initialize',
      redactor: settings.redactor,
    });
  }
}

/** Step 3: the request engine on a transport, answering the server with the client's handlers. */
function engineOn(
  handle: ClientTransportHandle,
  options: McpClientOptions,
  settings: ConnectSettings,
  answers: AnswerServerRequest,
  problems: TransportProblems,
  events: Partial<ConnectionEvents>,
): RequestEngine {
  return new RequestEngine({
    transport: handle.transport,
    serveRequest: answers,
    onNotification: (method, params) => {
      if (method === 'notifications/message') options.onLog?.(params as never);
      else events.notification?.(method, params);
    },
    onClose: () => events.closed?.(),
    onError: (error) => {
      problems.record(error, settings.redactor);
      settings.logger.debug(
        { server: settings.name },
        `transport: ${settings.redactor.redact(error.message)}`,
      );
    },
    tap: options.onMessage ? createProtocolTap(options.onMessage, settings.redactor) : undefined,
  });
}

/**
 * Steps 2–5: transport, engine, start, negotiation — within the connect deadline. Leaves nothing
 * running on failure (a process that never spawned has nothing to stop).
 */
export async function openConnection(
  source: ServerEntry | Transport,
  options: McpClientOptions,
  settings: ConnectSettings,
): Promise<OpenedConnection> {
  const answers = createServerRequestAnswers(
    settings.name,
    {
      ...(options.elicitation ? { elicitation: options.elicitation } : {}),
      ...(options.sampling ? { sampling: options.sampling } : {}),
      ...(options.roots ? { roots: options.roots } : {}),
    },
    settings.capabilities,
  );
  const events: Partial<ConnectionEvents> = {};
  const problems = new TransportProblems();
  let handle = await transportHandle(source, options, settings);
  let engine = engineOn(handle, options, settings, answers, problems, events);
  let phase =
    settings.pin !== undefined && eraOf(settings.pin) === 'legacy' ? 'initialize' : 'the version probe';
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(connectDeadline), settings.initializeTimeoutMs);
  });
  const negotiation: NegotiationSettings = {
    server: settings.name,
    pin: settings.pin,
    clientInfo: settings.clientInfo,
    capabilities: settings.capabilities,
    stdio: handle.kind === 'stdio' && !settings.custom,
    probeTimeoutMs:
      options.probeTimeoutMs ??
      (handle.kind === 'stdio' ? Math.ceil(settings.initializeTimeoutMs / 2) : settings.initializeTimeoutMs),
    initializeTimeoutMs: settings.initializeTimeoutMs,
  };
  const negotiate = async (): Promise<NegotiatedSession> => {
    await engine.start();
    if (phase === 'initialize') return initializeLegacyEra(engine, negotiation);
    const probed = await probeModernEra(engine, negotiation);
    if (!('restart' in probed)) return probed;
    phase = 'initialize';
    if (probed.restart) {
      // A 2025 server that exits on any request before initialize: once more, for the handshake.
      settings.logger.info(
        { server: settings.name },
        'the server exited on the server/discover probe (a 2025 server that accepts nothing before initialize); starting it again for initialize',
      );
      problems.exit = undefined;
      handle = await transportHandle(source, options, settings);
      engine = engineOn(handle, options, settings, answers, problems, events);
      await engine.start();
    }
    return initializeLegacyEra(engine, negotiation);
  };
  try {
    const session = await Promise.race([negotiate(), deadline]);
    return { engine, handle, session, problems, answers, events };
  } catch (error) {
    const closing = engine.close().catch(() => {});
    if ((error as { code?: unknown } | undefined)?.code !== TransportErrorCode.SpawnFailed) await closing;
    throw explainConnectFailure(error, handle, settings, problems, phase);
  } finally {
    clearTimeout(timer);
  }
}

const connectDeadline = Symbol('connect deadline');

/** The last stderr lines, for a message (once per message): a crash's stack needs more than a few. */
export function formatStderr(lines: string[], most = 5): string {
  const shown = lines.filter((line) => line.trim().length > 0).slice(-most);
  return shown.length > 0 ? ` Its stderr ended with:\n  ${shown.join('\n  ')}` : '';
}

/** Why the connect failed, said once: the deadline, the process's end, or the error as it came. */
function explainConnectFailure(
  error: unknown,
  handle: ClientTransportHandle,
  settings: ConnectSettings,
  problems: TransportProblems,
  phase: string,
): SwitchboardError {
  const stderr = handle.stderrTail();
  const scene: ErrorScene = {
    server: settings.name,
    operation: 'initialize',
    // The stderr goes into this message once, not into the cause's too.
    stderr: [],
    redactor: settings.redactor,
    target: settings.target,
  };
  const output =
    problems.output.length > 0
      ? ` It wrote output that is not JSON-RPC (${problems.output[0]}): a stdio server must write only protocol messages to stdout and send logs to stderr.`
      : '';
  const base = error === connectDeadline ? undefined : toClientError(error, scene);
  if (base?.code === TransportErrorCode.SpawnFailed) return base;
  if (base === undefined || base.code === ClientErrorCode.Timeout) {
    const hint =
      handle.kind === 'stdio'
        ? `Run ${settings.target} by hand to check it is an MCP server speaking stdio, or raise timeouts.connectMs.`
        : `Check ${settings.target} is an MCP endpoint, or raise timeouts.connectMs.`;
    return new ClientError({
      code: ClientErrorCode.Timeout,
      message: settings.redactor.redact(
        `MCP server "${settings.name}" did not answer ${phase === 'initialize' ? 'initialize' : 'the version probe (server/discover)'} within ${settings.initializeTimeoutMs} ms.${output} ${hint}${formatStderr(stderr)}`,
      ),
      context: { server: settings.name, operation: 'initialize', timeoutMs: settings.initializeTimeoutMs },
      ...(base ? { cause: base } : {}),
    });
  }
  if (base.code === ClientErrorCode.ConnectionClosed || base.code === TransportErrorCode.ServerExited) {
    const exit = problems.exit?.context as { exitCode?: unknown; signal?: unknown } | undefined;
    const how =
      typeof exit?.signal === 'string'
        ? `was killed by ${exit.signal}`
        : typeof exit?.exitCode === 'number'
          ? `exited with code ${exit.exitCode}`
          : 'closed the connection';
    return new ClientError({
      code: ClientErrorCode.ConnectionFailed,
      message: settings.redactor.redact(
        `MCP server "${settings.name}" (${settings.target}) ${how} before answering ${phase === 'initialize' ? 'initialize' : 'the version probe (server/discover)'}.${output}${formatStderr(stderr, 15)}`,
      ),
      context: { ...base.context, ...(exit ?? {}) },
      cause: base,
    });
  }
  return base;
}
