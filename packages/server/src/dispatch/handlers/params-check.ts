/**
 * Params checks of requests: the zod schemas of `@modelcontextprotocol/core` where their cost is
 * acceptable, turned into -32602 errors that name the method and the problem. The hot
 * `tools/call` path checks its two fields by hand instead.
 */
import type { z } from 'zod';
import { ServerError, ServerErrorCode } from '../../errors/server-error.js';
import type { InboundRequest } from '../../request/inbound-request.js';

/** A -32602 error for `method`. */
export function invalidParams(method: string, problem: string): ServerError {
  return new ServerError({
    code: ServerErrorCode.InvalidParams,
    message: `Invalid params for "${method}": ${problem}`,
  });
}

/** Checks a request (method + params) against an SDK request schema; returns its params. */
export function checkParams<T extends z.ZodType>(
  schema: T,
  request: InboundRequest,
): NonNullable<z.output<T>> extends { params?: infer P } ? P : never {
  const result = schema.safeParse({ method: request.method, params: request.params ?? {} });
  if (!result.success) {
    const problems = result.error.issues
      .slice(0, 5)
      .map((issue) => `${issue.path.length ? issue.path.join('.') : 'params'}: ${issue.message}`)
      .join('; ');
    throw invalidParams(request.method, problems);
  }
  return (result.data as { params?: unknown }).params as never;
}
