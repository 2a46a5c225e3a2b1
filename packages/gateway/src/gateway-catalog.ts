/**
 * The resources, resource templates and prompts of a gateway's upstream servers, as one resource
 * and prompt provider of the gateway's server: lists fan out to every connected upstream, reads
 * and gets are routed to the upstream that owns the URI or prompt, subscriptions are forwarded,
 * and upstream `list_changed` / `resources/updated` (the client's change callbacks, from 2025
 * notifications or 2026-07-28 `subscriptions/listen` streams) become events on the server's bus,
 * which reach 2025 sessions as notifications and modern clients on their listen streams.
 *
 * Naming (why; the rules are the client's `cross-server-catalog.ts`, so a URI or prompt name means
 * the same through a gateway as on a `connectMcp` connection):
 * - Resource URIs are kept as the upstream gave them whenever exactly one upstream lists that URI
 *   (or that template): clients and models recognise `file:///…` or `memory://…`, templates stay
 *   valid RFC 6570 and completion refs keep working. Only a URI (or template) that two or more
 *   upstreams list is namespaced, as `<server>+<uri>` — still a URI (`everything+demo:` is a valid
 *   scheme when the server name is) and reversible: the gateway strips the known server name. The
 *   prefixed form is also accepted for any URI, to address one upstream explicitly. Every listed
 *   resource and template carries `_meta["switchboard/server"]`.
 * - An MCP Apps `ui://` URI belongs to the upstreams whose tools name it, listed or not (a server
 *   may leave it out of `resources/list`); two owners make it `ui://<server>+<rest>`, as the tools'
 *   `_meta.ui` say (`gateway-apps.ts`).
 * - Prompt names are namespaced like tools (core's `createToolName`, `mcp__<server>__<prompt>` by
 *   default): a prompt name is an identifier with no meaning outside its server.
 *
 * Lists come from `upstream-lists.ts`: each upstream's wait is bounded (a slow or failing one is
 * logged and left out while the rest are served), and a list is kept while its upstream promises
 * to announce changes. An upstream that is gone simply stops contributing.
 */
import {
  type CompleteResult,
  type GetPromptResult,
  type Prompt,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplateType as ResourceTemplate,
  type ServerEventBus,
  UriTemplate,
} from '@modelcontextprotocol/server';
import {
  type AppUriOwnership,
  exposePromptNames,
  exposeServerUris,
  type McpClient,
  type McpRequestOptions,
  prefixServerUri,
  serverMetaKey,
  serverOfPrefixedUri,
  withServerMeta,
} from '@switchboard/client';
import { type Logger, SwitchboardError, type ToolNamingOptions } from '@switchboard/core';
import {
  type CompletionArgument,
  type PromptContext,
  type PromptProvider,
  type ProviderContext,
  type ResourceProvider,
  ServerError,
  ServerErrorCode,
} from '@switchboard/server';
import { type UpstreamListKind, UpstreamLists } from './upstream-lists.js';

/** What the gateway needs of one upstream server's client (an `McpClient` of `@switchboard/client` fits). */
export type GatewayUpstreamClient = Pick<
  McpClient,
  'listResources' | 'listResourceTemplates' | 'readResource' | 'listPrompts' | 'getPrompt'
> &
  Partial<
    Pick<
      McpClient,
      | 'capabilities'
      | 'connected'
      | 'subscribeResource'
      | 'unsubscribeResource'
      | 'complete'
      | 'onClose'
      | 'callTool'
      | 'listTools'
      | 'era'
      | 'onResourcesChanged'
      | 'onPromptsChanged'
      | 'onResourceUpdated'
    >
  >;

/** Where the catalog finds the upstream servers. */
export interface GatewayCatalogSource {
  readonly servers?: readonly string[];
  client?(server: string): GatewayUpstreamClient | undefined;
}

/** Options of {@link GatewayCatalog}. */
export interface GatewayCatalogOptions {
  source: GatewayCatalogSource;
  /** Which upstreams' tools name which `ui://` URIs (MCP Apps resources, listed or not). @default none */
  appUris?: Pick<AppUriOwnership, 'owners' | 'exposedUri'>;
  /** Serve upstream resources and resource templates. */
  resources: boolean;
  /** Serve upstream prompts. */
  prompts: boolean;
  /** Where change events go (the gateway server's bus). */
  bus: ServerEventBus;
  /** Naming of prompts (as for tools). @default core's default naming */
  naming?: ToolNamingOptions;
  /** How long one upstream may take to answer a list before it is left out of that answer. @default 5000 */
  listTimeoutMs?: number;
  logger: Logger;
}

/** The `_meta` key naming the upstream server of a listed resource, template or prompt (the client's). */
export const upstreamMetaKey = serverMetaKey;

interface Route {
  server: string;
  /** The URI (or prompt name) as the upstream knows it. */
  upstream: string;
}

/**
 * The options of an upstream request made for a downstream one: the downstream request's span is
 * the parent of the upstream request's (one trace end to end, with or without a context manager).
 */
function upstreamOptions(context: ProviderContext | undefined): McpRequestOptions | undefined {
  const traceContext = context?.traceContext;
  return traceContext === undefined ? undefined : { traceContext };
}

/** The error of upstream `server` failing `operation` on `target`: its JSON-RPC code kept, the server named. */
export function upstreamError(
  server: string,
  operation: string,
  target: string,
  error: unknown,
): ServerError {
  const wireCode = SwitchboardError.isInstance(error)
    ? error.context.jsonRpcCode
    : (error as { code?: unknown })?.code;
  return new ServerError({
    code: ServerErrorCode.UpstreamFailed,
    message: `${operation} "${target}" failed on upstream MCP server "${server}": ${error instanceof Error ? error.message : String(error)}`,
    ...(typeof wireCode === 'number' ? { rpcCode: wireCode } : {}),
    data: {
      server,
      operation,
      target,
      ...(SwitchboardError.isInstance(error) ? { reason: error.code } : {}),
    },
    cause: error,
  });
}

/** Upstream resources and prompts of a gateway. */
export class GatewayCatalog implements ResourceProvider, PromptProvider {
  readonly specificationVersion = 'v1';
  readonly subscribable = true;
  readonly #options: GatewayCatalogOptions;
  readonly #hookedClients = new WeakSet<object>();
  readonly #unhooks: Array<() => void> = [];
  readonly #lists: UpstreamLists;
  readonly #resourceRoutes = new Map<string, Route>();
  readonly #templateRoutes: Array<{
    exposed: string;
    template: UriTemplate;
    route: Route;
    prefixed: boolean;
  }> = [];
  readonly #promptRoutes = new Map<string, Route>();
  #known = new Map<string, GatewayUpstreamClient>();
  #syncScheduled = false;

  constructor(options: GatewayCatalogOptions) {
    this.#options = options;
    this.#lists = new UpstreamLists({ timeoutMs: options.listTimeoutMs ?? 5000, logger: options.logger });
    this.#known = this.#upstreams();
  }

  /** Notices upstreams that came, went or reconnected (once per tick), and announces changed lists. */
  sync(): void {
    if (this.#syncScheduled) return;
    this.#syncScheduled = true;
    queueMicrotask(() => {
      this.#syncScheduled = false;
      const current = this.#upstreams();
      const changed =
        current.size !== this.#known.size ||
        [...current].some(([server, client]) => this.#known.get(server) !== client);
      this.#known = current;
      this.#lists.retain(new Set(current.keys()));
      if (changed) this.#listsChanged({ resources: true, prompts: true });
    });
  }

  /** Stops listening to upstream changes. */
  close(): void {
    for (const unhook of this.#unhooks.splice(0)) unhook();
  }

  async listResources(context?: ProviderContext): Promise<Resource[]> {
    if (!this.#options.resources) return [];
    const options = upstreamOptions(context);
    const entries = exposeServerUris(
      await this.#gather('resources', (client) => client.listResources(options)),
      (resource) => resource.uri,
      this.#options.appUris,
    );
    this.#resourceRoutes.clear();
    return entries.map(({ server, item, exposed }) => {
      this.#resourceRoutes.set(exposed, { server, upstream: item.uri });
      return { ...withServerMeta(item, server), uri: exposed };
    });
  }

  async listResourceTemplates(context?: ProviderContext): Promise<ResourceTemplate[]> {
    if (!this.#options.resources) return [];
    const options = upstreamOptions(context);
    const entries = exposeServerUris(
      await this.#gather('resourceTemplates', (client) => client.listResourceTemplates(options)),
      (template) => template.uriTemplate,
    );
    this.#templateRoutes.length = 0;
    return entries.map(({ server, item, exposed, prefixed }) => {
      this.#templateRoutes.push({
        exposed,
        template: new UriTemplate(exposed),
        route: { server, upstream: item.uriTemplate },
        prefixed,
      });
      return { ...withServerMeta(item, server), uriTemplate: exposed };
    });
  }

  async readResource(uri: string, context?: ProviderContext): Promise<ReadResourceResult | undefined> {
    if (!this.#options.resources) return undefined;
    const route = await this.#resolveUri(uri, context);
    const client = this.#clientOf(route, 'resources/read', uri);
    let result: ReadResourceResult;
    try {
      result = await client.readResource(route.upstream, upstreamOptions(context));
    } catch (error) {
      throw upstreamError(route.server, 'resources/read', uri, error);
    }
    if (route.upstream === uri) return result;
    return {
      ...result,
      contents: result.contents.map((content) =>
        content.uri === route.upstream ? { ...content, uri } : content,
      ),
    };
  }

  async subscribe(uri: string): Promise<boolean> {
    if (!this.#options.resources) return false;
    const route = await this.#resolveUri(uri, undefined);
    const client = this.#clientOf(route, 'resources/subscribe', uri);
    if (client.subscribeResource === undefined || client.capabilities?.resources?.subscribe !== true) {
      throw new ServerError({
        code: ServerErrorCode.MethodNotFound,
        message: `resources/subscribe "${uri}": upstream MCP server "${route.server}" does not support resource subscriptions; read the resource again instead.`,
        data: { server: route.server, uri },
      });
    }
    try {
      await client.subscribeResource(route.upstream);
    } catch (error) {
      throw upstreamError(route.server, 'resources/subscribe', uri, error);
    }
    return true;
  }

  async unsubscribe(uri: string): Promise<void> {
    const route = this.#routeOf(uri);
    if (route === undefined) return;
    const client = this.#upstreams().get(route.server);
    await client?.unsubscribeResource?.(route.upstream).catch((error: unknown) => {
      this.#options.logger.debug(
        { server: route.server, uri, error: String(error) },
        'upstream unsubscribe failed',
      );
    });
  }

  async listPrompts(context?: ProviderContext): Promise<Prompt[]> {
    if (!this.#options.prompts) return [];
    const options = upstreamOptions(context);
    const entries = exposePromptNames(
      await this.#gather('prompts', (client) => client.listPrompts(options)),
      this.#options.naming,
    );
    this.#promptRoutes.clear();
    return entries.map(({ server, item, exposed: name }) => {
      this.#promptRoutes.set(name, { server, upstream: item.name });
      return { ...withServerMeta(item, server), name };
    });
  }

  async getPrompt(
    name: string,
    args: Record<string, string>,
    context?: PromptContext,
  ): Promise<GetPromptResult | undefined> {
    if (!this.#options.prompts) return undefined;
    let route = this.#promptRoutes.get(name);
    if (route === undefined) {
      await this.listPrompts(context);
      route = this.#promptRoutes.get(name);
    }
    if (route === undefined) {
      const names = [...this.#promptRoutes.keys()];
      throw new ServerError({
        code: ServerErrorCode.PromptNotFound,
        message: `Unknown prompt "${name}". ${names.length ? `Available prompts: ${names.slice(0, 20).join(', ')}${names.length > 20 ? ', …' : ''}.` : 'No connected upstream server has prompts.'}`,
        context: { prompt: name },
      });
    }
    const client = this.#clientOf(route, 'prompts/get', name);
    try {
      return await client.getPrompt(route.upstream, args, upstreamOptions(context));
    } catch (error) {
      throw upstreamError(route.server, 'prompts/get', name, error);
    }
  }

  async completePromptArgument(
    name: string,
    argument: CompletionArgument,
    context?: ProviderContext,
  ): Promise<CompleteResult | undefined> {
    if (!this.#options.prompts) return undefined;
    if (!this.#promptRoutes.has(name)) await this.listPrompts(context);
    const route = this.#promptRoutes.get(name);
    return route === undefined
      ? undefined
      : this.#complete(route, { type: 'ref/prompt', name: route.upstream }, argument, name, context);
  }

  async completeTemplateArgument(
    uriTemplate: string,
    argument: CompletionArgument,
    context?: ProviderContext,
  ): Promise<CompleteResult | undefined> {
    if (!this.#options.resources) return undefined;
    if (!this.#templateRoutes.some((entry) => entry.exposed === uriTemplate))
      await this.listResourceTemplates(context);
    const route = this.#templateRoutes.find((entry) => entry.exposed === uriTemplate)?.route;
    return route === undefined
      ? undefined
      : this.#complete(route, { type: 'ref/resource', uri: route.upstream }, argument, uriTemplate, context);
  }

  /** Completion asked of the upstream (an upstream without completion offers no values). */
  async #complete(
    route: Route,
    ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string },
    argument: CompletionArgument,
    target: string,
    context: ProviderContext | undefined,
  ): Promise<CompleteResult> {
    const empty: CompleteResult = { completion: { values: [], total: 0, hasMore: false } };
    const client = this.#upstreams().get(route.server);
    if (client?.complete === undefined || client.capabilities?.completions === undefined) return empty;
    try {
      return await client.complete(
        {
          ref,
          argument: { name: argument.name, value: argument.value },
          context: { arguments: argument.context },
        } as Parameters<NonNullable<GatewayUpstreamClient['complete']>>[0],
        upstreamOptions(context),
      );
    } catch (error) {
      throw upstreamError(route.server, 'completion/complete', target, error);
    }
  }

  #upstreams(): Map<string, GatewayUpstreamClient> {
    const result = new Map<string, GatewayUpstreamClient>();
    const { source } = this.#options;
    for (const server of source.servers ?? []) {
      let client: GatewayUpstreamClient | undefined;
      try {
        client = source.client?.(server);
      } catch {
        // A server removed between reading `servers` and asking for its client.
        continue;
      }
      if (client === undefined || client.connected === false) continue;
      result.set(server, client);
      this.#hook(server, client);
    }
    return result;
  }

  /** Follows one upstream client's changes (once per client: a reconnect brings a new one). */
  #hook(server: string, client: GatewayUpstreamClient): void {
    if (this.#hookedClients.has(client)) return;
    this.#hookedClients.add(client);
    const unhooks = [
      client.onClose?.(() => this.sync()),
      client.onResourcesChanged?.(() => {
        this.#lists.changed(server, 'resources');
        this.#listsChanged({ resources: true, prompts: false });
      }),
      client.onPromptsChanged?.(() => {
        this.#lists.changed(server, 'prompts');
        this.#listsChanged({ resources: false, prompts: true });
      }),
      client.onResourceUpdated?.((uri) => this.#resourceUpdated(server, uri)),
    ];
    for (const unhook of unhooks) if (unhook !== undefined) this.#unhooks.push(unhook);
  }

  /** A subscribed upstream resource changed: tell the clients, under each URI it is served as. */
  #resourceUpdated(server: string, upstreamUri: string): void {
    for (const uri of [upstreamUri, prefixServerUri(server, upstreamUri)]) {
      if (this.#routeOf(uri)?.server === server) this.#options.bus.publish({ kind: 'resource_updated', uri });
    }
  }

  #listsChanged(kinds: { resources: boolean; prompts: boolean }): void {
    if (kinds.resources && this.#options.resources)
      this.#options.bus.publish({ kind: 'resources_list_changed' });
    if (kinds.prompts && this.#options.prompts) this.#options.bus.publish({ kind: 'prompts_list_changed' });
  }

  /** Every upstream's items of `kind` (bounded per upstream, cached where its upstream allows). */
  #gather<T>(
    kind: UpstreamListKind,
    list: (client: GatewayUpstreamClient) => Promise<T[]>,
  ): Promise<Array<{ server: string; item: T }>> {
    return this.#lists.gather(kind, this.#upstreams(), list as never);
  }

  /** The upstream of an exposed URI from the latest lists, or from an explicit `<server>+` prefix. */
  #routeOf(uri: string): Route | undefined {
    const listed = this.#resourceRoutes.get(uri);
    if (listed !== undefined) return listed;
    const prefixed = serverOfPrefixedUri(
      uri,
      this.#known.size > 0 ? this.#known.keys() : (this.#options.source.servers ?? []),
    );
    if (prefixed !== undefined) return { server: prefixed.server, upstream: prefixed.uri };
    // An app resource its upstream does not list: the one upstream whose tools name it.
    const [owner, ...others] = this.#options.appUris?.owners(uri) ?? [];
    if (owner !== undefined && others.length === 0) return { server: owner, upstream: uri };
    for (const { template, route, prefixed } of this.#templateRoutes) {
      if (template.match(uri) === null) continue;
      const own = prefixed ? serverOfPrefixedUri(uri, [route.server])?.uri : undefined;
      return { server: route.server, upstream: own ?? uri };
    }
    return undefined;
  }

  async #resolveUri(uri: string, context: ProviderContext | undefined): Promise<Route> {
    let route = this.#routeOf(uri);
    if (route === undefined) {
      // The client may read without listing first (or the lists changed): look again.
      await Promise.all([this.listResources(context), this.listResourceTemplates(context)]);
      route = this.#routeOf(uri);
    }
    if (route === undefined) {
      const servers = [...this.#upstreams().keys()];
      throw new ServerError({
        code: ServerErrorCode.ResourceNotFound,
        message: `Resource not found: "${uri}". No connected upstream server (${servers.join(', ') || 'none'}) lists it or has a template that matches it; call resources/list and resources/templates/list for what this gateway serves.`,
        data: { uri, servers },
      });
    }
    return route;
  }

  #clientOf(route: Route, operation: string, target: string): GatewayUpstreamClient {
    const client = this.#upstreams().get(route.server);
    if (client === undefined) {
      throw new ServerError({
        code: ServerErrorCode.UpstreamUnavailable,
        message: `${operation} "${target}": upstream MCP server "${route.server}" is not connected (it stopped or was removed); try again once it is back.`,
        data: { server: route.server, operation, target },
      });
    }
    return client;
  }
}
