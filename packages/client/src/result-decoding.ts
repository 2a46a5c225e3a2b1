/**
 * What a result is, by its `resultType` (2026-07-28): the answer (`complete`, or no `resultType`,
 * which the spec says to read as complete — every 2025 result), a request for the client's input
 * (`input_required`: `input-rounds.ts` answers it), or a task the server created instead of
 * answering (`task`, the tasks extension SEP-2663). The answer comes back as the server sent it,
 * without `resultType` (a copy, not `delete`, which would leave the object slow for every reader).
 */
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';

/** The task a server created instead of answering a request (tasks extension, SEP-2663). */
export interface CreatedTask {
  taskId: string;
  status: string;
  statusMessage?: string;
  createdAt?: string;
  lastUpdatedAt?: string;
  ttlMs?: number | null;
  pollIntervalMs?: number;
  [key: string]: unknown;
}

/** One result, read. */
export type DecodedResult =
  | { kind: 'complete'; result: Record<string, unknown> }
  | { kind: 'input_required'; inputRequests: Record<string, unknown>; requestState: string | undefined }
  | { kind: 'task'; task: CreatedTask };

/** Reads the result of `method` (throws `INVALID_RESULT` / `UNSUPPORTED_RESULT_TYPE` for what it cannot be). */
export function decodeResult(method: string, raw: unknown): DecodedResult {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new SdkError(SdkErrorCode.InvalidResult, `Invalid result for ${method}: not an object`, { method });
  }
  const result = raw as Record<string, unknown>;
  const resultType = result.resultType;
  if (resultType === undefined) return { kind: 'complete', result };
  if (resultType === 'complete') {
    const { resultType: _complete, ...plain } = result;
    return { kind: 'complete', result: plain };
  }
  if (resultType === 'input_required') {
    const inputRequests = result.inputRequests;
    const requestState = typeof result.requestState === 'string' ? result.requestState : undefined;
    const requests =
      typeof inputRequests === 'object' && inputRequests !== null && !Array.isArray(inputRequests)
        ? (inputRequests as Record<string, unknown>)
        : {};
    if (Object.keys(requests).length === 0 && requestState === undefined) {
      throw new SdkError(
        SdkErrorCode.InvalidResult,
        `Invalid result for ${method}: input_required carries neither inputRequests nor requestState`,
        { method },
      );
    }
    return { kind: 'input_required', inputRequests: requests, requestState };
  }
  if (resultType === 'task' && typeof result.taskId === 'string' && typeof result.status === 'string') {
    const { resultType: _task, ...task } = result;
    return { kind: 'task', task: task as CreatedTask };
  }
  throw new SdkError(
    SdkErrorCode.UnsupportedResultType,
    `Unsupported result type '${String(resultType)}' for ${method}`,
    {
      resultType,
      method,
    },
  );
}
