/**
 * Why a tool name a downstream client called is not served, from what the gateway knows beyond its
 * registry (the server's `missingToolHint`): a served tool called by its name on its upstream
 * instead of its namespaced name; an upstream tool that the upstream's `includeTools` /
 * `excludeTools` (or the set's tool filter) leave out; a tool that tool trust holds back
 * (quarantined or rejected: `TOOL_QUARANTINED`, naming the server, the tool and what changed); a
 * tool of an upstream that is not connected. A tool the approval policy hides the server explains itself (`TOOL_NOT_SERVED`).
 */
import { quarantinedError } from '@switchboard/client';
import { createToolName } from '@switchboard/core';
import type { GatewayClients } from './gateway-clients.js';

/** How long the hint waits for an upstream's (usually cached) tool list. */
const listWaitMs = 2_000;

/** The default public name of `tool` on `server` (core's namespacing); undefined where it cannot be made. */
function defaultName(server: string, tool: string): string | undefined {
  try {
    return createToolName({ server, tool });
  } catch {
    return undefined;
  }
}

/** True when `name` would be the public name of `tool` on `server` (the name itself, or its default namespacing). */
function namesTool(name: string, server: string, tool: string): boolean {
  return name === tool || defaultName(server, tool) === name;
}

/** True when `name` is namespaced under `server` (the default style: `mcp__<server>__…`). */
function isUnder(name: string, server: string): boolean {
  const sample = defaultName(server, 'x');
  return sample !== undefined && name.startsWith(sample.slice(0, -1));
}

/** The upstream's own tool list within a bounded wait; undefined when it has none to give. */
async function upstreamTools(
  clients: GatewayClients,
  server: string,
): Promise<Array<{ name: string }> | undefined> {
  const client = clients.client?.(server);
  if (client?.listTools === undefined || client.connected === false) return undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      client.listTools(),
      new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), listWaitMs);
      }),
    ]);
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

/** The `missingToolHint` of a gateway over `clients`. */
export function createMissingToolHint(
  clients: GatewayClients,
): (name: string) => Promise<string | undefined> {
  return async (name) => {
    const byOriginal = clients.registry.list().filter((tool) => tool.originalName === name);
    if (byOriginal.length > 0) {
      return `This gateway serves upstream tools under namespaced names: call ${byOriginal
        .map((tool) => `"${tool.name}"`)
        .join(' or ')}.`;
    }
    // Held back by tool trust: the upstream lists it, so it would otherwise read as filtered out.
    const held = clients.trust
      ?.verdicts()
      .find((verdict) => !verdict.usable && namesTool(name, verdict.server, verdict.tool));
    if (held !== undefined) {
      const error = quarantinedError(held);
      return `${error.code}: ${error.message}`;
    }
    const status = clients.status() as Record<string, { state?: string } | undefined>;
    for (const server of clients.servers ?? Object.keys(status)) {
      const state = status[server]?.state;
      if (state !== undefined && state !== 'connected' && isUnder(name, server)) {
        return `Its upstream server "${server}" is not connected (${state}): its tools come back once it is (see /health, or 'switchboard servers list').`;
      }
      const left = (await upstreamTools(clients, server))?.find(
        (tool) =>
          clients.registry.getByOriginal(server, tool.name) === undefined &&
          namesTool(name, server, tool.name),
      );
      if (left !== undefined) {
        return `It is tool "${left.name}" of upstream server "${server}", which the gateway leaves out: that server's includeTools / excludeTools (or the gateway's tool filter) exclude it. Change the server's entry in the config to serve it.`;
      }
    }
    return undefined;
  };
}
