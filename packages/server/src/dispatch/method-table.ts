/**
 * Which methods the server answers, in which era, and when they are available (resources and
 * prompts only when the server has any; the tasks methods always, gated per request). A method
 * absent from a request's era is answered -32601, like an unknown one.
 */
import type { Result } from '@modelcontextprotocol/server';
import type { InboundRequest } from '../request/inbound-request.js';
import { complete } from './handlers/completion-handlers.js';
import { discover, initialize, ping, setLogLevel } from './handlers/lifecycle-handlers.js';
import { getPrompt, listPrompts } from './handlers/prompts-handlers.js';
import {
  listResources,
  listResourceTemplates,
  readResource,
  subscribeResource,
  unsubscribeResource,
} from './handlers/resources-handlers.js';
import { listen } from './handlers/subscriptions-handlers.js';
import { cancelTask, getTask, getTaskResult, listTasks, updateTask } from './handlers/tasks-handlers.js';
import { callTool, listTools } from './handlers/tools-handlers.js';
import type { ServerScope } from './server-scope.js';

/** A request handler: its result, at once when it has one. */
export type MethodHandler = (request: InboundRequest, scope: ServerScope) => Result | Promise<Result>;

/** One method's route. */
export interface MethodRoute {
  /** Served to 2025-era requests. */
  legacy: boolean;
  /** Served to 2026-07-28 requests. */
  modern: boolean;
  /** Whether the server offers it at all (e.g. resources methods only with resources). */
  available?(scope: ServerScope): boolean;
  handle: MethodHandler;
}

const both = { legacy: true, modern: true } as const;
const legacyOnly = { legacy: true, modern: false } as const;
const modernOnly = { legacy: false, modern: true } as const;
const withResources = (scope: ServerScope) => scope.capabilities('legacy').resources !== undefined;
const withPrompts = (scope: ServerScope) => scope.capabilities('legacy').prompts !== undefined;

/** The methods of the core protocol and the tasks extension. */
export const methodTable: ReadonlyMap<string, MethodRoute> = new Map<string, MethodRoute>([
  ['initialize', { ...legacyOnly, handle: initialize }],
  ['ping', { ...legacyOnly, handle: ping }],
  ['logging/setLevel', { ...legacyOnly, handle: setLogLevel }],
  ['server/discover', { ...modernOnly, handle: discover }],
  ['subscriptions/listen', { ...modernOnly, handle: listen }],
  ['tools/list', { ...both, handle: listTools }],
  ['tools/call', { ...both, handle: callTool }],
  ['resources/list', { ...both, available: withResources, handle: listResources }],
  ['resources/templates/list', { ...both, available: withResources, handle: listResourceTemplates }],
  ['resources/read', { ...both, available: withResources, handle: readResource }],
  ['resources/subscribe', { ...legacyOnly, available: withResources, handle: subscribeResource }],
  ['resources/unsubscribe', { ...legacyOnly, available: withResources, handle: unsubscribeResource }],
  ['prompts/list', { ...both, available: withPrompts, handle: listPrompts }],
  ['prompts/get', { ...both, available: withPrompts, handle: getPrompt }],
  ['completion/complete', { ...both, handle: complete }],
  // 2025 sessions: the 2025-11-25 task methods, answered through a task relay with `legacyTasks`.
  ['tasks/get', { ...both, handle: getTask }],
  ['tasks/update', { ...modernOnly, handle: updateTask }],
  ['tasks/cancel', { ...both, handle: cancelTask }],
  ['tasks/result', { ...legacyOnly, handle: getTaskResult }],
  ['tasks/list', { ...legacyOnly, handle: listTasks }],
]);
