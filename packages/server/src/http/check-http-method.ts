/** Which HTTP methods the MCP endpoint takes: POST always; GET and DELETE only in session mode. */
import { JsonRpcErrorCode } from '../errors/json-rpc-error-code.js';
import { failure, type GuardResult } from './http-failure.js';

/** Checks the method of a request to the MCP endpoint. */
export function checkHttpMethod(
  method: string | undefined,
  sessions: boolean,
): GuardResult<{ method: 'POST' | 'GET' | 'DELETE' }> {
  if (method === 'POST') return { ok: true, method };
  if (sessions && (method === 'GET' || method === 'DELETE')) return { ok: true, method };
  return failure(
    405,
    JsonRpcErrorCode.TransportRefused,
    sessions
      ? `Method not allowed: ${method}; the MCP endpoint takes POST, GET (a session's stream) and DELETE (ends a session).`
      : `Method not allowed: ${method} (this endpoint is stateless; use POST).`,
    { headers: { allow: sessions ? 'GET, POST, DELETE' : 'POST' } },
  );
}
