/**
 * Why a tool name `switchboard call` was given is not among the connected servers' tools, as far
 * as the connection and the config can tell: a tool called by its name on its server instead of
 * its namespaced name, a tool that its server's `includeTools` / `excludeTools` leave out, or a
 * server that is not connected. The gateway says the same to its clients (`@switchboard/gateway`'s
 * missing-tool hint); here the config is at hand, so nothing is asked of the servers.
 */
import type { McpConnection, ServerConfig } from '@switchboard/client';
import { createToolFilter, createToolName } from '@switchboard/core';

/** The namespace prefix of `server`'s tools (`mcp__<server>__`), or undefined where none can be made. */
function namespaceOf(server: string): string | undefined {
  try {
    return createToolName({ server, tool: 'x' }).slice(0, -1);
  } catch {
    return undefined;
  }
}

/** A sentence saying why `name` is missing, or undefined when nothing known explains it. */
export function missingToolReason(
  name: string,
  connection: Pick<McpConnection, 'registry' | 'status'>,
  servers: Record<string, ServerConfig>,
): string | undefined {
  const byOriginal = connection.registry.list().filter((tool) => tool.originalName === name);
  if (byOriginal.length > 0) {
    return `Tools are called by their namespaced names: ${byOriginal.map((tool) => `'${tool.name}'`).join(' or ')}.`;
  }
  const status = connection.status() as Record<string, { state?: string } | undefined>;
  for (const [server, entry] of Object.entries(servers)) {
    const prefix = namespaceOf(server);
    if (prefix === undefined || !name.startsWith(prefix) || name.length === prefix.length) continue;
    const tool = name.slice(prefix.length);
    const filter = createToolFilter(entry, `server "${server}"`);
    if (filter !== undefined && !filter(tool)) {
      return `It is tool '${tool}' of server '${server}', which its includeTools / excludeTools in the config leave out; change them to call it.`;
    }
    const state = status[server]?.state;
    if (state !== undefined && state !== 'connected') {
      return `Its server '${server}' is not connected (${state}); 'switchboard doctor ${server}' says why.`;
    }
  }
  return undefined;
}
