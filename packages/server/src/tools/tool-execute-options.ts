/** The options a registry tool's `execute` receives: the call's signal (made only if read) and its context. */
import { type CallAbort, CallSignalCarrier } from './call-abort.js';
import type { ToolContext } from './define-tool.js';

/**
 * Execute options of a registry tool. A gateway's upstream tool reads `signal` (cancellation),
 * and `toolContext` for progress and, on behalf of an upstream request, `elicit`/`sample`/`listRoots`.
 */
export class ToolExecuteOptions extends CallSignalCarrier {
  readonly toolContext: ToolContext;
  [key: string]: unknown;

  constructor(abort: CallAbort, toolContext: ToolContext) {
    super(abort);
    this.toolContext = toolContext;
  }
}
