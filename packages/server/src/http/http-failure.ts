/**
 * The result union every HTTP guard returns, and the one function that writes a failure: status,
 * headers and a JSON-RPC error body (or, for the REST endpoint and `/health`, the plain body the
 * guard built). Guards stay pure; only this writes.
 */
import type { ServerResponse } from 'node:http';
import type { RequestId } from '@modelcontextprotocol/server';
import { JsonRpcErrorCode } from '../errors/json-rpc-error-code.js';
import { ServerError } from '../errors/server-error.js';

/** A refused request: what to answer. */
export interface HttpFailure {
  ok: false;
  status: number;
  /** The JSON-RPC error code of the body. */
  code: number;
  message: string;
  data?: unknown;
  /** The request id to echo, when the body had a usable one. */
  id?: RequestId | null;
  headers?: Record<string, string>;
  /** A body other than a JSON-RPC error (REST, OAuth challenges). */
  body?: unknown;
}

/** A guard's verdict: pass (with what it found), or the failure to answer. */
export type GuardResult<T = Record<never, never>> = ({ ok: true } & T) | HttpFailure;

/** Builds a failure. */
export function failure(
  status: number,
  code: number,
  message: string,
  extra: Omit<HttpFailure, 'ok' | 'status' | 'code' | 'message'> = {},
): HttpFailure {
  return { ok: false, status, code, message, ...extra };
}

/** Writes a JSON body with status and headers in one `writeHead`/`end`. */
export function writeJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers?: Record<string, string>,
): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  const text = JSON.stringify(body);
  // Headers as a flat array: no header map to build on the hot path.
  const raw = ['content-type', 'application/json', 'content-length', String(Buffer.byteLength(text))];
  if (headers !== undefined) for (const name in headers) raw.push(name, headers[name] as string);
  response.writeHead(status, raw);
  response.end(text);
}

/** Writes a failure: its body, or a JSON-RPC error response. */
export function writeFailure(response: ServerResponse, refused: HttpFailure): void {
  const body =
    refused.body ??
    ({
      jsonrpc: '2.0',
      id: refused.id ?? null,
      error:
        refused.data === undefined
          ? { code: refused.code, message: refused.message }
          : { code: refused.code, message: refused.message, data: refused.data },
    } as const);
  writeJson(response, refused.status, body, refused.headers);
}

/**
 * The failure of a thrown error where HTTP decides the status: a `ServerError` by its table
 * (503 and 429 with `Retry-After`), anything else as a 500 whose text is not shown.
 */
export function failureOf(error: unknown, id?: RequestId | null): HttpFailure {
  if (!ServerError.isServerError(error))
    return failure(500, JsonRpcErrorCode.InternalError, 'Internal error', id === undefined ? {} : { id });
  const retryAfter =
    error.httpStatus === 503
      ? '1'
      : typeof (error.data as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds === 'number'
        ? String((error.data as { retryAfterSeconds: number }).retryAfterSeconds)
        : undefined;
  return failure(error.httpStatus, error.rpcCode, error.message, {
    ...(id !== undefined ? { id } : {}),
    ...(error.data !== undefined ? { data: error.data } : {}),
    ...(retryAfter !== undefined ? { headers: { 'retry-after': retryAfter } } : {}),
  });
}
