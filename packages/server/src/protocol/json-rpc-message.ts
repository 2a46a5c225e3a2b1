/**
 * Parsing and shape checks of raw JSON-RPC input, shared by the stdio and HTTP transports, so
 * that malformed input always gets the error the JSON-RPC spec names instead of being dropped.
 */
import type {
  JSONRPCMessage,
  JSONRPCNotification,
  JSONRPCRequest,
  RequestId,
} from '@modelcontextprotocol/server';
import { JsonRpcErrorCode } from '../errors/json-rpc-error-code.js';

/** A JSON-RPC error response. */
export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  id: RequestId | null;
  error: { code: number; message: string; data?: unknown };
}

/** Builds a JSON-RPC error response. */
export function createErrorResponse(
  id: RequestId | null,
  code: number,
  message: string,
  data?: unknown,
): JsonRpcErrorResponse {
  return data === undefined
    ? { jsonrpc: '2.0', id, error: { code, message } }
    : { jsonrpc: '2.0', id, error: { code, message, data } };
}

/** Outcome of checking one parsed value: a message to dispatch, or the error response to send back. */
export type CheckedMessage = { message: JSONRPCMessage } | { error: JsonRpcErrorResponse };

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

// The SDK accepts only strings and safe integers as ids; anything else would be dropped silently
// by its protocol layer, so it is rejected here with an answer instead.
const isValidId = (id: unknown): id is string | number =>
  typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id));

/** The id to echo back in an error about `value`, when it has a usable one. */
function echoId(value: Record<string, unknown>): string | number | null {
  return isValidId(value.id) ? value.id : null;
}

/**
 * Checks that `value` (already JSON-parsed) is one JSON-RPC 2.0 message of a shape the MCP SDK
 * accepts: a request, a notification or a response. Anything else gets -32600 (or -32602 for
 * params that are not an object).
 */
export function checkJsonRpcMessage(value: unknown): CheckedMessage {
  if (!isPlainObject(value)) {
    return {
      error: createErrorResponse(
        null,
        JsonRpcErrorCode.InvalidRequest,
        'Invalid Request: expected a JSON-RPC object',
      ),
    };
  }
  if (value.jsonrpc !== '2.0') {
    return {
      error: createErrorResponse(
        echoId(value),
        JsonRpcErrorCode.InvalidRequest,
        'Invalid Request: "jsonrpc" must be "2.0"',
      ),
    };
  }
  if ('method' in value) {
    if (typeof value.method !== 'string' || value.method.length === 0) {
      return {
        error: createErrorResponse(
          echoId(value),
          JsonRpcErrorCode.InvalidRequest,
          'Invalid Request: "method" must be a non-empty string',
        ),
      };
    }
    if ('id' in value && !isValidId(value.id)) {
      return {
        error: createErrorResponse(
          null,
          JsonRpcErrorCode.InvalidRequest,
          'Invalid Request: "id" must be a string or a safe integer',
        ),
      };
    }
    if ('params' in value && value.params !== undefined && !isPlainObject(value.params)) {
      return {
        error: createErrorResponse(
          echoId(value),
          JsonRpcErrorCode.InvalidParams,
          `Invalid params: "params" of "${value.method}" must be an object`,
        ),
      };
    }
    if (isPlainObject(value.params) && '_meta' in value.params && !isPlainObject(value.params._meta)) {
      return {
        error: createErrorResponse(
          echoId(value),
          JsonRpcErrorCode.InvalidParams,
          'Invalid params: "_meta" must be an object',
        ),
      };
    }
    return { message: value as unknown as JSONRPCMessage };
  }
  // A response to a request the server sent (sampling, elicitation, roots).
  if (isValidId(value.id) && ('result' in value || 'error' in value)) {
    if ('result' in value && isPlainObject(value.result))
      return { message: value as unknown as JSONRPCMessage };
    const error = value.error;
    if (isPlainObject(error) && Number.isSafeInteger(error.code) && typeof error.message === 'string') {
      return { message: value as unknown as JSONRPCMessage };
    }
  }
  return {
    error: createErrorResponse(
      echoId(value),
      JsonRpcErrorCode.InvalidRequest,
      'Invalid Request: expected a request (with "method"), a notification or a response',
    ),
  };
}

/** Parses one frame of text into a checked message; bad JSON gets -32700. */
export function parseJsonRpcText(text: string): CheckedMessage | CheckedMessage[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return {
      error: createErrorResponse(
        null,
        JsonRpcErrorCode.ParseError,
        'Parse error: the input is not valid JSON',
      ),
    };
  }
  return checkJsonRpcValue(value);
}

/** Checks a parsed value that may be a batch (array) of messages. */
export function checkJsonRpcValue(value: unknown): CheckedMessage | CheckedMessage[] {
  if (Array.isArray(value)) {
    if (value.length === 0) {
      return {
        error: createErrorResponse(null, JsonRpcErrorCode.InvalidRequest, 'Invalid Request: empty batch'),
      };
    }
    return value.map(checkJsonRpcMessage);
  }
  return checkJsonRpcMessage(value);
}

/** True when the message is a request (has a method and an id). */
export function isRequestMessage(message: JSONRPCMessage): message is JSONRPCRequest {
  return 'method' in message && 'id' in message;
}

/** True when the message is a notification (a method, no id). */
export function isNotificationMessage(message: JSONRPCMessage): message is JSONRPCNotification {
  return 'method' in message && !('id' in message);
}

/** The id to echo in an error about a parsed body, when it has a usable one. */
export function echoableId(body: unknown): RequestId | null {
  return isPlainObject(body) && isValidId(body.id) ? body.id : null;
}
