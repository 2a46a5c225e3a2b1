/**
 * The observe link: what a call did, recorded once per call however many attempts supervision
 * made — one measurement into the per-tool metrics, one usage row (the registry store) and one
 * `afterToolCall` event, and the call's one span (started by the send link with the first
 * request, so it carries the connection's facts and its context reaches the server; ended here
 * with the outcome). A failed call counts as an error, and so does a result with `isError`.
 * Neither the hook nor the store can break a call: what they throw is logged.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import { type Logger, SwitchboardError } from '@switchboard/core';
import type { MetricsRecorder, ToolCounter } from './metrics-recorder.js';
import type { ToolCallLink } from './tool-call-chain.js';
import type { AfterToolCallHook, StoreRecorder, ToolCallEvent } from './tool-call-hooks.js';

/** What a call is recorded into (each optional: a bare client records only its span). */
export interface ObserveLinkOptions {
  /** Per-tool and per-server call metrics. */
  metrics?: MetricsRecorder;
  /** The registry store's usage rows. */
  recorder?: StoreRecorder;
  /** The public `afterToolCall` hook. */
  hook?: AfterToolCallHook;
  /** Where a failing hook is reported. */
  logger?: Logger;
}

/** The observe link of one server's calls. */
export function createObserveLink(options: ObserveLinkOptions): ToolCallLink {
  const { metrics, hook, logger } = options;
  const recorder = options.recorder?.active ? options.recorder : undefined;
  const counters = new Map<string, ToolCounter>();
  const counterOf = (server: string, tool: string): ToolCounter | undefined => {
    if (metrics === undefined) return undefined;
    let counter = counters.get(tool);
    if (counter === undefined) {
      counter = metrics.counter(server, tool);
      counters.set(tool, counter);
    }
    return counter;
  };
  const report = (event: ToolCallEvent): void => {
    recorder?.recordCall(event);
    if (hook === undefined) return;
    try {
      const result = hook(event);
      if (result && typeof (result as Promise<void>).then === 'function') {
        (result as Promise<void>).catch((error: unknown) => hookFailed(error, event, logger));
      }
    } catch (error) {
      hookFailed(error, event, logger);
    }
  };
  const reports = recorder !== undefined || hook !== undefined;

  return async (call, next) => {
    call.observed = true;
    const counter = counterOf(call.server, call.tool);
    const started = performance.now();
    let result: CallToolResult;
    try {
      result = await next(call);
    } catch (error) {
      const durationMs = performance.now() - started;
      counter?.record(durationMs, true);
      call.trace?.fail(error);
      if (reports) {
        report({
          server: call.server,
          tool: call.tool,
          publicName: call.publicName,
          ok: false,
          durationMs,
          ...(SwitchboardError.isInstance(error) ? { error } : {}),
        });
      }
      throw error;
    }
    const durationMs = performance.now() - started;
    const failed = result.isError === true;
    counter?.record(durationMs, failed);
    call.trace?.end(result);
    if (reports) {
      report({ server: call.server, tool: call.tool, publicName: call.publicName, ok: !failed, durationMs });
    }
    return result;
  };
}

function hookFailed(error: unknown, event: ToolCallEvent, logger: Logger | undefined): void {
  logger?.warn(
    { server: event.server, tool: event.tool },
    `afterToolCall hook failed (the call itself was not affected): ${error instanceof Error ? error.message : String(error)}`,
  );
}
