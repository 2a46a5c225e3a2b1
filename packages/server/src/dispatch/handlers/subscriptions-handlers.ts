/**
 * `subscriptions/listen` (2026-07-28): one long-lived response stream of the change notifications
 * the client opted in to. The acknowledgement comes first and says what is honored; every
 * notification carries the listen request's id as `subscriptionId`. The stream lasts until the
 * client closes it (its request is aborted).
 */
import { SubscriptionsListenRequestSchema } from '@modelcontextprotocol/core';
import {
  type ClientCapabilities,
  MissingRequiredClientCapabilityError,
  type RequestId,
  type Result,
  type ServerEvent,
  SUBSCRIPTION_ID_META_KEY,
} from '@modelcontextprotocol/server';
import type { InboundRequest } from '../../request/inbound-request.js';
import { tasksExtensionId } from '../../tasks/task-store.js';
import { declaresTasks } from '../../tasks/task-support.js';
import type { ServerScope } from '../server-scope.js';
import { checkParams } from './params-check.js';

/** What a listen stream delivers. */
interface HonoredFilter {
  toolsListChanged?: true;
  promptsListChanged?: true;
  resourcesListChanged?: true;
  resourceSubscriptions?: string[];
  taskIds?: string[];
}

const eventMethod: Readonly<Record<ServerEvent['kind'], string>> = {
  tools_list_changed: 'notifications/tools/list_changed',
  prompts_list_changed: 'notifications/prompts/list_changed',
  resources_list_changed: 'notifications/resources/list_changed',
  resource_updated: 'notifications/resources/updated',
};

function accepts(filter: HonoredFilter, event: ServerEvent): boolean {
  switch (event.kind) {
    case 'tools_list_changed':
      return filter.toolsListChanged === true;
    case 'prompts_list_changed':
      return filter.promptsListChanged === true;
    case 'resources_list_changed':
      return filter.resourcesListChanged === true;
    case 'resource_updated':
      return filter.resourceSubscriptions?.includes(event.uri) === true;
  }
}

function stamp(params: Record<string, unknown>, subscriptionId: RequestId): Record<string, unknown> {
  return {
    ...params,
    _meta: { ...(params._meta as object | undefined), [SUBSCRIPTION_ID_META_KEY]: subscriptionId },
  };
}

/** `subscriptions/listen`: resolves when the stream ends. */
export async function listen(request: InboundRequest, scope: ServerScope): Promise<Result> {
  const params = checkParams(SubscriptionsListenRequestSchema, request);
  const requested = (params.notifications ?? {}) as Record<string, unknown>;
  const capabilities = scope.capabilities('modern');
  const honored: HonoredFilter = {};
  if (requested.toolsListChanged === true && capabilities.tools?.listChanged) honored.toolsListChanged = true;
  if (requested.promptsListChanged === true && capabilities.prompts?.listChanged)
    honored.promptsListChanged = true;
  if (requested.resourcesListChanged === true && capabilities.resources?.listChanged)
    honored.resourcesListChanged = true;
  const taskIds = requested.taskIds;
  if (Array.isArray(taskIds) && taskIds.length > 0) {
    if (!declaresTasks(request)) {
      throw new MissingRequiredClientCapabilityError({
        requiredCapabilities: { extensions: { [tasksExtensionId]: {} } } as ClientCapabilities,
      });
    }
    honored.taskIds = taskIds.filter(
      (id): id is string => typeof id === 'string' && scope.tasks.get(id) !== undefined,
    );
  }
  const watched: string[] = [];
  const uris = requested.resourceSubscriptions;
  if (Array.isArray(uris) && capabilities.resources?.subscribe) {
    for (const uri of uris) {
      if (typeof uri !== 'string') continue;
      try {
        await scope.subscriptions.add(uri);
        watched.push(uri);
      } catch {
        // A URI nothing serves is left out of the acknowledgement.
      }
    }
    honored.resourceSubscriptions = watched;
  }

  const subscriptionId = request.id;
  const send = (method: string, notificationParams: Record<string, unknown>) =>
    request.channel.notify({ jsonrpc: '2.0', method, params: stamp(notificationParams, subscriptionId) });
  send('notifications/subscriptions/acknowledged', { notifications: honored });

  const unsubscribe = scope.bus.subscribe((event) => {
    if (!accepts(honored, event)) return;
    send(eventMethod[event.kind], event.kind === 'resource_updated' ? { uri: event.uri } : {});
  });
  const taskFilter = honored.taskIds;
  const stopTasks =
    taskFilter === undefined || taskFilter.length === 0
      ? undefined
      : scope.tasks.onChange((task) => {
          if (taskFilter.includes(task.taskId))
            send('notifications/tasks', task.detailed() as unknown as Record<string, unknown>);
        });

  await new Promise<void>((resolve) => {
    const signal = request.abort.signal;
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
  unsubscribe();
  stopTasks?.();
  for (const uri of watched) void scope.subscriptions.remove(uri);
  return { _meta: { [SUBSCRIPTION_ID_META_KEY]: subscriptionId } };
}
