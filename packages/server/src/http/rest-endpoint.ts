/**
 * `POST /v1/tool-execute` for callers that do not speak MCP: `{ tool, input }` → the
 * `CallToolResult` (200, or 422 for an `isError` result). The body becomes a `tools/call`, which
 * goes through the same guards (scopes, rate limit) and the same dispatcher as any other call, so
 * it is traced and measured alike; it is invoked with no client to ask for input. An unknown tool
 * is 404 — known by the local error's code, never by its text.
 */
import type { ServerResponse } from 'node:http';
import type { JSONRPCRequest } from '@modelcontextprotocol/server';
import { CallAbort } from '../cancellation/call-abort.js';
import type { RequestDispatcher } from '../dispatch/request-dispatcher.js';
import { ServerError, ServerErrorCode } from '../errors/server-error.js';
import type { RequestAuth } from '../request/request-auth.js';
import { silentChannel } from '../request/request-channel.js';
import { writeJson } from './http-failure.js';

/** The REST path, beside the MCP endpoint. */
export const restPath = '/v1/tool-execute';

function restError(response: ServerResponse, status: number, code: string, message: string): void {
  writeJson(response, status, { error: { code, message } });
}

/**
 * The `tools/call` a REST body asks for; undefined (after answering 400) for a body that is not
 * JSON (`parsed` undefined) or not `{ tool, input }`.
 */
export function restCallOf(
  parsed: { value: unknown } | undefined,
  response: ServerResponse,
): JSONRPCRequest | undefined {
  const body = parsed?.value;
  if (typeof body !== 'object' || body === null || typeof (body as { tool?: unknown }).tool !== 'string') {
    if (parsed === undefined) restError(response, 400, 'INVALID_JSON', 'The body is not valid JSON.');
    else restError(response, 400, 'INVALID_ARGUMENT', 'Send {"tool": "<name>", "input": {...}}.');
    return undefined;
  }
  const { tool, input } = body as { tool: string; input?: unknown };
  return { jsonrpc: '2.0', id: 0, method: 'tools/call', params: { name: tool, arguments: input ?? {} } };
}

/** Runs a REST call through the dispatcher and writes its answer. */
export async function serveRestCall(
  dispatcher: RequestDispatcher,
  call: JSONRPCRequest,
  response: ServerResponse,
  auth: RequestAuth | undefined,
): Promise<void> {
  const abort = new CallAbort();
  response.on('close', () => {
    if (!response.writableFinished) abort.abort('The HTTP request was closed.');
  });
  try {
    const result = await dispatcher.invoke({
      id: call.id,
      method: call.method,
      params: call.params as Record<string, unknown> | undefined,
      era: 'legacy',
      entry: 'rest',
      transport: 'http',
      channel: silentChannel,
      abort,
      ...(auth !== undefined ? { auth } : {}),
    });
    writeJson(response, (result as { isError?: unknown }).isError === true ? 422 : 200, result);
  } catch (error) {
    if (ServerError.isServerError(error)) {
      const status = error.code === ServerErrorCode.ToolNotFound ? 404 : error.httpStatus;
      restError(response, status, error.code, error.message);
      return;
    }
    restError(response, 500, 'SERVER_ERROR', error instanceof Error ? error.message : String(error));
  }
}
