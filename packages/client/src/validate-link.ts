/**
 * The links that hold a call to its tool's schemas: the arguments are checked before anything is
 * sent (a `VALIDATION_FAILED` `ClientError` tells the model what to fix, and the call is not
 * counted: it never reached the server), and a tool that declares an `outputSchema` has its
 * structured output checked after (an `OUTPUT_INVALID` error; it sits below the observe link, so
 * such a call counts as failed). Both checks are compiled once per tool, on first use.
 */
import type { ArgumentCheck, OutputCheck } from './core-tool-steps.js';
import type { ToolCallLink } from './tool-call-chain.js';

/** Refuses a call whose arguments do not match the tool's input schema. */
export function createValidateLink(check: () => ArgumentCheck): ToolCallLink {
  return (call, next) => {
    check()(call.args);
    return next(call);
  };
}

/** Fails a call whose structured output contradicts the tool's output schema. */
export function createOutputCheckLink(check: () => OutputCheck): ToolCallLink {
  return async (call, next) => {
    const result = await next(call);
    check()(result);
    return result;
  };
}
