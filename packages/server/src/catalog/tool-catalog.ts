/**
 * The tools a server serves: a live core `ToolRegistry` seen through the approval policy (`deny`
 * hides a tool; `ask` marks it for a person's yes, or hides it under the `hide` prompt), listed
 * in a deterministic order (by name) and cached until the registry changes. Tools made with
 * `defineTool` are registered under the `local` group and kept here by name as well, so a call runs
 * the definition itself (a synchronous tool answers without a promise).
 */
import type { Tool } from '@modelcontextprotocol/server';
import type { ApprovalPolicy, ApprovalResult, RegisteredTool, ToolRegistry } from '@switchboard/core';
import { CallAbort } from '../cancellation/call-abort.js';
import { silentChannel } from '../request/request-channel.js';
import type { ApprovalNeed, ApprovalPrompt } from '../tools/approval-prompt.js';
import { unavailableInputChannel } from '../tools/client-input-channel.js';
import type { DefinedTool, ToolContext } from '../tools/define-tool.js';
import { toCallToolResult } from '../tools/to-call-tool-result.js';
import type { AppResourceSource } from '../tools/tool-app-definition.js';
import { createToolContext } from '../tools/tool-context.js';

/**
 * The context of a call made through the registry itself (an agent loop over the served registry):
 * no client behind it, so progress and logs go nowhere and client input is refused with a code.
 */
function registryCallContext(signal: AbortSignal | undefined): ToolContext {
  return createToolContext({
    request: {
      id: 0,
      method: 'tools/call',
      params: undefined,
      era: 'legacy',
      channel: silentChannel,
      abort: new CallAbort(signal),
    },
    inputs: unavailableInputChannel('the call came through the registry, with no MCP client behind it.'),
  });
}

/** A registered tool as `tools/list` shows it (never advertised read-only when it needs approval). */
function listingOf(tool: RegisteredTool, needsApproval: boolean): Tool {
  const entry: Tool = {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema as Tool['inputSchema'],
  };
  if (tool.title !== undefined) entry.title = tool.title;
  if (tool.outputSchema !== undefined) entry.outputSchema = tool.outputSchema as Tool['outputSchema'];
  if (tool.annotations !== undefined) {
    entry.annotations = needsApproval
      ? { ...tool.annotations, readOnlyHint: false }
      : (tool.annotations as Tool['annotations']);
  }
  const meta = tool.meta as
    | { _meta?: Record<string, unknown>; listingFields?: Record<string, unknown> }
    | undefined;
  if (meta?._meta !== undefined) entry._meta = meta._meta;
  // An upstream's listing fields the registry has no typed place for (`icons`, `execution`: the
  // client keeps them in `meta.listingFields`): a gateway lists its tools as their servers did.
  const listingFields = meta?.listingFields;
  if (listingFields !== undefined) {
    for (const key of Object.keys(listingFields)) {
      if (!(key in entry)) (entry as Record<string, unknown>)[key] = listingFields[key];
    }
  }
  return entry;
}

/** The registry group local tools are registered under. */
export const localToolServer = 'local';

/** A tool this server serves: its registry record, its listing, and its definition when local. */
export interface ServedTool {
  readonly registered: RegisteredTool;
  readonly listed: Tool;
  /** The `defineTool` definition, for local tools. */
  readonly local?: DefinedTool;
  /** Set when the policy says `ask`: a person's yes is needed before each call. */
  readonly approval?: ApprovalNeed;
}

/** Options of {@link ToolCatalog}. */
export interface ToolCatalogOptions {
  registry: ToolRegistry;
  /** Which registry tools may be served; none: every tool. */
  approval?: ApprovalPolicy;
  /** Where a person is asked about tools the policy says `ask` (`hide`: not served). */
  approvalPrompt: ApprovalPrompt;
  /** Called (once per tick) after the served tools changed. */
  onChange(): void;
  /**
   * A tool callable by name though not listed, asked for a name no listed tool has (a gateway:
   * an MCP App's own call, made with its upstream's tool name); the approval policy still applies.
   */
  unlisted?: (name: string) => RegisteredTool | undefined;
}

/** The served tools of one server. */
export class ToolCatalog {
  readonly registry: ToolRegistry;
  readonly #policy: ApprovalPolicy | undefined;
  readonly #hideAsk: boolean;
  readonly #unlisted: ToolCatalogOptions['unlisted'];
  readonly #local = new Map<string, { definition: DefinedTool; execute: RegisteredTool['execute'] }>();
  #listed: Tool[] | undefined;
  #served: Map<string, ServedTool> | undefined;
  #appResources: AppResourceSource[] = [];
  #servesApps = false;
  #changeScheduled = false;

  constructor(options: ToolCatalogOptions) {
    this.registry = options.registry;
    this.#policy = options.approval;
    this.#hideAsk = options.approvalPrompt === 'hide';
    this.#unlisted = options.unlisted;
    this.registry.subscribe(() => {
      this.#listed = undefined;
      this.#served = undefined;
      // Many registry events arrive together (a server's tools replaced): announce once per tick.
      if (this.#changeScheduled) return;
      this.#changeScheduled = true;
      queueMicrotask(() => {
        this.#changeScheduled = false;
        options.onChange();
      });
    });
  }

  /** The tools as `tools/list` shows them, sorted by name. */
  list(): Tool[] {
    if (this.#listed === undefined) this.#rebuild();
    return this.#listed as Tool[];
  }

  /** A served (listed) tool by public name. */
  get(name: string): ServedTool | undefined {
    if (this.#served === undefined) this.#rebuild();
    return (this.#served as Map<string, ServedTool>).get(name);
  }

  /**
   * The tool `tools/call` runs for `name`: a listed one, else one the `unlisted` option answers for
   * (which may throw a `ServerError` saying why the name is ambiguous).
   */
  callable(name: string): ServedTool | undefined {
    const served = this.get(name);
    if (served !== undefined || this.#unlisted === undefined) return served;
    const tool = this.#unlisted(name);
    if (tool === undefined) return undefined;
    const { exposed, decision } = this.#exposure(tool);
    if (!exposed) return undefined;
    const needsApproval = decision?.decision === 'ask';
    return {
      registered: tool,
      listed: listingOf(tool, needsApproval),
      ...(needsApproval ? { approval: { reason: decision.reason } } : {}),
    };
  }

  /** The `ui://` resources the served local tools bring (`defineTool({ app: { html | file } })`). */
  appResources(): readonly AppResourceSource[] {
    if (this.#served === undefined) this.#rebuild();
    return this.#appResources;
  }

  /** Whether a served tool is part of an MCP App (the extension is then declared). */
  servesApps(): boolean {
    if (this.#served === undefined) this.#rebuild();
    return this.#servesApps;
  }

  /** Public names of the served tools (for error hints). */
  names(): string[] {
    return this.list().map((tool) => tool.name);
  }

  /** Whether the approval policy lets this server serve `tool`. */
  isServed(tool: RegisteredTool): boolean {
    return this.#exposure(tool).exposed;
  }

  /**
   * Why a registry tool by this public name is not served (the policy's decision and reason), or
   * undefined when no such tool is registered or it is served.
   */
  whyHidden(name: string): ApprovalResult | undefined {
    const tool = this.registry.get(name);
    if (tool === undefined) return undefined;
    const exposure = this.#exposure(tool);
    return exposure.exposed ? undefined : exposure.decision;
  }

  /** The `defineTool` tools added so far, by name. */
  localDefinitions(): DefinedTool[] {
    return [...this.#local.values()].map((entry) => entry.definition);
  }

  /** Adds (or replaces) a `defineTool` tool. */
  addLocal(definition: DefinedTool): void {
    const structured = definition.outputSchema !== undefined;
    // The registry's execute serves callers that go through the registry itself (an agent
    // loop over the same registry); this server runs the definition directly.
    const execute: NonNullable<RegisteredTool['execute']> = async (args, options) => {
      const context =
        (options as { toolContext?: Parameters<DefinedTool['execute']>[1] } | undefined)?.toolContext ??
        registryCallContext(options?.signal);
      const parsed = definition.parse ? (definition.parse(args) as Record<string, unknown>) : args;
      return toCallToolResult(await definition.execute(parsed, context), structured);
    };
    this.#local.set(definition.name, { definition, execute });
    this.registry.register({
      server: localToolServer,
      name: definition.name,
      publicName: definition.name,
      description: definition.description,
      inputSchema: definition.inputSchema,
      ...(definition.title !== undefined ? { title: definition.title } : {}),
      ...(definition.outputSchema !== undefined ? { outputSchema: definition.outputSchema } : {}),
      ...(definition.annotations !== undefined ? { annotations: definition.annotations } : {}),
      ...(definition.app !== undefined ? { app: definition.app.app } : {}),
      ...(definition.task !== undefined || definition.app !== undefined
        ? {
            meta: {
              ...(definition.task !== undefined ? { task: definition.task } : {}),
              // Listed as the tool's `_meta` (the convention the client and gateway share).
              ...(definition.app !== undefined ? { _meta: definition.app.meta } : {}),
            },
          }
        : {}),
      execute,
    });
  }

  #exposure(tool: RegisteredTool): { exposed: boolean; decision?: ApprovalResult } {
    if (this.#policy === undefined) return { exposed: true };
    const decision = this.#policy.decide({
      name: tool.name,
      server: tool.server,
      originalName: tool.originalName,
      ...(tool.annotations ? { annotations: tool.annotations } : {}),
    });
    if (decision.decision === 'deny') return { exposed: false, decision };
    if (decision.decision === 'ask') return { exposed: !this.#hideAsk, decision };
    return { exposed: true };
  }

  #rebuild(): void {
    const served = new Map<string, ServedTool>();
    const tools = [...this.registry.list()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const listed: Tool[] = [];
    const appResources: AppResourceSource[] = [];
    let servesApps = false;
    for (const tool of tools) {
      const { exposed, decision } = this.#exposure(tool);
      if (!exposed) continue;
      const needsApproval = decision?.decision === 'ask';
      const entry = listingOf(tool, needsApproval);
      listed.push(entry);
      const local = tool.server === localToolServer ? this.#local.get(tool.originalName) : undefined;
      if (tool.app !== undefined) servesApps = true;
      const appResource = local?.definition.app?.resource;
      if (appResource !== undefined && local?.execute === tool.execute) appResources.push(appResource);
      served.set(tool.name, {
        registered: tool,
        listed: entry,
        ...(local !== undefined && local.execute === tool.execute ? { local: local.definition } : {}),
        ...(needsApproval ? { approval: { reason: decision.reason } } : {}),
      });
    }
    this.#listed = listed;
    this.#served = served;
    this.#appResources = appResources;
    this.#servesApps = servesApps;
  }
}
