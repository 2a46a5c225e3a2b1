/**
 * `POST /v1/tool-execute` for callers that do not speak MCP: `{ tool, input }` → the
 * `CallToolResult` (200, or 422 for an `isError` result). An unknown tool is 404 — known by the
 * local error's code, never by its text.
 */
import type { ServerResponse } from 'node:http';
import { ServerError, ServerErrorCode } from '../errors/server-error.js';
import type { McpServer } from '../server/mcp-server.js';
import { writeJson } from './http-failure.js';

function restError(response: ServerResponse, status: number, code: string, message: string): void {
  writeJson(response, status, { error: { code, message } });
}

/** Parses a REST body into the tool call it asks for. */
export function parseRestCall(body: unknown): { tool: string; input: unknown } | undefined {
  if (typeof body !== 'object' || body === null || typeof (body as { tool?: unknown }).tool !== 'string')
    return undefined;
  const { tool, input } = body as { tool: string; input?: unknown };
  return { tool, input: input ?? {} };
}

/** Runs a REST call and writes its answer. */
export async function serveRestCall(
  server: McpServer,
  call: { tool: string; input: unknown },
  response: ServerResponse,
): Promise<void> {
  const abort = new AbortController();
  response.on('close', () => {
    if (!response.writableFinished) abort.abort();
  });
  try {
    const result = await server.callTool(call.tool, call.input, { signal: abort.signal });
    writeJson(response, result.isError ? 422 : 200, result);
  } catch (error) {
    if (ServerError.isServerError(error)) {
      const status = error.code === ServerErrorCode.ToolNotFound ? 404 : error.httpStatus;
      restError(response, status, error.code, error.message);
      return;
    }
    restError(response, 500, 'SERVER_ERROR', error instanceof Error ? error.message : String(error));
  }
}

/** Writes the REST answer to a body that is not a call. */
export function refuseRestBody(response: ServerResponse, reason: 'json' | 'shape'): void {
  if (reason === 'json') restError(response, 400, 'INVALID_JSON', 'The body is not valid JSON.');
  else restError(response, 400, 'INVALID_ARGUMENT', 'Send {"tool": "<name>", "input": {...}}.');
}
