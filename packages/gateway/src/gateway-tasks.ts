/**
 * Tasks (SEP-2663, `io.modelcontextprotocol/tasks`) through the gateway: a downstream client that
 * declares the extension and calls a tool whose upstream answers with a task gets that task, under
 * a gateway task id, and its `tasks/get`, `tasks/update` and `tasks/cancel` are relayed to that
 * upstream (what the upstream answers — status, input requests, the tool's result — comes back
 * unchanged but for the id).
 *
 * Ids (why): an upstream's task id means something only on that upstream, and two upstreams may
 * hand out the same one, so the gateway id names its origin: it is the upstream's name and its
 * task id, encoded (`base64url` of `[server, taskId]`, behind a version tag). The gateway keeps no
 * state per task: the upstream holds the task, and any replica of the gateway (same upstreams)
 * answers for any id, so a task survives a replica switch, a replica's restart, and needs no
 * shared store.
 */
import type { Result } from '@modelcontextprotocol/server';
import type { McpClient, ToolStart } from '@switchboard/client';
import type { ProviderContext, RelayedTaskMethod, TaskRelay, ToolContext } from '@switchboard/server';
import { ServerError, ServerErrorCode } from '@switchboard/server';
import { type GatewayUpstreamClient, upstreamError } from './gateway-catalog.js';

const tasksExtensionId = 'io.modelcontextprotocol/tasks';
const idTag = 'sbt1.';

/** What task relaying needs of an upstream's client (an `McpClient` fits). */
export type TasksClientPart = Partial<Pick<McpClient, 'startTool' | 'getTask'>>;

/** Where the relay finds the upstream servers. */
export interface GatewayTasksSource {
  client?(server: string): (GatewayUpstreamClient & TasksClientPart) | undefined;
}

/** The gateway id of upstream `server`'s task `taskId`. */
export function gatewayTaskId(server: string, taskId: string): string {
  return `${idTag}${Buffer.from(JSON.stringify([server, taskId])).toString('base64url')}`;
}

/** The upstream and its task id of a gateway task id; `undefined` for any other id. */
export function upstreamTaskOf(id: string): { server: string; taskId: string } | undefined {
  if (!id.startsWith(idTag)) return undefined;
  try {
    const decoded: unknown = JSON.parse(Buffer.from(id.slice(idTag.length), 'base64url').toString('utf8'));
    if (!Array.isArray(decoded) || decoded.length !== 2) return undefined;
    const [server, taskId] = decoded as unknown[];
    return typeof server === 'string' && typeof taskId === 'string' ? { server, taskId } : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the downstream call may be answered with a task: a 2026-07-28 client that declared the extension. */
export function acceptsTasks(context: ToolContext | undefined): boolean {
  if (context?.era !== 'modern') return false;
  const extensions = (context.clientCapabilities as { extensions?: Record<string, unknown> }).extensions;
  return extensions?.[tasksExtensionId] !== undefined;
}

/** The downstream answer of an upstream call's start: its result, or its task under a gateway id. */
export function relayedStart(server: string, start: ToolStart): unknown {
  if (start.task === undefined) return start.result;
  return { resultType: 'task', ...start.task.state, taskId: gatewayTaskId(server, start.task.taskId) };
}

/** The task relay of a gateway. */
export class GatewayTasks implements TaskRelay {
  readonly specificationVersion = 'v1';
  readonly #source: GatewayTasksSource;

  constructor(source: GatewayTasksSource) {
    this.#source = source;
  }

  async relay(
    method: RelayedTaskMethod,
    params: Record<string, unknown> & { taskId: string },
    _context: ProviderContext,
  ): Promise<Result | undefined> {
    const origin = upstreamTaskOf(params.taskId);
    if (origin === undefined) return undefined;
    const client = this.#clientOf(origin.server, method, params.taskId);
    try {
      const task = await client.getTask(origin.taskId);
      if (method === 'tasks/get') return { ...task.state, taskId: params.taskId } as Result;
      if (method === 'tasks/update') await task.update(params.inputResponses as Record<string, unknown>);
      else await task.cancel();
      return {};
    } catch (error) {
      throw upstreamError(origin.server, method, params.taskId, error);
    }
  }

  #clientOf(
    server: string,
    method: string,
    taskId: string,
  ): GatewayUpstreamClient & Required<Pick<TasksClientPart, 'getTask'>> {
    let client: (GatewayUpstreamClient & TasksClientPart) | undefined;
    try {
      client = this.#source.client?.(server);
    } catch {
      client = undefined;
    }
    if (client?.getTask === undefined || client.connected === false) {
      throw new ServerError({
        code: ServerErrorCode.UpstreamUnavailable,
        message: `${method} "${taskId}": the task is upstream MCP server "${server}"'s, which is not connected (it stopped or was removed); try again once it is back.`,
        data: { server, method, taskId },
      });
    }
    return client as GatewayUpstreamClient & Required<Pick<TasksClientPart, 'getTask'>>;
  }
}
