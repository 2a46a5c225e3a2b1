/**
 * The resources, resource templates and prompts of a gateway's upstream servers, served on the
 * gateway's sessions: lists fan out to every connected upstream, reads and gets are routed to the
 * upstream that owns the URI or prompt, and upstream `list_changed` / `resources/updated`
 * notifications reach downstream sessions.
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
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import {
  CompleteRequestSchema,
  type CompleteResult,
  ErrorCode,
  GetPromptRequestSchema,
  type GetPromptResult,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  type Prompt,
  PromptListChangedNotificationSchema,
  ReadResourceRequestSchema,
  type ReadResourceResult,
  type Resource,
  ResourceListChangedNotificationSchema,
  type ResourceTemplate,
  ResourceUpdatedNotificationSchema,
  type ServerCapabilities,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { McpClient } from '@switchboard/client';
import { createToolName, type Logger, SwitchboardError, type ToolNamingOptions } from '@switchboard/core';
import type { z } from 'zod';
import { lenient, parseParams } from './mcp-server.js';

/** What the gateway needs of one upstream server's client (an `McpClient` of `@switchboard/client` fits). */
export type GatewayUpstreamClient = Pick<
  McpClient,
  'listResources' | 'listResourceTemplates' | 'readResource' | 'listPrompts' | 'getPrompt'
> &
  Partial<
    Pick<
      McpClient,
      'capabilities' | 'connected' | 'subscribeResource' | 'unsubscribeResource' | 'complete' | 'onClose'
    >
  > & {
    /** The SDK client, used to receive the upstream's `list_changed` and `resources/updated`. */
    readonly sdkClient?: Pick<McpClient['sdkClient'], 'setNotificationHandler'>;
  };

/** Where the catalog finds the upstream servers. */
export interface GatewayCatalogSource {
  readonly servers?: readonly string[];
  client?(server: string): GatewayUpstreamClient | undefined;
}

/** Options of {@link createGatewayCatalog}. */
export interface GatewayCatalogOptions {
  source: GatewayCatalogSource;
  /** Serve upstream resources and resource templates. */
  resources: boolean;
  /** Serve upstream prompts. */
  prompts: boolean;
  /** Naming of prompts (as for tools). @default core's default naming */
  naming?: ToolNamingOptions;
  logger: Logger;
}

/** The `_meta` key naming the upstream server of a listed resource, template or prompt. */
export const upstreamMetaKey = 'switchboard/server';

/** Upstream resources and prompts served on gateway sessions. */
export interface GatewayCatalog {
  /** Registers the capabilities and handlers on a session's protocol (before it connects). */
  attach(protocol: Server, stateless: boolean): void;
  /** Notices upstreams that came, went or reconnected, and tells sessions their lists changed. */
  sync(): void;
  listResources(): Promise<Resource[]>;
  listResourceTemplates(): Promise<ResourceTemplate[]>;
  readResource(uri: string): Promise<ReadResourceResult>;
  listPrompts(): Promise<Prompt[]>;
  getPrompt(name: string, args?: Record<string, string>): Promise<GetPromptResult>;
  /** Stops listening to upstream notifications. */
  close(): void;
}

interface Route {
  server: string;
  /** The URI (or prompt name) as the upstream knows it. */
  upstream: string;
}

interface SessionEntry {
  protocol: Server;
  stateless: boolean;
  initialized: boolean;
  subscriptions: Set<string>;
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

function upstreamListeners(server: string, sdk: NotificationTarget): Set<UpstreamListener> {
  let listeners = listenersBySdkClient.get(sdk);
  if (listeners !== undefined) return listeners;
  const created = new Set<UpstreamListener>();
  listeners = created;
  listenersBySdkClient.set(sdk, created);
  sdk.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
    for (const listener of created) listener.listsChanged({ resources: true, prompts: false });
  });
  sdk.setNotificationHandler(PromptListChangedNotificationSchema, () => {
    for (const listener of created) listener.listsChanged({ resources: false, prompts: true });
  });
  // connectMcp's clients have no resource-updated listener of their own; the gateway takes it.
  sdk.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
    for (const listener of created) listener.resourceUpdated(server, notification.params.uri);
  });
  return created;
}

/** A wire error for a failure of upstream `server` while doing `operation` on `target`. */
function upstreamError(server: string, operation: string, target: string, error: unknown): McpError {
  const wireCode = SwitchboardError.isInstance(error) ? error.context.jsonRpcCode : undefined;
  const code = typeof wireCode === 'number' ? wireCode : ErrorCode.InternalError;
  // The SDK prefixes "MCP error <code>: " at each hop; once (added by McpError below) is enough.
  const message = (error instanceof Error ? error.message : String(error)).replace(/MCP error -?\d+: /g, '');
  return new McpError(
    code,
    `${operation} "${target}" failed on upstream MCP server "${server}": ${message}`,
    { server, operation, target, ...(SwitchboardError.isInstance(error) ? { reason: error.code } : {}) },
  );
}

/** Creates the catalog of a gateway's upstream resources and prompts. */
export function createGatewayCatalog(options: GatewayCatalogOptions): GatewayCatalog {
  const { source, logger } = options;
  const sessions = new Set<SessionEntry>();
  const hookedClients = new WeakSet<object>();
  let known = new Map<string, GatewayUpstreamClient>();
  const resourceRoutes = new Map<string, Route>();
  const templateRoutes: Array<{ exposed: string; template: UriTemplate; route: Route; prefixed: boolean }> =
    [];
  const promptRoutes = new Map<string, Route>();

  function upstreams(): Map<string, GatewayUpstreamClient> {
    const result = new Map<string, GatewayUpstreamClient>();
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
      hook(server, client);
    }
    return result;
  }

  function broadcast(send: (session: SessionEntry) => Promise<void>): void {
    for (const session of sessions) {
      if (session.stateless || !session.initialized) continue;
      send(session).catch((error: unknown) => {
        logger.debug({ error: String(error) }, 'could not notify a gateway session');
      });
    }
  }

  function listsChanged(kinds: { resources: boolean; prompts: boolean }): void {
    if (kinds.resources && options.resources)
      broadcast((session) => session.protocol.sendResourceListChanged());
    if (kinds.prompts && options.prompts) broadcast((session) => session.protocol.sendPromptListChanged());
  }

  // Many events arrive together (a server's tools replaced, a crash): compare once per tick.
  let syncScheduled = false;
  function sync(): void {
    if (syncScheduled) return;
    syncScheduled = true;
    queueMicrotask(() => {
      syncScheduled = false;
      const current = upstreams();
      const changed =
        current.size !== known.size || [...current].some(([server, client]) => known.get(server) !== client);
      known = current;
      if (changed) listsChanged({ resources: true, prompts: true });
    });
  }

  const listener: UpstreamListener = {
    listsChanged,
    resourceUpdated(server, upstreamUri) {
      const exposed = new Set([upstreamUri, `${server}${serverPrefixSeparator}${upstreamUri}`]);
      for (const session of sessions) {
        for (const uri of exposed) {
          if (!session.subscriptions.has(uri) || routeOf(uri)?.server !== server) continue;
          session.protocol.sendResourceUpdated({ uri }).catch(() => {});
        }
      }
    },
  };
  const hooked = new Set<Set<UpstreamListener>>();

  function hook(server: string, client: GatewayUpstreamClient): void {
    if (!hookedClients.has(client)) {
      hookedClients.add(client);
      client.onClose?.(() => sync());
    }
    const sdk = client.sdkClient;
    if (sdk === undefined) return;
    const listeners = upstreamListeners(server, sdk);
    listeners.add(listener);
    hooked.add(listeners);
  }

  /** Fans `list` out to every upstream that may have `capability`; failures are logged and left out. */
  async function gather<T>(
    capability: keyof ServerCapabilities,
    operation: string,
    list: (client: GatewayUpstreamClient) => Promise<T[]>,
  ): Promise<Array<{ server: string; item: T }>> {
    const current = upstreams();
    const results = await Promise.all(
      [...current].map(async ([server, client]) => {
        if (client.capabilities !== undefined && client.capabilities[capability] === undefined) return [];
        try {
          return (await list(client)).map((item) => ({ server, item }));
        } catch (error) {
          logger.warn(
            { server, operation, error: error instanceof Error ? error.message : String(error) },
            `gateway: ${operation} of upstream "${server}" failed; serving the others`,
          );
          return [];
        }
      }),
    );
    return results.flat();
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

  const withServerMeta = <T extends { _meta?: Record<string, unknown> }>(item: T, server: string): T => ({
    ...item,
    _meta: { ...item._meta, [upstreamMetaKey]: server },
  });

  async function listResources(): Promise<Resource[]> {
    const entries = exposeUris(
      await gather('resources', 'resources/list', (client) => client.listResources()),
      (resource) => resource.uri,
    );
    resourceRoutes.clear();
    return entries.map(({ server, item, exposed }) => {
      resourceRoutes.set(exposed, { server, upstream: item.uri });
      return { ...withServerMeta(item, server), uri: exposed };
    });
  }

  async function listResourceTemplates(): Promise<ResourceTemplate[]> {
    const entries = exposeUris(
      await gather('resources', 'resources/templates/list', (client) => client.listResourceTemplates()),
      (template) => template.uriTemplate,
    );
    templateRoutes.length = 0;
    return entries.map(({ server, item, exposed, prefixed }) => {
      templateRoutes.push({
        exposed,
        template: new UriTemplate(exposed),
        route: { server, upstream: item.uriTemplate },
        prefixed,
      });
      return { ...withServerMeta(item, server), uriTemplate: exposed };
    });
  }

  /** The upstream of an exposed URI from the latest lists, or from an explicit `<server>+` prefix. */
  function routeOf(uri: string): Route | undefined {
    const listed = resourceRoutes.get(uri);
    if (listed !== undefined) return listed;
    let best: string | undefined;
    for (const server of known.size > 0 ? known.keys() : (source.servers ?? [])) {
      if (uri.startsWith(`${server}${serverPrefixSeparator}`) && server.length > (best?.length ?? -1))
        best = server;
    }
    if (best !== undefined) return { server: best, upstream: uri.slice(best.length + 1) };
    for (const { template, route, prefixed } of templateRoutes) {
      if (template.match(uri) === null) continue;
      return { server: route.server, upstream: prefixed ? uri.slice(route.server.length + 1) : uri };
    }
    return undefined;
  }

  async function resolveUri(uri: string): Promise<Route> {
    let route = routeOf(uri);
    if (route === undefined) {
      // The client may read without listing first (or the lists changed): look again.
      await Promise.all([listResources(), listResourceTemplates()]);
      route = routeOf(uri);
    }
    if (route === undefined) {
      const servers = [...upstreams().keys()];
      throw new McpError(
        -32002,
        `Resource not found: "${uri}". No connected upstream server (${servers.join(', ') || 'none'}) lists it or has a template that matches it; call resources/list and resources/templates/list for what this gateway serves.`,
        { uri, servers },
      );
    }
    return route;
  }

  function clientOf(route: Route, operation: string, target: string): GatewayUpstreamClient {
    const client = upstreams().get(route.server);
    if (client === undefined) {
      throw new McpError(
        ErrorCode.InternalError,
        `${operation} "${target}": upstream MCP server "${route.server}" is not connected (it stopped or was removed); try again once it is back.`,
        { server: route.server, operation, target },
      );
    }
    return client;
  }

  async function readResource(uri: string): Promise<ReadResourceResult> {
    const route = await resolveUri(uri);
    const client = clientOf(route, 'resources/read', uri);
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

  async function listPrompts(): Promise<Prompt[]> {
    const entries = await gather('prompts', 'prompts/list', (client) => client.listPrompts());
    promptRoutes.clear();
    return entries.map(({ server, item }) => {
      const base = createToolName({ server, tool: item.name }, options.naming);
      let name = base;
      // Two prompts that sanitise to one name: later ones get a counter (stable in list order).
      for (let suffix = 2; promptRoutes.has(name); suffix++) name = `${base}_${suffix}`;
      promptRoutes.set(name, { server, upstream: item.name });
      return { ...withServerMeta(item, server), name };
    });
  }

  async function getPrompt(name: string, args?: Record<string, string>): Promise<GetPromptResult> {
    let route = promptRoutes.get(name);
    if (route === undefined) {
      await listPrompts();
      route = promptRoutes.get(name);
    }
    if (route === undefined) {
      const names = [...promptRoutes.keys()];
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown prompt "${name}". ${names.length ? `Available prompts: ${names.slice(0, 20).join(', ')}${names.length > 20 ? ', …' : ''}.` : 'No connected upstream server has prompts.'}`,
        { prompt: name },
      );
    }
    const client = clientOf(route, 'prompts/get', name);
    try {
      return await client.getPrompt(route.upstream, args);
    } catch (error) {
      throw upstreamError(route.server, 'prompts/get', name, error);
    }
  }

  /** Completion of a namespaced prompt's or a template's argument, asked of its upstream. */
  async function complete(params: z.output<typeof CompleteRequestSchema>['params']): Promise<CompleteResult> {
    const empty: CompleteResult = { completion: { values: [], total: 0, hasMore: false } };
    let route: Route | undefined;
    let ref: typeof params.ref;
    if (params.ref.type === 'ref/prompt' ? !options.prompts : !options.resources) return empty;
    if (params.ref.type === 'ref/prompt') {
      const name = params.ref.name;
      if (!promptRoutes.has(name)) await listPrompts();
      route = promptRoutes.get(name);
      ref = { type: 'ref/prompt', name: route?.upstream ?? name };
    } else {
      const uri = params.ref.uri;
      if (!templateRoutes.some((entry) => entry.exposed === uri)) await listResourceTemplates();
      route = templateRoutes.find((entry) => entry.exposed === uri)?.route;
      ref = { type: 'ref/resource', uri: route?.upstream ?? uri };
    }
    if (route === undefined) return empty;
    const client = upstreams().get(route.server);
    // An upstream without completion support offers no values (as a local prompt without completers).
    if (client?.complete === undefined || client.capabilities?.completions === undefined) return empty;
    try {
      return await client.complete({ ...params, ref });
    } catch (error) {
      throw upstreamError(route.server, 'completion/complete', 'name' in ref ? ref.name : ref.uri, error);
    }
  }

  function subscribers(uri: string): number {
    let count = 0;
    for (const session of sessions) if (session.subscriptions.has(uri)) count++;
    return count;
  }

  function attach(protocol: Server, stateless: boolean): void {
    const capabilities: ServerCapabilities = {};
    // Always advertised when enabled: a session's capabilities are fixed at initialize, while
    // upstreams come and go at run time; with none that has them, the lists are empty.
    if (options.resources) capabilities.resources = { subscribe: true, listChanged: true };
    if (options.prompts) capabilities.prompts = { listChanged: true };
    if (!options.resources && !options.prompts) return;
    protocol.registerCapabilities(capabilities);
    const session: SessionEntry = { protocol, stateless, initialized: false, subscriptions: new Set() };
    sessions.add(session);
    const initialized = protocol.oninitialized;
    protocol.oninitialized = () => {
      initialized?.();
      session.initialized = true;
      sync();
    };
    const closed = protocol.onclose;
    protocol.onclose = () => {
      closed?.();
      sessions.delete(session);
      for (const uri of session.subscriptions) void releaseSubscription(uri);
    };

    if (options.resources) {
      protocol.setRequestHandler(lenient('resources/list'), async (request) => {
        parseParams(ListResourcesRequestSchema, request, 'resources/list');
        return { resources: await listResources() };
      });
      protocol.setRequestHandler(lenient('resources/templates/list'), async (request) => {
        parseParams(ListResourceTemplatesRequestSchema, request, 'resources/templates/list');
        return { resourceTemplates: await listResourceTemplates() };
      });
      protocol.setRequestHandler(lenient('resources/read'), async (request) => {
        const { params } = parseParams(ReadResourceRequestSchema, request, 'resources/read');
        return readResource(params.uri);
      });
      protocol.setRequestHandler(lenient('resources/subscribe'), async (request) => {
        const { params } = parseParams(SubscribeRequestSchema, request, 'resources/subscribe');
        const route = await resolveUri(params.uri);
        const client = clientOf(route, 'resources/subscribe', params.uri);
        if (client.subscribeResource === undefined || client.capabilities?.resources?.subscribe !== true) {
          throw new McpError(
            ErrorCode.MethodNotFound,
            `resources/subscribe "${params.uri}": upstream MCP server "${route.server}" does not support resource subscriptions; read the resource again instead.`,
            { server: route.server, uri: params.uri },
          );
        }
        try {
          await client.subscribeResource(route.upstream);
        } catch (error) {
          throw upstreamError(route.server, 'resources/subscribe', params.uri, error);
        }
        session.subscriptions.add(params.uri);
        return {};
      });
      protocol.setRequestHandler(lenient('resources/unsubscribe'), async (request) => {
        const { params } = parseParams(UnsubscribeRequestSchema, request, 'resources/unsubscribe');
        if (session.subscriptions.delete(params.uri)) await releaseSubscription(params.uri);
        return {};
      });
    }
    // The server's own completion handler knows only local prompts and templates.
    protocol.removeRequestHandler('completion/complete');
    protocol.setRequestHandler(lenient('completion/complete'), async (request) => {
      const { params } = parseParams(CompleteRequestSchema, request, 'completion/complete');
      return complete(params);
    });
    if (options.prompts) {
      protocol.setRequestHandler(lenient('prompts/list'), async (request) => {
        parseParams(ListPromptsRequestSchema, request, 'prompts/list');
        return { prompts: await listPrompts() };
      });
      protocol.setRequestHandler(lenient('prompts/get'), async (request) => {
        const { params } = parseParams(GetPromptRequestSchema, request, 'prompts/get');
        return getPrompt(params.name, params.arguments);
      });
    }
  }

  /** Unsubscribes upstream once no session wants `uri` any more. */
  async function releaseSubscription(uri: string): Promise<void> {
    if (subscribers(uri) > 0) return;
    const route = routeOf(uri);
    if (route === undefined) return;
    const client = upstreams().get(route.server);
    await client?.unsubscribeResource?.(route.upstream).catch((error: unknown) => {
      logger.debug({ server: route.server, uri, error: String(error) }, 'upstream unsubscribe failed');
    });
  }

  known = upstreams();
  return {
    attach,
    sync,
    listResources,
    listResourceTemplates,
    readResource,
    listPrompts,
    getPrompt,
    close() {
      for (const listeners of hooked) listeners.delete(listener);
      hooked.clear();
      sessions.clear();
    },
  };
}
