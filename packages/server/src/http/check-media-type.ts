/** Media types: a POST body must be JSON, and the client must accept JSON or SSE; a GET stream must accept SSE. */
import { isJsonContentType } from '@modelcontextprotocol/server';
import { JsonRpcErrorCode } from '../errors/json-rpc-error-code.js';
import { failure, type GuardResult } from './http-failure.js';

/** Checks `Content-Type` and `Accept` of a POST; passes whether the client accepts SSE. */
export function checkPostMediaType(
  contentType: string | undefined,
  accept: string | undefined,
): GuardResult<{ sse: boolean }> {
  if (!isJsonContentType(contentType ?? null)) {
    return failure(
      415,
      JsonRpcErrorCode.TransportRefused,
      'Unsupported Media Type: Content-Type must be application/json.',
    );
  }
  if (accept === undefined) return { ok: true, sse: false };
  const sse = accept.includes('text/event-stream');
  if (!sse && !accept.includes('application/json') && !accept.includes('*/*')) {
    return failure(
      406,
      JsonRpcErrorCode.TransportRefused,
      'Not Acceptable: Accept must include application/json or text/event-stream.',
    );
  }
  return { ok: true, sse };
}

/** Checks the `Accept` of a GET (a session's server-sent event stream). */
export function checkStreamAccept(accept: string | undefined): GuardResult {
  if (accept?.includes('text/event-stream')) return { ok: true };
  return failure(
    406,
    JsonRpcErrorCode.TransportRefused,
    'Not Acceptable: a GET stream needs Accept: text/event-stream.',
  );
}
