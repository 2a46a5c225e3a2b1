/**
 * The resources, resource templates and prompts of a gateway's upstream servers, as one resource
 * and prompt provider of the gateway's server: lists fan out to every connected upstream, reads
 * and gets are routed to the upstream that owns the URI or prompt, subscriptions are forwarded,
 * and upstream `list_changed` / `resources/updated` become events on the server's bus.
 *
 * Naming (why):
 * - Resource URIs are kept as the upstream gave them whenever exactly one upstream lists that URI
 *   (or that template): clients and models recognise `file:///…` or `memory://…`, templates stay
 *   valid RFC 6570 and completion refs keep working. Only a URI (or template) that two or more
 *   upstreams list is namespaced, as `<server>+<uri>` — still a URI (`everything+demo:` is a valid
 *   scheme when the server name is) and reversible: the gateway strips the known server name. The
 *   prefixed form is also accepted for any URI, to address one upstream explicitly. Every listed
 *   resource and template carries `_meta["switchboard/server"]`.
 * - Prompt names are namespaced like tools (core's `createToolName`, `mcp__<server>__<prompt>` by
 *   default): a prompt name is an identifier with no meaning outside its server.
 *
 * Lists are fetched live on each request (no cache to go stale): an upstream that is gone simply
 * stops contributing, and one that fails to list is logged and left out while the rest are served.
 */
import {
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/core';
import {
  type CompleteResult,
  type GetPromptResult,
  type Prompt,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplateType as ResourceTemplate,
  type ServerCapabilities,
  type ServerEventBus,
  UriTemplate,
} from '@modelcontextprotocol/server';
import type { McpClient } from '@switchboard/client';
import { createToolName, type Logger, SwitchboardError, type ToolNamingOptions } from '@switchboard/core';
import type { CompletionArgument, PromptProvider, ResourceProvider } from '../catalog/content-provider.js';
import { ServerError, ServerErrorCode } from '../errors/server-error.js';

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
    >
  > & {
    /** The SDK client, used to receive the upstream's `list_changed` and `resources/updated`. */
    readonly sdkClient?: { setNotificationHandler(...args: never[]): void };
  };

/** Where the catalog finds the upstream servers. */
export interface GatewayCatalogSource {
  readonly servers?: readonly string[];
  client?(server: string): GatewayUpstreamClient | undefined;
}

/** Options of {@link GatewayCatalog}. */
export interface GatewayCatalogOptions {
  source: GatewayCatalogSource;
  /** Serve upstream resources and resource templates. */
  resources: boolean;
  /** Serve upstream prompts. */
  prompts: boolean;
  /** Where change events go (the gateway server's bus). */
  bus: ServerEventBus;
  /** Naming of prompts (as for tools). @default core's default naming */
  naming?: ToolNamingOptions;
  logger: Logger;
}

/** The `_meta` key naming the upstream server of a listed resource, template or prompt. */
export const upstreamMetaKey = 'switchboard/server';

interface Route {
  server: string;
  /** The URI (or prompt name) as the upstream knows it. */
  upstream: string;
}

const serverPrefixSeparator = '+';

/** What one catalog wants to hear from an upstream's notifications. */
interface UpstreamListener {
  listsChanged(kinds: { resources: boolean; prompts: boolean }): void;
  resourceUpdated(server: string, uri: string): void;
}

type NotificationTarget = NonNullable<GatewayUpstreamClient['sdkClient']>;

// Per SDK client, the catalogs listening to it: an SDK client holds one handler per notification,
// and several gateways may serve one `connectMcp` set.
const listenersBySdkClient = new WeakMap<NotificationTarget, Set<UpstreamListener>>();

/** Registers a notification handler on an SDK client of either major version (v2: by method, v1: by schema). */
function onUpstreamNotification(
  sdk: NotificationTarget,
  method: string,
  schema: unknown,
  handler: (notification: { params?: Record<string, unknown> }) => void,
): void {
  const register = sdk.setNotificationHandler as (key: unknown, handler: unknown) => void;
  try {
    register.call(sdk, method, handler);
  } catch {
    // SDK v1 takes the notification's schema instead of its method.
    register.call(sdk, schema, handler);
  }
}

function upstreamListeners(server: string, sdk: NotificationTarget): Set<UpstreamListener> {
  let listeners = listenersBySdkClient.get(sdk);
  if (listeners !== undefined) return listeners;
  const created = new Set<UpstreamListener>();
  listeners = created;
  listenersBySdkClient.set(sdk, created);
  onUpstreamNotification(
    sdk,
    'notifications/resources/list_changed',
    ResourceListChangedNotificationSchema,
    () => {
      for (const listener of created) listener.listsChanged({ resources: true, prompts: false });
    },
  );
  onUpstreamNotification(
    sdk,
    'notifications/prompts/list_changed',
    PromptListChangedNotificationSchema,
    () => {
      for (const listener of created) listener.listsChanged({ resources: false, prompts: true });
    },
  );
  // connectMcp's clients have no resource-updated listener of their own; the gateway takes it.
  onUpstreamNotification(
    sdk,
    'notifications/resources/updated',
    ResourceUpdatedNotificationSchema,
    (notification) => {
      const uri = notification.params?.uri;
      if (typeof uri === 'string') for (const listener of created) listener.resourceUpdated(server, uri);
    },
  );
  return created;
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
  readonly #hooked = new Set<Set<UpstreamListener>>();
  readonly #resourceRoutes = new Map<string, Route>();
  readonly #templateRoutes: Array<{
    exposed: string;
    template: UriTemplate;
    route: Route;
    prefixed: boolean;
  }> = [];
  readonly #promptRoutes = new Map<string, Route>();
  readonly #listener: UpstreamListener;
  #known = new Map<string, GatewayUpstreamClient>();
  #syncScheduled = false;

  constructor(options: GatewayCatalogOptions) {
    this.#options = options;
    this.#listener = {
      listsChanged: (kinds) => this.#listsChanged(kinds),
      resourceUpdated: (server, upstreamUri) => {
        for (const uri of [upstreamUri, `${server}${serverPrefixSeparator}${upstreamUri}`]) {
          if (this.#routeOf(uri)?.server === server)
            this.#options.bus.publish({ kind: 'resource_updated', uri });
        }
      },
    };
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
      if (changed) this.#listsChanged({ resources: true, prompts: true });
    });
  }

  /** Stops listening to upstream notifications. */
  close(): void {
    for (const listeners of this.#hooked) listeners.delete(this.#listener);
    this.#hooked.clear();
  }

  async listResources(): Promise<Resource[]> {
    if (!this.#options.resources) return [];
    const entries = exposeUris(
      await this.#gather('resources', 'resources/list', (client) => client.listResources()),
      (resource) => resource.uri,
    );
    this.#resourceRoutes.clear();
    return entries.map(({ server, item, exposed }) => {
      this.#resourceRoutes.set(exposed, { server, upstream: item.uri });
      return { ...withServerMeta(item, server), uri: exposed };
    });
  }

  async listResourceTemplates(): Promise<ResourceTemplate[]> {
    if (!this.#options.resources) return [];
    const entries = exposeUris(
      await this.#gather('resources', 'resources/templates/list', (client) => client.listResourceTemplates()),
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

  async readResource(uri: string): Promise<ReadResourceResult | undefined> {
    if (!this.#options.resources) return undefined;
    const route = await this.#resolveUri(uri);
    const client = this.#clientOf(route, 'resources/read', uri);
    let result: ReadResourceResult;
    try {
      result = await client.readResource(route.upstream);
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
    const route = await this.#resolveUri(uri);
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

  async listPrompts(): Promise<Prompt[]> {
    if (!this.#options.prompts) return [];
    const entries = await this.#gather('prompts', 'prompts/list', (client) => client.listPrompts());
    this.#promptRoutes.clear();
    return entries.map(({ server, item }) => {
      const base = createToolName({ server, tool: item.name }, this.#options.naming);
      let name = base;
      // Two prompts that sanitise to one name: later ones get a counter (stable in list order).
      for (let suffix = 2; this.#promptRoutes.has(name); suffix++) name = `${base}_${suffix}`;
      this.#promptRoutes.set(name, { server, upstream: item.name });
      return { ...withServerMeta(item, server), name };
    });
  }

  async getPrompt(name: string, args: Record<string, string>): Promise<GetPromptResult | undefined> {
    if (!this.#options.prompts) return undefined;
    let route = this.#promptRoutes.get(name);
    if (route === undefined) {
      await this.listPrompts();
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
      return await client.getPrompt(route.upstream, args);
    } catch (error) {
      throw upstreamError(route.server, 'prompts/get', name, error);
    }
  }

  async completePromptArgument(
    name: string,
    argument: CompletionArgument,
  ): Promise<CompleteResult | undefined> {
    if (!this.#options.prompts) return undefined;
    if (!this.#promptRoutes.has(name)) await this.listPrompts();
    const route = this.#promptRoutes.get(name);
    return route === undefined
      ? undefined
      : this.#complete(route, { type: 'ref/prompt', name: route.upstream }, argument, name);
  }

  async completeTemplateArgument(
    uriTemplate: string,
    argument: CompletionArgument,
  ): Promise<CompleteResult | undefined> {
    if (!this.#options.resources) return undefined;
    if (!this.#templateRoutes.some((entry) => entry.exposed === uriTemplate))
      await this.listResourceTemplates();
    const route = this.#templateRoutes.find((entry) => entry.exposed === uriTemplate)?.route;
    return route === undefined
      ? undefined
      : this.#complete(route, { type: 'ref/resource', uri: route.upstream }, argument, uriTemplate);
  }

  /** Completion asked of the upstream (an upstream without completion offers no values). */
  async #complete(
    route: Route,
    ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string },
    argument: CompletionArgument,
    target: string,
  ): Promise<CompleteResult> {
    const empty: CompleteResult = { completion: { values: [], total: 0, hasMore: false } };
    const client = this.#upstreams().get(route.server);
    if (client?.complete === undefined || client.capabilities?.completions === undefined) return empty;
    try {
      return await client.complete({
        ref,
        argument: { name: argument.name, value: argument.value },
        context: { arguments: argument.context },
      } as Parameters<NonNullable<GatewayUpstreamClient['complete']>>[0]);
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

  #hook(server: string, client: GatewayUpstreamClient): void {
    if (!this.#hookedClients.has(client)) {
      this.#hookedClients.add(client);
      client.onClose?.(() => this.sync());
    }
    const sdk = client.sdkClient;
    if (sdk === undefined) return;
    const listeners = upstreamListeners(server, sdk);
    listeners.add(this.#listener);
    this.#hooked.add(listeners);
  }

  #listsChanged(kinds: { resources: boolean; prompts: boolean }): void {
    if (kinds.resources && this.#options.resources)
      this.#options.bus.publish({ kind: 'resources_list_changed' });
    if (kinds.prompts && this.#options.prompts) this.#options.bus.publish({ kind: 'prompts_list_changed' });
  }

  /** Fans `list` out to every upstream that may have `capability`; failures are logged and left out. */
  async #gather<T>(
    capability: keyof ServerCapabilities,
    operation: string,
    list: (client: GatewayUpstreamClient) => Promise<T[]>,
  ): Promise<Array<{ server: string; item: T }>> {
    const results = await Promise.all(
      [...this.#upstreams()].map(async ([server, client]) => {
        if (client.capabilities !== undefined && client.capabilities[capability] === undefined) return [];
        try {
          return (await list(client)).map((item) => ({ server, item }));
        } catch (error) {
          this.#options.logger.warn(
            { server, operation, error: error instanceof Error ? error.message : String(error) },
            `gateway: ${operation} of upstream "${server}" failed; serving the others`,
          );
          return [];
        }
      }),
    );
    return results.flat();
  }

  /** The upstream of an exposed URI from the latest lists, or from an explicit `<server>+` prefix. */
  #routeOf(uri: string): Route | undefined {
    const listed = this.#resourceRoutes.get(uri);
    if (listed !== undefined) return listed;
    let best: string | undefined;
    for (const server of this.#known.size > 0 ? this.#known.keys() : (this.#options.source.servers ?? [])) {
      if (uri.startsWith(`${server}${serverPrefixSeparator}`) && server.length > (best?.length ?? -1))
        best = server;
    }
    if (best !== undefined) return { server: best, upstream: uri.slice(best.length + 1) };
    for (const { template, route, prefixed } of this.#templateRoutes) {
      if (template.match(uri) === null) continue;
      return { server: route.server, upstream: prefixed ? uri.slice(route.server.length + 1) : uri };
    }
    return undefined;
  }

  async #resolveUri(uri: string): Promise<Route> {
    let route = this.#routeOf(uri);
    if (route === undefined) {
      // The client may read without listing first (or the lists changed): look again.
      await Promise.all([this.listResources(), this.listResourceTemplates()]);
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

/** Exposed URIs: the upstream's own when unique among upstreams, else `<server>+<uri>`. */
function exposeUris<T>(
  entries: Array<{ server: string; item: T }>,
  uriOf: (item: T) => string,
): Array<{ server: string; item: T; exposed: string; prefixed: boolean }> {
  const owners = new Map<string, Set<string>>();
  for (const { server, item } of entries) {
    const uri = uriOf(item);
    owners.set(uri, (owners.get(uri) ?? new Set()).add(server));
  }
  return entries.map(({ server, item }) => {
    const uri = uriOf(item);
    const prefixed = (owners.get(uri)?.size ?? 0) > 1;
    return { server, item, exposed: prefixed ? `${server}${serverPrefixSeparator}${uri}` : uri, prefixed };
  });
}

function withServerMeta<T extends { _meta?: Record<string, unknown> }>(item: T, server: string): T {
  return { ...item, _meta: { ...item._meta, [upstreamMetaKey]: server } };
}
