/** Turning what a tool returned (or threw) into the `CallToolResult` clients receive. */
import { type CallToolResult, isInputRequiredResult } from '@modelcontextprotocol/server';
import type { ToolReturnValue } from './define-tool.js';

// A cheap structural check: the SDK's `isCallToolResult` parses with its full schema, which costs
// more than a simple tool call. A result a tool wrote itself goes out as written.
const hasContentArray = (value: unknown): value is CallToolResult =>
  typeof value === 'object' && value !== null && Array.isArray((value as { content?: unknown }).content);

/** True when a value is a promise (or any thenable). */
export const isPromiseLike = (value: unknown): value is PromiseLike<unknown> =>
  typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';

/** A `CreateTaskResult` a tool passed on (a gateway relaying an upstream's task): it goes out as is. */
const isTaskAnswer = (value: unknown): boolean =>
  typeof value === 'object' &&
  value !== null &&
  (value as { resultType?: unknown }).resultType === 'task' &&
  typeof (value as { taskId?: unknown }).taskId === 'string';

/** A 2025-11-25 `CreateTaskResult` a tool passed on (`{ task: { taskId, status, … } }`, no content): as is. */
const isLegacyTaskAnswer = (value: unknown): boolean => {
  const task = (value as { task?: unknown } | null)?.task as
    | { taskId?: unknown; status?: unknown }
    | undefined;
  return (
    typeof value === 'object' &&
    value !== null &&
    !('content' in value) &&
    typeof task === 'object' &&
    task !== null &&
    typeof task.taskId === 'string' &&
    typeof task.status === 'string'
  );
};

/**
 * Turns whatever a tool returned into a `CallToolResult`: a result (or an SDK input-required
 * result, or a relayed task) as is, a string as text, other values as JSON text (and `structuredContent` when the tool
 * declares an output schema).
 */
export function toCallToolResult(value: ToolReturnValue, structured: boolean): CallToolResult {
  if (
    hasContentArray(value) ||
    isInputRequiredResult(value) ||
    isTaskAnswer(value) ||
    isLegacyTaskAnswer(value)
  )
    return value as CallToolResult;
  if (value === undefined) return { content: [] };
  if (typeof value === 'string') return { content: [{ type: 'text', text: value }] };
  const text = JSON.stringify(value) ?? String(value);
  const result: CallToolResult = { content: [{ type: 'text', text }] };
  if (structured && typeof value === 'object' && value !== null && !Array.isArray(value)) {
    result.structuredContent = value as Record<string, unknown>;
  }
  return result;
}

/** An `isError` result for a failure: the message, plus the stack only in debug mode. */
export function toErrorResult(error: unknown, debug: boolean): CallToolResult {
  const message = error instanceof Error ? error.message : String(error);
  const text = debug && error instanceof Error && error.stack ? error.stack : message;
  return { isError: true, content: [{ type: 'text', text: text || 'The tool failed without a message.' }] };
}
