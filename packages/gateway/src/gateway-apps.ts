/**
 * MCP Apps through a gateway. The gateway stays transparent — an upstream's tools, their `_meta`
 * and its `ui://` resources reach the downstream as the upstream sent them — except where two
 * upstreams would collide, and where an app's own calls need the gateway to find their upstream:
 *
 * - URIs: a `ui://` URI the tools of two upstreams name (two copies of one App server) is exposed
 *   per upstream as `ui://<server>+<rest>`, in the tools' `_meta.ui.resourceUri` (and the legacy
 *   flat key) and in the resources alike (the client's `app-resource-uris.ts` rule, which the
 *   catalogue applies too); every other `_meta.ui` field is kept. When ownership changes (an
 *   upstream arrives or leaves), the tools that name the URI are served again, rewritten.
 * - Calls: an app calls tools by its server's names (`poll-system-stats`), and its host sends the
 *   call to the gateway as it is. A name no served tool has is looked up among the upstreams that
 *   serve apps (their tools name a `ui://` resource), as a tool an app may call; the public name of
 *   an app-only tool is accepted too (with `--select` such tools are never listed). Two app
 *   upstreams offering the name are refused by name: the gateway cannot tell whose app called.
 */
import { type AppUriOwnership, followAppUriOwners, withExposedAppUri } from '@switchboard/client';
import { isAppCallable, isModelFacing, type RegisteredTool, type ToolRegistry } from '@switchboard/core';
import { ServerError, ServerErrorCode } from '@switchboard/server';

/** What the gateway keeps of its upstreams' apps. */
export interface GatewayApps {
  /** Which upstreams' tools name which `ui://` URIs (the catalogue exposes resources by it). */
  readonly uris: AppUriOwnership;
  /** The app metadata and `_meta` of an upstream tool as served: its `ui://` URI as exposed. */
  served(tool: RegisteredTool): Pick<RegisteredTool, 'app' | 'meta'>;
  /** The upstream tool an app's own call names, when no served tool has that name (see the file's doc). */
  appCallTarget(name: string): RegisteredTool | undefined;
  /** Stops following the upstream registry. */
  stop(): void;
}

/** Follows `upstream` (create it before subscribing to the registry yourself, so ownership is current). */
export function createGatewayApps(upstream: ToolRegistry): GatewayApps {
  const uris = followAppUriOwners(upstream);
  return {
    uris,
    served(tool) {
      const uri = tool.app?.resourceUri;
      return withExposedAppUri(tool, uri === undefined ? undefined : uris.exposedUri(tool.server, uri));
    },
    appCallTarget(name) {
      const byPublicName = upstream.get(name);
      if (byPublicName !== undefined) {
        // A model-facing tool goes through the listed (or discovered) tools, never around them.
        return !isModelFacing(byPublicName) && isAppCallable(byPublicName) ? byPublicName : undefined;
      }
      const tools = upstream.list();
      const appServers = new Set(
        tools.flatMap((tool) => (tool.app?.resourceUri !== undefined ? [tool.server] : [])),
      );
      // By server name: the refusal reads the same whichever upstream connected first.
      const candidates = tools
        .filter((tool) => tool.originalName === name && appServers.has(tool.server) && isAppCallable(tool))
        .sort((a, b) => a.server.localeCompare(b.server));
      if (candidates.length <= 1) return candidates[0];
      const servers = candidates.map((tool) => tool.server);
      throw new ServerError({
        code: ServerErrorCode.ToolNotFound,
        message: `Tool "${name}" is offered by the apps of upstream servers ${servers.map((server) => `"${server}"`).join(' and ')}; an app's call names no server, so the gateway cannot tell whose app called. Call one by its public name (${candidates.map((tool) => tool.name).join(', ')}), or serve these upstreams through separate gateways.`,
        context: { tool: name, servers },
      });
    },
    stop: () => uris.stop(),
  };
}
