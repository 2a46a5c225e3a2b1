/**
 * The `McpClient` of one live connection: a façade over its request engine. Tools go through the
 * tool list cache and the send link (`tool-call-sender.ts`); resources, prompts, completion,
 * logging and ping are one traced request each (input-required rounds answered for
 * `resources/read` and `prompts/get`); change notifications reach the listeners in both eras (on
 * a modern connection through `subscriptions/listen` streams). Every failure becomes a
 * `ClientError` naming the server (and tool) and what to try.
 */
import {
  type CallToolResult,
  type CompleteRequest,
  type CompleteResult,
  type GetPromptResult,
  type Implementation,
  LOG_LEVEL_META_KEY,
  type LoggingLevel,
  type Prompt,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplateType as ResourceTemplate,
  SdkError,
  SdkErrorCode,
  type ServerCapabilities,
  type Tool,
} from '@modelcontextprotocol/client';
import type { Skill, SkillFile, SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { SkillVerificationError } from '@modelcontextprotocol/client/ext/skills';
import type { SwitchboardError } from '@switchboard/core';
import { ChangeSubscriptions } from './change-subscriptions.js';
import { ClientError, ClientErrorCode, type ErrorScene, toClientError } from './client-error.js';
import type { ClientTransportHandle } from './client-transport.js';
import {
  type ConnectSettings,
  formatStderr,
  type OpenedConnection,
  type TransportProblems,
} from './connect-steps.js';
import type { NegotiatedSession } from './era-negotiation.js';
import { createEventsClient, type EventsClient, eventsAvailability } from './events-client.js';
import { runInputRounds } from './input-rounds.js';
import { runsToolTasks } from './legacy-task.js';
import { walkPages } from './list-pages.js';
import type { McpClient } from './mcp-client.js';
import type {
  CallToolOptions,
  McpClientOptions,
  McpRequestOptions,
  ToolStart,
} from './mcp-client-options.js';
import { createObserveLink } from './observe-link.js';
import type { ProtocolEra } from './protocol-version.js';
import type { EngineRequestOptions, RequestEngine } from './request-engine.js';
import { decodeResult } from './result-decoding.js';
import type { AnswerServerRequest } from './server-request-answers.js';
import { createSkillsClient } from './skills-client-adapter.js';
import { createTaskChannel, waitOptions } from './task-channel.js';
import type { RequestTelemetry } from './telemetry/request-telemetry.js';
import { chainLinks, type ToolCall, type ToolCallNext } from './tool-call-chain.js';
import { type CallOutcome, ToolCallSender } from './tool-call-sender.js';
import { ToolListCache } from './tool-list-cache.js';
import { PolledToolTask, type ToolTask, toTaskState } from './tool-task.js';

/** The longest wait for a server to acknowledge the change-notification stream at connect. */
const listenAckTimeoutMs = 10_000;
const noCallOptions: CallToolOptions = Object.freeze({});

/** What a connected client is made of. */
export interface ConnectedMcpClientParts {
  opened: OpenedConnection;
  settings: ConnectSettings;
  options: McpClientOptions;
  telemetry: RequestTelemetry;
}

/** The {@link McpClient} of one live connection. */
export class ConnectedMcpClient implements McpClient {
  readonly name: string;
  readonly transportKind: McpClient['transportKind'];
  readonly era: ProtocolEra;
  readonly protocolVersion: string | undefined;
  readonly serverInfo: Implementation | undefined;
  readonly capabilities: ServerCapabilities | undefined;
  readonly instructions: string | undefined;
  private live = true;
  private closing = false;
  private readonly engine: RequestEngine;
  private readonly handle: ClientTransportHandle;
  private readonly session: NegotiatedSession;
  private readonly problems: TransportProblems;
  private readonly settings: ConnectSettings;
  private readonly options: McpClientOptions;
  private readonly telemetry: RequestTelemetry;
  private readonly answers: AnswerServerRequest;
  private readonly tools: ToolListCache;
  private readonly sender: ToolCallSender;
  private readonly subscriptions: ChangeSubscriptions | undefined;
  private readonly closeListeners = new Set<(error: SwitchboardError) => void>();
  private readonly resourcesListeners = new Set<() => void>();
  private readonly promptsListeners = new Set<() => void>();
  private readonly resourceUpdateListeners = new Set<(uri: string) => void>();
  private skills: Promise<SkillsClient> | undefined;
  private eventsClient: EventsClient | undefined;
  /** Shared by every request without options: nothing is built per request on the common path. */
  private readonly defaultRequest: EngineRequestOptions;
  /** A bare call's chain: observe (its span) → send. */
  private readonly observed: ToolCallNext;

  constructor(parts: ConnectedMcpClientParts) {
    const { opened, settings, options } = parts;
    this.engine = opened.engine;
    this.handle = opened.handle;
    this.session = opened.session;
    this.problems = opened.problems;
    this.settings = settings;
    this.options = options;
    this.telemetry = parts.telemetry;
    this.answers = opened.answers;
    this.name = settings.name;
    this.era = this.session.era;
    this.protocolVersion = this.session.protocolVersion;
    this.serverInfo = this.session.serverInfo;
    this.capabilities = this.session.capabilities;
    this.instructions = this.session.instructions;
    // A URL entry starts as Streamable HTTP; the transport may have fallen back to legacy SSE.
    this.transportKind = settings.custom
      ? 'custom'
      : (this.handle.transport as { usesSseFallback?: boolean }).usesSseFallback === true
        ? 'sse'
        : this.handle.kind;
    this.defaultRequest = Object.freeze({ timeoutMs: settings.requestTimeoutMs });
    const mirrorHeaders = this.era === 'modern' && this.handle.transport.hasPerRequestStream === true;
    this.tools = new ToolListCache({
      server: this.name,
      hasTools: this.capabilities?.tools !== undefined,
      mirrorHeaders,
      fetchPage: (cursor) => this.requestResult('tools/list', cursor === undefined ? undefined : { cursor }),
      explain: (error) => toClientError(error, this.scene('tools/list')),
      logger: settings.logger,
      debounceMs: options.listChangedDebounceMs ?? 100,
    });
    this.sender = new ToolCallSender({
      engine: this.engine,
      tools: this.tools,
      mirrorHeaders,
      answers: this.answers,
      telemetry: this.telemetry,
      requestTimeoutMs: settings.requestTimeoutMs,
      maxTotalTimeoutMs: settings.maxTotalTimeoutMs,
      onProgress: settings.onProgress,
      legacyTasks: this.era === 'legacy' && runsToolTasks(this.capabilities),
    });
    this.subscriptions =
      this.era === 'modern'
        ? new ChangeSubscriptions(this.engine, this.name, settings.requestTimeoutMs)
        : undefined;
    this.observed = chainLinks([createObserveLink({})], (call) => this.sendCall(call));
    opened.events.notification = (method, params) => this.notified(method, params);
    opened.events.closed = () => this.connectionClosed();
  }

  get connected(): boolean {
    return this.live;
  }

  get pid(): number | undefined {
    return this.handle.pid();
  }

  private scene(operation: string, tool?: string, signal?: AbortSignal): ErrorScene {
    return {
      server: this.name,
      operation,
      ...(tool === undefined ? {} : { tool }),
      stderr: this.handle.stderrTail(),
      redactor: this.settings.redactor,
      target: this.settings.target,
      signal,
    };
  }

  /** On a modern connection, change notifications come on a `subscriptions/listen` stream. */
  async listenForChanges(): Promise<void> {
    const capabilities = this.capabilities;
    if (this.subscriptions === undefined) return;
    try {
      // Bounded: a server that never acknowledges must not hold the connect up for a whole request timeout.
      await this.subscriptions.listenForChanges(
        {
          ...(capabilities?.tools?.listChanged ? { toolsListChanged: true } : {}),
          ...(capabilities?.prompts?.listChanged ? { promptsListChanged: true } : {}),
          ...(capabilities?.resources?.listChanged ? { resourcesListChanged: true } : {}),
        },
        Math.min(this.settings.requestTimeoutMs, listenAckTimeoutMs),
      );
    } catch (error) {
      // The connection works without it; list_changed just does not arrive.
      this.settings.logger.warn(
        { server: this.name },
        `subscriptions/listen failed: ${toClientError(error, this.scene('subscriptions/listen')).message}`,
      );
    }
  }

  /** A notification of the server (either era; modern ones come on the listen streams). */
  private notified(method: string, params: Record<string, unknown> | undefined): void {
    switch (method) {
      case 'notifications/tools/list_changed':
        this.tools.changed();
        return;
      case 'notifications/resources/list_changed':
        for (const listener of this.resourcesListeners) listener();
        return;
      case 'notifications/prompts/list_changed':
        for (const listener of this.promptsListeners) listener();
        return;
      case 'notifications/resources/updated': {
        const uri = params?.uri;
        if (typeof uri !== 'string') return;
        this.options.onResourceUpdated?.(uri);
        for (const listener of this.resourceUpdateListeners) listener(uri);
        return;
      }
    }
  }

  private connectionClosed(): void {
    if (!this.live) return;
    this.live = false;
    this.tools.close();
    if (this.closing) return;
    const detail = this.problems.last === undefined ? '' : ` Last transport problem: ${this.problems.last}.`;
    const error = new ClientError({
      code: ClientErrorCode.ConnectionClosed,
      message: this.settings.redactor.redact(
        `MCP server "${this.name}" closed the connection unexpectedly.${detail}${formatStderr(this.handle.stderrTail())}`,
      ),
      context: { server: this.name },
    });
    this.settings.logger.warn({ server: this.name }, error.message);
    for (const listener of this.closeListeners) listener(error);
  }

  /**
   * One request on the wire, traced (a CLIENT span per request), its result read by
   * `resultType`: input-required rounds are answered with the client's handlers.
   */
  private async requestResult(
    method: string,
    params: Record<string, unknown> | undefined,
    parent?: unknown,
  ): Promise<Record<string, unknown>> {
    let decoded = decodeResult(method, await this.traced(method, params, parent));
    if (decoded.kind === 'input_required') {
      decoded = await runInputRounds(decoded, {
        method,
        answer: this.answers,
        owner: undefined,
        signal: undefined,
        resend: async (extra) =>
          decodeResult(method, await this.traced(method, { ...params, ...extra }, parent)),
      });
    }
    if (decoded.kind === 'task') {
      throw new SdkError(SdkErrorCode.UnsupportedResultType, `Unsupported result type 'task' for ${method}`, {
        method,
      });
    }
    return decoded.result;
  }

  private async traced(method: string, params: Record<string, unknown> | undefined, parent: unknown) {
    const trace = this.telemetry.startRequest(method, params, parent);
    if (trace === undefined) return this.engine.request(method, params, this.defaultRequest);
    try {
      const result = await this.engine.request(method, params, { ...this.defaultRequest, trace });
      trace.end(result);
      return result;
    } catch (error) {
      trace.fail(error);
      throw error;
    }
  }

  /** A request of the façade: its result, or a `ClientError` naming the operation. */
  private async request(
    operation: string,
    params: Record<string, unknown> | undefined,
    options?: McpRequestOptions,
  ): Promise<Record<string, unknown>> {
    try {
      return await this.requestResult(operation, params, options?.traceContext);
    } catch (error) {
      throw toClientError(error, this.scene(operation));
    }
  }

  /** Every page of a list, as one result. */
  private async list(method: string, key: string, options?: McpRequestOptions): Promise<unknown[]> {
    try {
      const all = await walkPages(method, key, (cursor) =>
        this.requestResult(method, cursor === undefined ? undefined : { cursor }, options?.traceContext),
      );
      return all[key] as unknown[];
    } catch (error) {
      throw toClientError(error, this.scene(method));
    }
  }

  listTools(listOptions?: { refresh?: boolean }): Promise<Tool[]> {
    return this.tools.list(listOptions?.refresh === true);
  }

  callTool(
    toolName: string,
    args: Record<string, unknown> = {},
    callOptions: CallToolOptions = noCallOptions,
  ): Promise<CallToolResult> {
    return this.observed(this.toolCall(toolName, args, callOptions));
  }

  async startTool(
    toolName: string,
    args: Record<string, unknown> = {},
    callOptions: CallToolOptions = noCallOptions,
  ): Promise<ToolStart> {
    const call = this.toolCall(toolName, args, callOptions);
    call.observed = true;
    call.asTask = true;
    let outcome: CallOutcome;
    try {
      outcome = await this.sender.send(call);
    } catch (error) {
      call.trace?.fail(error);
      throw toClientError(error, this.scene('tools/call', toolName, callOptions.signal));
    }
    // A task is an answer: the call itself went well.
    call.trace?.end(outcome.result);
    if (outcome.task === undefined) return { result: outcome.result };
    const task = this.taskOf(outcome.task, call);
    // A 2025-11-25 task created final: its state carries its outcome, as a 2026-07-28 one does.
    const { status } = task.state;
    if (this.era === 'legacy' && (status === 'completed' || status === 'failed')) await task.refresh();
    callOptions.onTask?.(task);
    return { task };
  }

  /**
   * The send link of this connection: the call goes out (once, or again after a
   * `HeaderMismatch`), and a task it was answered with is polled to its result.
   */
  sendCall(call: ToolCall): Promise<CallToolResult> {
    return this.sender.send(call).then(
      (outcome) => {
        if (outcome.task === undefined) return outcome.result;
        const task = this.taskOf(outcome.task, call);
        call.options.onTask?.(task);
        return task.result(waitOptions(call.options));
      },
      (error: unknown) => {
        throw toClientError(error, this.scene('tools/call', call.tool, call.options.signal));
      },
    );
  }

  private toolCall(tool: string, args: Record<string, unknown>, options: CallToolOptions): ToolCall {
    return {
      server: this.name,
      tool,
      publicName: tool,
      args,
      options,
      retrySafe: false,
      observed: false,
      trace: undefined,
    };
  }

  async getTask(taskId: string, tool = 'unknown'): Promise<ToolTask> {
    const task = new PolledToolTask(this.taskChannel(this.toolCall(tool, {}, noCallOptions)), tool, {
      taskId,
      status: 'working',
    });
    await task.refresh();
    return task;
  }

  /** The task a call was answered with, as a handle that answers its input with the call's handlers. */
  private taskOf(created: Record<string, unknown>, call: ToolCall): ToolTask {
    return new PolledToolTask(this.taskChannel(call), call.tool, toTaskState(created, this.name));
  }

  private taskChannel(call: ToolCall) {
    return createTaskChannel({
      server: this.name,
      legacy: this.era === 'legacy',
      engine: this.engine,
      request: { timeoutMs: call.options.timeoutMs ?? this.settings.requestTimeoutMs },
      owner: { tool: call.tool, handlers: call.options },
      answers: this.answers,
      explain: (error, method) => toClientError(error, this.scene(method, call.tool)),
    });
  }

  async listResources(options?: McpRequestOptions): Promise<Resource[]> {
    return (await this.list('resources/list', 'resources', options)) as Resource[];
  }

  async listResourceTemplates(options?: McpRequestOptions): Promise<ResourceTemplate[]> {
    return (await this.list('resources/templates/list', 'resourceTemplates', options)) as ResourceTemplate[];
  }

  async readResource(uri: string, options?: McpRequestOptions): Promise<ReadResourceResult> {
    return (await this.request('resources/read', { uri }, options)) as unknown as ReadResourceResult;
  }

  async subscribeResource(uri: string): Promise<void> {
    await this.setSubscribed(uri, true);
  }

  async unsubscribeResource(uri: string): Promise<void> {
    await this.setSubscribed(uri, false);
  }

  /** 2025: `resources/(un)subscribe`; modern: one `subscriptions/listen` stream for every subscribed resource. */
  private async setSubscribed(uri: string, subscribed: boolean): Promise<void> {
    const operation = subscribed ? 'resources/subscribe' : 'resources/unsubscribe';
    if (this.subscriptions === undefined) {
      await this.request(operation, { uri });
      return;
    }
    try {
      await this.subscriptions.setResource(uri, subscribed);
    } catch (error) {
      throw toClientError(error, this.scene(operation));
    }
  }

  async listPrompts(options?: McpRequestOptions): Promise<Prompt[]> {
    return (await this.list('prompts/list', 'prompts', options)) as Prompt[];
  }

  async getPrompt(
    promptName: string,
    args?: Record<string, string>,
    options?: McpRequestOptions,
  ): Promise<GetPromptResult> {
    const params = args === undefined ? { name: promptName } : { name: promptName, arguments: args };
    return (await this.request('prompts/get', params, options)) as unknown as GetPromptResult;
  }

  async complete(params: CompleteRequest['params'], options?: McpRequestOptions): Promise<CompleteResult> {
    return (await this.request(
      'completion/complete',
      params as Record<string, unknown>,
      options,
    )) as CompleteResult;
  }

  events(): EventsClient {
    this.eventsClient ??= createEventsClient({
      assertAvailable: eventsAvailability(this.name, this.era, () => this.capabilities),
      request: (method, params) => this.request(method, params),
      openStream: (method, params, handlers) => this.engine.openStream(method, params, handlers),
      toError: (error, operation) => toClientError(error, this.scene(operation)),
    });
    return this.eventsClient;
  }

  private skillsClient(): Promise<SkillsClient> {
    this.skills ??= createSkillsClient({
      engine: this.engine,
      session: this.session,
      clientInfo: this.settings.clientInfo,
      requestTimeoutMs: this.settings.requestTimeoutMs,
    });
    return this.skills;
  }

  async listSkills(): Promise<Skill[]> {
    try {
      return (await (await this.skillsClient()).list(undefined, { timeout: this.settings.requestTimeoutMs }))
        .skills;
    } catch (error) {
      throw toClientError(error, this.scene('skills/list'));
    }
  }

  async getSkill(uri: string): Promise<Skill> {
    try {
      return (await (await this.skillsClient()).get(uri, { timeout: this.settings.requestTimeoutMs })).skill;
    } catch (error) {
      throw toClientError(error, this.scene('skills/get'));
    }
  }

  async readSkill(skill: Skill, ref?: string): Promise<SkillFile> {
    try {
      return await (await this.skillsClient()).read(skill, ref, { timeout: this.settings.requestTimeoutMs });
    } catch (error) {
      if (error instanceof SkillVerificationError) {
        throw new ClientError({
          code: ClientErrorCode.SkillInvalid,
          message: this.settings.redactor.redact(
            `MCP server "${this.name}": skill file ${error.uri} failed verification (${error.reason}): ${error.message}. It was not loaded.`,
          ),
          context: {
            server: this.name,
            uri: error.uri,
            reason: error.reason,
            differences: error.differences,
          },
        });
      }
      throw toClientError(error, this.scene('resources/read'));
    }
  }

  async setLoggingLevel(level: LoggingLevel): Promise<void> {
    if (this.era === 'modern') {
      // A modern server reads the level from every request's envelope.
      this.engine.setModern(Object.freeze({ ...this.engine.envelope, [LOG_LEVEL_META_KEY]: level }));
      return;
    }
    await this.request('logging/setLevel', { level });
  }

  async ping(): Promise<void> {
    await this.request(this.era === 'modern' ? 'server/discover' : 'ping', undefined);
  }

  async notifyRootsChanged(): Promise<void> {
    if (this.era !== 'legacy') return;
    try {
      await this.engine.notify('notifications/roots/list_changed');
    } catch (error) {
      throw toClientError(error, this.scene('notifications/roots/list_changed'));
    }
  }

  onToolsChanged(listener: (tools: Tool[]) => void): () => void {
    return this.tools.onChanged(listener);
  }

  onResourcesChanged(listener: () => void): () => void {
    this.resourcesListeners.add(listener);
    return () => this.resourcesListeners.delete(listener);
  }

  onPromptsChanged(listener: () => void): () => void {
    this.promptsListeners.add(listener);
    return () => this.promptsListeners.delete(listener);
  }

  onResourceUpdated(listener: (uri: string) => void): () => void {
    this.resourceUpdateListeners.add(listener);
    return () => this.resourceUpdateListeners.delete(listener);
  }

  onClose(listener: (error: SwitchboardError) => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  stderrTail(): string[] {
    return this.handle.stderrTail();
  }

  async close(): Promise<void> {
    this.closing = true;
    this.tools.close();
    this.closeListeners.clear();
    this.resourcesListeners.clear();
    this.promptsListeners.clear();
    this.resourceUpdateListeners.clear();
    await this.subscriptions?.close();
    await this.engine.close().catch(() => {});
    this.live = false;
  }
}
