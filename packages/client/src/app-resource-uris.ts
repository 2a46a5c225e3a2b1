/**
 * Whose `ui://` resource is whose, when many servers sit on one connection (or behind one
 * gateway). MCP Apps resources are found through tools — a tool's `_meta.ui.resourceUri` — and a
 * server may leave them out of `resources/list`, so ownership is read from the registered tools:
 * a `ui://` URI is owned by every server whose tools name it. A URI with one owner is exposed as
 * it is; a URI two servers' tools name (two copies of one App server, say) is exposed per server as
 * `ui://<server>+<rest>` — still a `ui://` URI, which hosts require, and reversible. The rule is the
 * catalogue's (`cross-server-catalog.ts`) and the gateway's, for the tools' `_meta.ui` and the
 * resources alike, so the URI a tool names is always one the resources answer to.
 */
import {
  appUriScheme,
  isAppResourceUri,
  legacyAppResourceUriKey,
  type RegisteredTool,
  type ToolRegistry,
} from '@switchboard/core';

/** What separates a server name from a URI in a namespaced URI (`everything+demo://…`). */
export const serverUriSeparator = '+';

/**
 * `uri` addressed to one server: `<server>+<uri>`, or `ui://<server>+<rest>` for a `ui://` URI
 * (a host renders only URIs that start with `ui://`).
 */
export function prefixServerUri(server: string, uri: string): string {
  return uri.startsWith(appUriScheme)
    ? `${appUriScheme}${server}${serverUriSeparator}${uri.slice(appUriScheme.length)}`
    : `${server}${serverUriSeparator}${uri}`;
}

/** The server named by an explicit prefix of a URI, in either form (the longest known name wins). */
export function serverOfPrefixedUri(
  uri: string,
  servers: Iterable<string>,
): { server: string; uri: string } | undefined {
  const app = uri.startsWith(appUriScheme);
  const rest = app ? uri.slice(appUriScheme.length) : uri;
  let best: string | undefined;
  for (const server of servers) {
    if (rest.startsWith(`${server}${serverUriSeparator}`) && server.length > (best?.length ?? -1))
      best = server;
  }
  if (best === undefined) return undefined;
  const own = rest.slice(best.length + serverUriSeparator.length);
  return { server: best, uri: app ? `${appUriScheme}${own}` : own };
}

/** Which servers' tools name which `ui://` URIs, kept in step with a registry. */
export interface AppUriOwnership {
  /** The servers whose tools name `uri` (empty when none does). */
  owners(uri: string): ReadonlySet<string>;
  /** The URI `server`'s `uri` is exposed as: its own with one owner, `ui://<server>+…` with several. */
  exposedUri(server: string, uri: string): string;
  /** Hears of URIs whose owners changed (after the registry change that did it); returns the unsubscribe. */
  onChange(listener: (uris: readonly string[]) => void): () => void;
  /** Stops following the registry. */
  stop(): void;
}

const noOwners: ReadonlySet<string> = new Set();

/**
 * Follows `registry`'s tools and their app metadata. Subscribe to the registry after creating it,
 * so that a listener of yours already sees the change in ownership a registry event brings.
 */
export function followAppUriOwners(registry: ToolRegistry): AppUriOwnership {
  // uri → server → how many of that server's tools name it.
  const counts = new Map<string, Map<string, number>>();
  let listeners: Array<(uris: readonly string[]) => void> = [];

  const change = (tool: RegisteredTool, delta: 1 | -1, changed: Set<string>) => {
    const uri = tool.app?.resourceUri;
    if (!isAppResourceUri(uri)) return;
    let servers = counts.get(uri);
    if (servers === undefined) {
      servers = new Map();
      counts.set(uri, servers);
    }
    const before = servers.get(tool.server) ?? 0;
    const after = before + delta;
    if (after <= 0) servers.delete(tool.server);
    else servers.set(tool.server, after);
    if ((before === 0) !== after <= 0) changed.add(uri);
    if (servers.size === 0) counts.delete(uri);
  };

  const initial = new Set<string>();
  for (const tool of registry.list()) change(tool, 1, initial);
  const unsubscribe = registry.subscribe((event) => {
    const changed = new Set<string>();
    if (event.type === 'removed') change(event.tool, -1, changed);
    else if (event.type === 'added') change(event.tool, 1, changed);
    else {
      change(event.previous, -1, changed);
      change(event.tool, 1, changed);
    }
    if (changed.size === 0) return;
    const uris = [...changed];
    for (const listener of listeners) listener(uris);
  });

  const owners = (uri: string): ReadonlySet<string> => {
    const servers = counts.get(uri);
    return servers === undefined ? noOwners : new Set(servers.keys());
  };
  return {
    owners,
    exposedUri(server, uri) {
      const servers = counts.get(uri);
      // Named by this server's tools alone (or by none): the URI as the server gave it.
      if (servers === undefined || (servers.size === 1 && servers.has(server))) return uri;
      return prefixServerUri(server, uri);
    },
    onChange(listener) {
      listeners = [...listeners, listener];
      return () => {
        listeners = listeners.filter((candidate) => candidate !== listener);
      };
    },
    stop: unsubscribe,
  };
}

/**
 * The app metadata and `_meta` of a tool with its `ui://` URI exposed as `exposed` (`undefined`:
 * as they are): both spellings
 * rewritten (`_meta.ui.resourceUri` and the flat `_meta["ui/resourceUri"]`, where present), every
 * other field kept as the server sent it.
 */
export function withExposedAppUri(
  tool: RegisteredTool,
  exposed: string | undefined,
): Pick<RegisteredTool, 'app' | 'meta'> {
  const kept: Pick<RegisteredTool, 'app' | 'meta'> = {};
  if (tool.app !== undefined) kept.app = tool.app;
  if (tool.meta !== undefined) kept.meta = tool.meta;
  if (exposed === undefined || tool.app?.resourceUri === undefined || tool.app.resourceUri === exposed)
    return kept;
  const meta = (tool.meta as { _meta?: Record<string, unknown> } | undefined)?._meta;
  const rewritten: Record<string, unknown> = { ...meta };
  const ui = rewritten.ui;
  if (typeof ui === 'object' && ui !== null && !Array.isArray(ui) && 'resourceUri' in ui) {
    rewritten.ui = { ...(ui as Record<string, unknown>), resourceUri: exposed };
  }
  if (rewritten[legacyAppResourceUriKey] !== undefined) rewritten[legacyAppResourceUriKey] = exposed;
  return { app: { ...tool.app, resourceUri: exposed }, meta: { ...tool.meta, _meta: rewritten } };
}
