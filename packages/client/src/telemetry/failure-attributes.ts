/**
 * What a failed call records (`error.type`, and `rpc.response.status_code` for a JSON-RPC error),
 * per the semantic conventions: the JSON-RPC code as a string when the server answered with an
 * error, `timeout` when the deadline passed, a local error's own code otherwise. Codes only, so the
 * values stay few; the message goes to the span status, redacted.
 */
import { type McpOperationFailure, otherErrorType, timeoutErrorType } from '@switchboard/core';

/** The SDK's local timeout code (`SdkErrorCode.RequestTimeout`) and Switchboard's (`ClientErrorCode.Timeout`). */
const timeoutCodes = new Set(['REQUEST_TIMEOUT', 'TIMEOUT']);

/** The failure attributes of `error`. */
export function failureAttributesOf(error: unknown): McpOperationFailure {
  const message = error instanceof Error ? error.message : String(error);
  // A ClientError keeps the JSON-RPC code the server answered with beside its own string code.
  const wire = (error as { jsonRpcCode?: unknown } | null | undefined)?.jsonRpcCode;
  const code = typeof wire === 'number' ? wire : (error as { code?: unknown } | null | undefined)?.code;
  if (typeof code === 'number' && Number.isInteger(code)) {
    return { errorType: String(code), statusCode: String(code), message };
  }
  if (typeof code === 'string' && code.length > 0) {
    return { errorType: timeoutCodes.has(code) ? timeoutErrorType : code, message };
  }
  return {
    errorType: error instanceof Error && error.name !== 'Error' ? error.name : otherErrorType,
    message,
  };
}
