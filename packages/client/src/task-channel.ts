/**
 * The task channel of a connection's call (`tool-task.ts`): the task methods go through the
 * connection's request engine with the call's deadline, each failure a `ClientError` naming the
 * server and tool, and the input a task waits for is answered with the call's handlers (the
 * client's otherwise), as the call's own server requests would be.
 */
import type { CallToolOptions } from './mcp-client-options.js';
import type { EngineRequestOptions, RequestEngine } from './request-engine.js';
import { decodeResult } from './result-decoding.js';
import type { AnswerServerRequest } from './server-request-answers.js';
import type { TaskChannel, TaskWaitOptions } from './tool-task.js';

/** What a call's task channel is made of. */
export interface TaskChannelOptions {
  server: string;
  /** A 2025 connection: its tasks are 2025-11-25 tasks (`legacy-task.ts`). */
  legacy: boolean;
  engine: RequestEngine;
  request: EngineRequestOptions;
  /** The tool and the call's handlers, which answer the task's input requests. */
  owner: { tool: string; handlers: CallToolOptions };
  answers: AnswerServerRequest;
  /** A failure of `method` as the error the caller sees. */
  explain(error: unknown, method: string): Error;
}

/** The task channel of one call. */
export function createTaskChannel(options: TaskChannelOptions): TaskChannel {
  const { engine, request, owner } = options;
  return {
    server: options.server,
    legacy: options.legacy,
    request: async (method, params) => {
      try {
        const decoded = decodeResult(method, await engine.request(method, params, request));
        return decoded.kind === 'complete' ? decoded.result : {};
      } catch (error) {
        throw options.explain(error, method);
      }
    },
    answer: (_key, entry, signal) =>
      options.answers(
        typeof entry.method === 'string' ? entry.method : '',
        (typeof entry.params === 'object' && entry.params !== null ? entry.params : {}) as Record<
          string,
          unknown
        >,
        owner,
        signal,
      ),
  };
}

/** What a call's options say about waiting for its task. */
export function waitOptions(callOptions: CallToolOptions): TaskWaitOptions {
  return {
    ...(callOptions.signal ? { signal: callOptions.signal } : {}),
    ...(callOptions.onProgress ? { onProgress: callOptions.onProgress } : {}),
    ...(callOptions.maxTotalTimeoutMs === undefined
      ? {}
      : { maxTotalTimeoutMs: callOptions.maxTotalTimeoutMs }),
  };
}
