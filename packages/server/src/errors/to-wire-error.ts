/**
 * The one place a thrown value becomes a JSON-RPC error object: local `ServerError`s by their
 * table, the SDK's `ProtocolError`s by their own code and data, anything else as an internal error
 * whose message is kept (tools and handlers write messages for the client) but whose stack is not.
 */
import { ProtocolError } from '@modelcontextprotocol/server';
import { JsonRpcErrorCode } from './json-rpc-error-code.js';
import { ServerError } from './server-error.js';

/** The `error` member of a JSON-RPC error response. */
export interface WireError {
  code: number;
  message: string;
  data?: unknown;
}

/** Converts a thrown value to the JSON-RPC error it is answered with. */
export function toWireError(error: unknown): WireError {
  if (ServerError.isServerError(error)) {
    return error.data === undefined
      ? { code: error.rpcCode, message: error.message }
      : { code: error.rpcCode, message: error.message, data: error.data };
  }
  if (ProtocolError.isInstance(error)) {
    // -32002 is 2025 vocabulary for a missing resource; both eras answer -32602 now (the SDK's choice).
    const code =
      error.code === JsonRpcErrorCode.LegacyResourceNotFound ? JsonRpcErrorCode.InvalidParams : error.code;
    return error.data === undefined
      ? { code, message: error.message }
      : { code, message: error.message, data: error.data };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { code: JsonRpcErrorCode.InternalError, message: message || 'Internal error' };
}
