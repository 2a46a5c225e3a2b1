/**
 * One server of a `connectMcp` connection, in one record: its entry, its supervised connection,
 * and how its tool list becomes registry tools. Built in order: the connection first (the
 * supervise link), then the observe link of its calls (metrics, usage, the hook, the span), then
 * the tool records whose chains end in those two, which start following the connection's tool
 * lists last. `relay` runs trust → observe → supervise → send for relays (a gateway): refused when
 * quarantined, counted, hooked and supervised like every call, with no approval, checks or wrapping.
 * Each tool list is reviewed by tool trust first: only usable tools reach the registry.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import {
  type ArgumentValidator,
  createToolFilter,
  type Logger,
  type ToolFilter,
  type ToolRegistry,
  type ToolTrust,
  type WrapToolResultOptions,
} from '@switchboard/core';
import type { ApprovalSetting } from './approval-setting.js';
import { ClientError, ClientErrorCode } from './client-error.js';
import type { ServerEntry } from './config/server-entry.js';
import { createCoreToolSteps } from './core-tool-steps.js';
import type { CallToolOptions, McpClientOptions } from './mcp-client-options.js';
import { type ApproveCallback, isRetrySafe, toToolInput } from './mcp-tool.js';
import type { MetricsRecorder } from './metrics-recorder.js';
import { createObserveLink } from './observe-link.js';
import {
  createServerConnection,
  type ServerConnection,
  type SupervisionOptions,
} from './server-connection.js';
import { chainLinks } from './tool-call-chain.js';
import type { AfterToolCallHook, StoreRecorder } from './tool-call-hooks.js';
import { createTrustLink, type TrustGate } from './trust-gate.js';

/** What every server of a connection shares. */
export interface SharedServerSettings {
  registry: ToolRegistry;
  validator: ArgumentValidator;
  metrics: MetricsRecorder;
  recorder: StoreRecorder;
  logger: Logger;
  clientOptions: McpClientOptions;
  supervision: SupervisionOptions;
  approval: ApprovalSetting;
  approve?: ApproveCallback;
  rawResults: boolean;
  wrap?: Omit<WrapToolResultOptions, 'toolName' | 'shape'>;
  afterToolCall?: AfterToolCallHook;
  /** Hides tools of every server (after the entry's own `includeTools` / `excludeTools`). */
  toolFilter?: (tool: { server: string; name: string }) => boolean;
  /** Told after a server's tools changed in the registry (an empty list once it is gone). */
  onToolsChanged?: (server: string, tools: ReturnType<ToolRegistry['list']>) => void;
  /** Tool trust: each listing is reviewed, and only usable tools reach the registry. */
  trust: ToolTrust;
  gate: TrustGate;
}

/** One server of a connection. */
export interface ServerRecord {
  readonly name: string;
  readonly entry: ServerEntry;
  readonly connection: ServerConnection;
  /**
   * Puts a tool list into the registry, after trust has reviewed it: only usable tools go in
   * (`restored`: tools the store remembered, before connecting — only those pinned go in).
   */
  applyTools(tools: Tool[], restored?: boolean): Promise<void>;
  /** Stops following trust decisions (the record is dropped). */
  stopTrust(): void;
  /** Calls a tool by its name on the server, counted and hooked like every call, its result as it came. */
  relay(tool: string, args: Record<string, unknown>, options: CallToolOptions): Promise<CallToolResult>;
}

/** Builds the record of one server (not connected yet). */
export function createServerRecord(
  name: string,
  entry: ServerEntry,
  shared: SharedServerSettings,
): ServerRecord {
  const { registry, logger } = shared;
  const connection = createServerConnection({
    name,
    entry,
    clientOptions: shared.clientOptions,
    logger,
    supervision: shared.supervision,
  });
  const supervise = (call: Parameters<ServerConnection['send']>[0]) => connection.send(call);
  const observe = createObserveLink({
    metrics: shared.metrics,
    recorder: shared.recorder,
    ...(shared.afterToolCall ? { hook: shared.afterToolCall } : {}),
    logger,
  });
  const trustLink = createTrustLink(shared.gate);
  const relayed = chainLinks([trustLink, observe], supervise);
  const steps = createCoreToolSteps({
    server: name,
    approval: entry.approval ?? shared.approval,
    validator: shared.validator,
    ...(shared.wrap ? { wrap: shared.wrap } : {}),
  });
  const visible = toolFilterOf(name, entry, shared.toolFilter);
  // The last listing, so that a change of trust (an approval, another replica's decision) can
  // put its tools in or take them out without asking the server again.
  let lastListed: Tool[] | undefined;
  let lastRestored = false;
  const register = (list: Tool[], restored: boolean): void => {
    const usable = restored
      ? list
      : list.filter((tool) => shared.trust.verdict(name, tool.name)?.usable !== false);
    const inputs = usable.map((tool) =>
      toToolInput(tool, {
        server: name,
        ...(entry.prefix === undefined ? {} : { prefix: entry.prefix }),
        observe,
        supervise,
        steps,
        ...(shared.approve ? { approve: shared.approve } : {}),
        rawResults: shared.rawResults,
        publicName: (originalName) => registry.getByOriginal(name, originalName)?.name,
        trust: trustLink,
      }),
    );
    if (restored) for (const input of inputs) input.meta = { ...input.meta, restored: true };
    registry.replaceServer(name, inputs);
    const current = registry.list({ server: name });
    shared.recorder.recordTools(name, current);
    shared.onToolsChanged?.(name, current);
  };
  const applyTools = async (listed: Tool[], restored = false): Promise<void> => {
    const list = visible === undefined ? listed : listed.filter((tool) => visible(tool.name));
    // Restored tools are not reviewed (the store keeps no output schema or _meta, so their digests
    // would differ): only those pinned by name go in, and the live listing is reviewed on connect.
    if (restored) {
      const records = await shared.trust.records({ server: name });
      const pinned = new Set(
        records.filter((record) => record.status === 'approved').map((record) => record.tool),
      );
      const policy = shared.trust.policyOf(name);
      // A server with no pins at all is new to trust: its first listing will be trusted on first
      // use (unless new servers are quarantined), so what the store remembers of it goes in.
      const unpinned = records.length === 0 && policy.newServers === 'trust';
      if (policy.pin === 'block' && !unpinned) {
        lastRestored = true;
        lastListed = list.filter((tool) => pinned.has(tool.name));
        register(lastListed, true);
        return;
      }
    } else await shared.trust.review(name, list);
    lastListed = list;
    lastRestored = restored;
    register(list, restored);
  };
  const stopTrust = shared.trust.onEvent((event) => {
    const server =
      'verdict' in event ? event.verdict.server : 'record' in event ? event.record.server : event.server;
    if (server !== name || lastListed === undefined || lastRestored) return;
    if (event.type === 'released' || event.type === 'quarantined') register(lastListed, false);
  });
  const relay = (
    tool: string,
    args: Record<string, unknown>,
    options: CallToolOptions,
  ): Promise<CallToolResult> => {
    if (visible !== undefined && !visible(tool)) return Promise.reject(hiddenToolError(name, tool));
    const registered = registry.getByOriginal(name, tool);
    return relayed({
      server: name,
      tool,
      publicName: registered?.name ?? tool,
      args,
      options,
      retrySafe: isRetrySafe(registered?.annotations),
      observed: false,
      trace: undefined,
    });
  };
  connection.listen({
    tools: (tools) => applyTools(tools),
    gone: () => {
      registry.unregisterServer(name);
      shared.onToolsChanged?.(name, []);
    },
  });
  return { name, entry, connection, applyTools, relay, stopTrust };
}

/** The entry's `includeTools` / `excludeTools` and the connection's filter, as one test (undefined: all kept). */
function toolFilterOf(
  server: string,
  entry: ServerEntry,
  connectionFilter: SharedServerSettings['toolFilter'],
): ToolFilter | undefined {
  const own = createToolFilter(
    {
      ...(entry.includeTools === undefined ? {} : { includeTools: entry.includeTools }),
      ...(entry.excludeTools === undefined ? {} : { excludeTools: entry.excludeTools }),
    },
    `MCP server "${server}"`,
  );
  if (connectionFilter === undefined) return own;
  return (tool) => (own === undefined || own(tool)) && connectionFilter({ server, name: tool });
}

function hiddenToolError(server: string, tool: string): ClientError {
  return new ClientError({
    code: ClientErrorCode.ToolNotFound,
    message: `Tool "${tool}" of MCP server "${server}" is hidden by its includeTools / excludeTools; change the server's config to use it.`,
    context: { server, tool },
  });
}
