/** Parses a request body once: JSON, or a -32700 failure. */
import { JsonRpcErrorCode } from '../errors/json-rpc-error-code.js';
import { failure, type GuardResult } from './http-failure.js';

/** Parses the body text as JSON. */
export function parseBody(raw: Buffer): GuardResult<{ value: unknown }> {
  try {
    return { ok: true, value: JSON.parse(raw.toString('utf8')) };
  } catch {
    return failure(400, JsonRpcErrorCode.ParseError, 'Parse error: the body is not valid JSON.');
  }
}
