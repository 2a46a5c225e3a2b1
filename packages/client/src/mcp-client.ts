/**
 * One connected MCP server, in either era (`create-mcp-client.ts` connects one): a cached tool
 * list refreshed on `list_changed` (cache hints honoured), calls with cancellation, progress, tasks
 * and handlers of their own, resources, prompts and skills, and errors that say which server failed
 * and what to try.
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
} from '@modelcontextprotocol/client';
import type { Skill, SkillFile } from '@modelcontextprotocol/client/ext/skills';
import type { SwitchboardError } from '@switchboard/core';
import type { TransportType } from '@switchboard/transports';
import type { EventsClient } from './events-client.js';
import type { CallToolOptions, McpRequestOptions, ToolStart } from './mcp-client-options.js';
import type { ProtocolEra } from './protocol-version.js';
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
  /** One skill's entry by its `SKILL.md` URI (`skills/get`), listed or not; checked as a listed entry is. */
  getSkill(uri: string): Promise<Skill>;
  /** Reads one file of a skill (its `SKILL.md` by default) and verifies it against the skill's entry. */
  readSkill(skill: Skill, ref?: string): Promise<SkillFile>;
  /**
   * The Events extension (`io.modelcontextprotocol/events`, 2026-07-28): list event types, poll,
   * stream and subscribe webhooks. Its methods throw `EVENTS_UNAVAILABLE` where the server offers none.
   */
  events(): EventsClient;
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
