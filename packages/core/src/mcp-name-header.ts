/**
 * The SEP-2243 standard-header table: which body field a 2026-07-28 request's `Mcp-Name` header
 * mirrors, per method (`tasks/*` from SEP-2663). One table for both sides: the transports write the
 * header from it, the server checks the header against it.
 */

/** The body field (of `params`) that `Mcp-Name` mirrors. */
export type McpNameField = 'name' | 'uri' | 'taskId';

/** Which `params` field `Mcp-Name` mirrors, per method; methods absent here carry no `Mcp-Name`. */
export const mcpNameSource: Readonly<Record<string, McpNameField>> = Object.freeze({
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
  // The Events extension (SEP-3415): the event type a request polls, streams or subscribes to.
  'events/poll': 'name',
  'events/stream': 'name',
  'events/subscribe': 'name',
  'events/unsubscribe': 'name',
});

/** The `params` field a method's `Mcp-Name` header mirrors; undefined when the method has none. */
export function mcpNameFieldOf(method: string): McpNameField | undefined {
  return Object.hasOwn(mcpNameSource, method) ? mcpNameSource[method] : undefined;
}
