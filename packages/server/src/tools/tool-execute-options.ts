/** The options a registry tool's `execute` receives: the call's signal (made only if read) and its context. */
import { type CallAbort, CallSignalCarrier } from '../cancellation/call-abort.js';
import type { ToolContext } from './define-tool.js';

/**
 * Execute options of a registry tool. A gateway's upstream tool reads `signal` (cancellation),
 * `toolContext` for progress and, on behalf of an upstream request, `elicit`/`sample`/`listRoots`,
 * and `traceContext` for the parent of its upstream call's span.
 */
export class ToolExecuteOptions extends CallSignalCarrier {
  readonly toolContext: ToolContext;
  /** The OpenTelemetry `Context` of the request's server span (a gateway's upstream call is its child); undefined when not tracing. */
  readonly traceContext: unknown;
  [key: string]: unknown;

  constructor(abort: CallAbort, toolContext: ToolContext, traceContext?: unknown) {
    super(abort);
    this.toolContext = toolContext;
    this.traceContext = traceContext;
  }
}
