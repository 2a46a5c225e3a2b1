/**
 * The resources and prompts of every server of a connection, as one catalogue: lists fan out to
 * the connected servers (each bounded, so one slow server leaves out only its own items), reads
 * and gets go to the server that owns the URI or prompt.
 *
 * Naming is the gateway's (`@switchboard/server` imports these rules from here, so a URI or prompt
 * name means the same through a gateway as in the client):
 * - a resource URI (or template) stays as its server gave it when exactly one server lists it —
 *   models and people recognise `file:///…` — and only a URI two servers list becomes
 *   `<server>+<uri>`; the prefixed form is accepted for any URI, to address one server;
 * - an MCP Apps `ui://` URI belongs to the servers whose tools name it, listed or not, and two
 *   owners make it `ui://<server>+<rest>` (`app-resource-uris.ts`: tools and resources agree);
 * - prompt names are namespaced like tools (`mcp__<server>__<prompt>`): a prompt name means
 *   nothing outside its server.
 * Every listed item carries `_meta["switchboard/server"]`.
 */

import {
  type GetPromptResult,
  type Prompt,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplateType as ResourceTemplate,
  UriTemplate,
} from '@modelcontextprotocol/client';
import { createToolName, type Logger, type ToolNamingOptions } from '@switchboard/core';
import { type AppUriOwnership, prefixServerUri, serverOfPrefixedUri } from './app-resource-uris.js';
import { ClientError, ClientErrorCode } from './client-error.js';
import type { McpClient } from './mcp-client.js';

/** The `_meta` key naming the server of a listed resource, template or prompt. */
export const serverMetaKey = 'switchboard/server';

/** An item of one server, and the name or URI it is exposed as. */
export interface ExposedItem<T> {
  server: string;
  item: T;
  exposed: string;
  /** True when the exposed URI carries the server prefix. */
  prefixed: boolean;
}

/**
 * Exposed URIs: the server's own when unique among servers, else addressed to its server
 * (`<server>+<uri>`; `ui://<server>+<rest>` for an app resource). A `ui://` URI that tools name is
 * owned by the servers whose tools name it (`appUris`, so a tool's `_meta.ui.resourceUri` and the
 * resource agree), whether or not they list it; other URIs by the servers that list them.
 */
export function exposeServerUris<T>(
  entries: ReadonlyArray<{ server: string; item: T }>,
  uriOf: (item: T) => string,
  appUris?: Pick<AppUriOwnership, 'owners' | 'exposedUri'>,
): Array<ExposedItem<T>> {
  const owners = new Map<string, Set<string>>();
  for (const { server, item } of entries) {
    const uri = uriOf(item);
    owners.set(uri, (owners.get(uri) ?? new Set()).add(server));
  }
  return entries.map(({ server, item }) => {
    const uri = uriOf(item);
    if (appUris !== undefined && appUris.owners(uri).size > 0) {
      const exposed = appUris.exposedUri(server, uri);
      return { server, item, exposed, prefixed: exposed !== uri };
    }
    const prefixed = (owners.get(uri)?.size ?? 0) > 1;
    return { server, item, exposed: prefixed ? prefixServerUri(server, uri) : uri, prefixed };
  });
}

/** Exposed prompt names: namespaced like tools; two that sanitise alike get a counter, stable in list order. */
export function exposePromptNames<T extends { name: string }>(
  entries: ReadonlyArray<{ server: string; item: T }>,
  naming?: ToolNamingOptions,
): Array<ExposedItem<T>> {
  const taken = new Set<string>();
  return entries.map(({ server, item }) => {
    const base = createToolName({ server, tool: item.name }, naming);
    let name = base;
    for (let suffix = 2; taken.has(name); suffix++) name = `${base}_${suffix}`;
    taken.add(name);
    return { server, item, exposed: name, prefixed: true };
  });
}

/** Adds `_meta["switchboard/server"]` to a listed item. */
export function withServerMeta<T extends { _meta?: Record<string, unknown> | undefined }>(
  item: T,
  server: string,
): T {
  return { ...item, _meta: { ...item._meta, [serverMetaKey]: server } };
}

/** Where the catalogue finds the servers (a `connectMcp` connection fits). */
export interface CatalogSource {
  readonly servers: readonly string[];
  /** Which servers' tools name which `ui://` URIs (MCP Apps resources a server may not list). @default none */
  readonly appUris?: Pick<AppUriOwnership, 'owners' | 'exposedUri'>;
  client(
    server: string,
  ):
    | Pick<
        McpClient,
        | 'listResources'
        | 'listResourceTemplates'
        | 'readResource'
        | 'listPrompts'
        | 'getPrompt'
        | 'capabilities'
      >
    | undefined;
}

/** Options of {@link createCrossServerCatalog}. */
export interface CrossServerCatalogOptions {
  /** Naming of prompts (as for tools). @default core's default naming */
  naming?: ToolNamingOptions;
  /** How long one server may take to answer a list before it is left out of that answer. @default 5000 */
  listTimeoutMs?: number;
  logger: Logger;
}

/** The resources and prompts of many servers. */
export interface CrossServerCatalog {
  listResources(): Promise<Resource[]>;
  listResourceTemplates(): Promise<ResourceTemplate[]>;
  /** Reads a resource by its listed URI (or `<server>+<uri>`); its contents carry the URI asked for. */
  readResource(uri: string): Promise<ReadResourceResult>;
  listPrompts(): Promise<Prompt[]>;
  /** Gets a prompt by its listed (namespaced) name. */
  getPrompt(name: string, args?: Record<string, string>): Promise<GetPromptResult>;
}

type Lister<T> = (client: NonNullable<ReturnType<CatalogSource['client']>>) => Promise<T[]>;

/** A catalogue over a connection's servers. */
export function createCrossServerCatalog(
  source: CatalogSource,
  options: CrossServerCatalogOptions,
): CrossServerCatalog {
  const listTimeoutMs = options.listTimeoutMs ?? 5000;
  const resourceRoutes = new Map<string, { server: string; uri: string }>();
  const promptRoutes = new Map<string, { server: string; name: string }>();

  /** Every connected server's items of one kind; a server that fails or is slow is logged and left out. */
  const gather = async <T>(
    kind: 'resources' | 'prompts',
    list: Lister<T>,
  ): Promise<Array<{ server: string; item: T }>> => {
    const servers = source.servers.flatMap((server) => {
      const client = source.client(server);
      return client?.capabilities?.[kind] === undefined || client === undefined ? [] : [{ server, client }];
    });
    const answers = await Promise.all(
      servers.map(async ({ server, client }) => {
        let timer: NodeJS.Timeout | undefined;
        try {
          const items = await Promise.race([
            list(client),
            new Promise<never>((_, reject) => {
              timer = setTimeout(
                () => reject(new Error(`no answer within ${listTimeoutMs} ms`)),
                listTimeoutMs,
              );
            }),
          ]);
          return items.map((item) => ({ server, item }));
        } catch (error) {
          options.logger.warn(
            { server, kind, error: error instanceof Error ? error.message : String(error) },
            `listing ${kind} of MCP server "${server}" failed; left out`,
          );
          return [];
        } finally {
          clearTimeout(timer);
        }
      }),
    );
    return answers.flat();
  };

  const clientOf = (server: string, operation: string, target: string) => {
    const client = source.client(server);
    if (client === undefined) {
      throw new ClientError({
        code: ClientErrorCode.ConnectionClosed,
        message: `${operation} "${target}": MCP server "${server}" is not connected; try again once it is back.`,
        context: { server, operation, target },
      });
    }
    return client;
  };

  const listResources = async (): Promise<Resource[]> => {
    const exposed = exposeServerUris(
      await gather('resources', (client) => client.listResources()),
      (resource) => resource.uri,
      source.appUris,
    );
    resourceRoutes.clear();
    return exposed.map(({ server, item, exposed: uri }) => {
      resourceRoutes.set(uri, { server, uri: item.uri });
      return { ...withServerMeta(item, server), uri };
    });
  };

  let templates: Array<{ server: string; template: UriTemplate; prefixed: boolean }> = [];
  const listResourceTemplates = async (): Promise<ResourceTemplate[]> => {
    const exposed = exposeServerUris(
      await gather('resources', (client) => client.listResourceTemplates()),
      (template) => template.uriTemplate,
    );
    templates = exposed.map(({ server, exposed: uriTemplate, prefixed }) => ({
      server,
      template: new UriTemplate(uriTemplate),
      prefixed,
    }));
    return exposed.map(({ server, item, exposed: uriTemplate }) => ({
      ...withServerMeta(item, server),
      uriTemplate,
    }));
  };

  const routeOf = (uri: string): { server: string; uri: string } | undefined => {
    const listed = resourceRoutes.get(uri);
    if (listed !== undefined) return listed;
    const prefixed = serverOfPrefixedUri(uri, source.servers);
    if (prefixed !== undefined) return prefixed;
    // An app resource its server does not list: the one server whose tools name it.
    const [owner, ...others] = source.appUris?.owners(uri) ?? [];
    if (owner !== undefined && others.length === 0) return { server: owner, uri };
    const template = templates.find((entry) => entry.template.match(uri) !== null);
    if (template === undefined) return undefined;
    const own = template.prefixed ? serverOfPrefixedUri(uri, [template.server])?.uri : undefined;
    return { server: template.server, uri: own ?? uri };
  };

  const listPrompts = async (): Promise<Prompt[]> => {
    const exposed = exposePromptNames(
      await gather('prompts', (client) => client.listPrompts()),
      options.naming,
    );
    promptRoutes.clear();
    return exposed.map(({ server, item, exposed: name }) => {
      promptRoutes.set(name, { server, name: item.name });
      return { ...withServerMeta(item, server), name };
    });
  };

  return {
    listResources,
    listResourceTemplates,
    async readResource(uri) {
      let route = routeOf(uri);
      if (route === undefined) {
        // Read without listing first, or the lists changed: look again.
        await Promise.all([listResources(), listResourceTemplates()]);
        route = routeOf(uri);
      }
      if (route === undefined) {
        throw new ClientError({
          code: ClientErrorCode.ResourceNotFound,
          message: `Resource not found: "${uri}". No connected MCP server (${source.servers.join(', ') || 'none'}) lists it or has a template that matches it; see listResources() and listResourceTemplates().`,
          context: { uri },
        });
      }
      const result = await clientOf(route.server, 'resources/read', uri).readResource(route.uri);
      if (route.uri === uri) return result;
      const upstream = route.uri;
      return {
        ...result,
        contents: result.contents.map((content) =>
          content.uri === upstream ? { ...content, uri } : content,
        ),
      };
    },
    listPrompts,
    async getPrompt(name, args = {}) {
      if (!promptRoutes.has(name)) await listPrompts();
      const route = promptRoutes.get(name);
      if (route === undefined) {
        const names = [...promptRoutes.keys()];
        throw new ClientError({
          code: ClientErrorCode.PromptNotFound,
          message: `No prompt "${name}" on these MCP servers. ${names.length > 0 ? `Known prompts: ${names.slice(0, 20).join(', ')}${names.length > 20 ? ', …' : ''}.` : 'No connected server has prompts.'}`,
          context: { prompt: name },
        });
      }
      return clientOf(route.server, 'prompts/get', name).getPrompt(route.name, args);
    },
  };
}
