/**
 * One connected MCP server, in either era: `createMcpClient` runs the connect steps
 * (`connect-steps.ts`: transport, request engine, era negotiation — modern first, then the 2025
 * `initialize`), then hands the connection to its façade (`connected-mcp-client.ts`): a cached
 * tool list refreshed on `list_changed` (cache hints honoured), calls with cancellation, progress,
 * tasks and handlers of their own, resources, prompts and skills, and errors that say which server
 * failed and what to try.
 */
import type {
  CallToolResult,
  CompleteRequest,
  CompleteResult,
  GetPromptResult,
  Implementation,
  LoggingLevel,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplateType as ResourceTemplate,
  ServerCapabilities,
  Tool,
  Transport,
} from '@modelcontextprotocol/client';
import type { Skill, SkillFile } from '@modelcontextprotocol/client/ext/skills';
import { loadOpenTelemetry, networkTransportOf, type SwitchboardError } from '@switchboard/core';
import type { TransportType } from '@switchboard/transports';
import type { ClientTransportHandle } from './client-transport.js';
import { isServerEntry, type ServerEntry } from './config/server-entry.js';
import { type ConnectSettings, connectSettings, openConnection } from './connect-steps.js';
import { ConnectedMcpClient } from './connected-mcp-client.js';
import type { NegotiatedSession } from './era-negotiation.js';
import type {
  CallToolOptions,
  McpClientOptions,
  McpRequestOptions,
  ToolStart,
} from './mcp-client-options.js';
import type { ProtocolEra } from './protocol-version.js';
import type { OpenTelemetryApi } from './telemetry/open-telemetry-api.js';
import { type ConnectionFacts, createRequestTelemetry } from './telemetry/request-telemetry.js';
import type { ToolTask } from './tool-task.js';

export type {
  CallToolOptions,
  McpClientOptions,
  McpRequestOptions,
  ToolStart,
} from './mcp-client-options.js';

/** A connected MCP server. */
export interface McpClient {
  /** The server's name (as configured). */
  readonly name: string;
  /** How the server is reached. */
  readonly transportKind: TransportType | 'custom';
  /** The era the connection speaks: `modern` (2026-07-28, per-request `_meta`) or `legacy` (2025 `initialize`). */
  readonly era: ProtocolEra;
  /** The negotiated protocol version (`server/discover` or `initialize`). */
  readonly protocolVersion: string | undefined;
  /** What the server said about itself. */
  readonly serverInfo: Implementation | undefined;
  readonly capabilities: ServerCapabilities | undefined;
  readonly instructions: string | undefined;
  /** False once the connection closed. */
  readonly connected: boolean;
  /** Process id of a stdio server (undefined for remote servers). */
  readonly pid: number | undefined;
  /** The server's tools; cached, refreshed on `list_changed` or when `refresh` is set (a fresh cache hint is honoured). */
  listTools(options?: { refresh?: boolean }): Promise<Tool[]>;
  /** Calls a tool and returns the server's result as it came (a task is polled to its result). */
  callTool(name: string, args?: Record<string, unknown>, options?: CallToolOptions): Promise<CallToolResult>;
  /** Calls a tool; resolves with the result, or with the task when the server created one. */
  startTool(name: string, args?: Record<string, unknown>, options?: CallToolOptions): Promise<ToolStart>;
  /** A task of this server by id (to resume one after a restart), with its current state. */
  getTask(taskId: string, tool?: string): Promise<ToolTask>;
  listResources(options?: McpRequestOptions): Promise<Resource[]>;
  listResourceTemplates(options?: McpRequestOptions): Promise<ResourceTemplate[]>;
  readResource(uri: string, options?: McpRequestOptions): Promise<ReadResourceResult>;
  subscribeResource(uri: string): Promise<void>;
  unsubscribeResource(uri: string): Promise<void>;
  listPrompts(options?: McpRequestOptions): Promise<Prompt[]>;
  getPrompt(
    name: string,
    args?: Record<string, string>,
    options?: McpRequestOptions,
  ): Promise<GetPromptResult>;
  complete(params: CompleteRequest['params'], options?: McpRequestOptions): Promise<CompleteResult>;
  /** The server's skills (extension `io.modelcontextprotocol/skills`); empty when it declares none. Files are not fetched. */
  listSkills(): Promise<Skill[]>;
  /** Reads one file of a skill (its `SKILL.md` by default) and verifies it against the skill's entry. */
  readSkill(skill: Skill, ref?: string): Promise<SkillFile>;
  /** Asks for log messages of `level` and above (2025: `logging/setLevel`; modern: on every request). */
  setLoggingLevel(level: LoggingLevel): Promise<void>;
  /** Checks the server answers (`ping`; `server/discover` on a modern connection). */
  ping(): Promise<void>;
  /** Tells the server the roots changed (2025 era; a modern server asks for them in each call). */
  notifyRootsChanged(): Promise<void>;
  /** Called with the new list after the server's tools changed. Returns the unsubscribe function. */
  onToolsChanged(listener: (tools: Tool[]) => void): () => void;
  /**
   * Called after the server's resources or resource templates changed (`list_changed`: a 2025
   * notification, or on the modern `subscriptions/listen` stream). Returns the unsubscribe function.
   */
  onResourcesChanged(listener: () => void): () => void;
  /** Called after the server's prompts changed (`list_changed`, either era). Returns the unsubscribe function. */
  onPromptsChanged(listener: () => void): () => void;
  /**
   * Called with the URI of a subscribed resource that changed (`notifications/resources/updated`,
   * either era; see `subscribeResource`). Returns the unsubscribe function.
   */
  onResourceUpdated(listener: (uri: string) => void): () => void;
  /** Called once when the connection closes (not after `close()`). Returns the unsubscribe function. */
  onClose(listener: (error: SwitchboardError) => void): () => void;
  /** The last lines the server wrote to stderr (stdio only), redacted. */
  stderrTail(): string[];
  /** Ends the session and stops the server process. */
  close(): Promise<void>;
}

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
