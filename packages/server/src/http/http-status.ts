/**
 * The HTTP status of a JSON-RPC answer. Errors a handler produced stay in-band (200), with the
 * spec's exceptions: on 2026-07-28 an unknown method is 404, and a missing client capability is
 * 400 in every era where HTTP decides.
 */
import type { JSONRPCResponse } from '@modelcontextprotocol/server';
import { JsonRpcErrorCode } from '../errors/json-rpc-error-code.js';
import type { ProtocolEra } from '../protocol/protocol-versions.js';

/** The status an answer is written with (before any stream opened). */
export function httpStatusOf(answer: JSONRPCResponse, era: ProtocolEra): number {
  const error = (answer as { error?: { code: number } }).error;
  if (error === undefined) return 200;
  if (error.code === JsonRpcErrorCode.MissingRequiredClientCapability) return 400;
  if (era === 'modern' && error.code === JsonRpcErrorCode.MethodNotFound) return 404;
  return 200;
}
