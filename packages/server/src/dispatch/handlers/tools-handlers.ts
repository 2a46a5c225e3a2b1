/** `tools/list` and `tools/call`. */
import type { Result } from '@modelcontextprotocol/server';
import { ServerError, ServerErrorCode } from '../../errors/server-error.js';
import type { InboundRequest } from '../../request/inbound-request.js';
import { openRetry } from '../../tools/multi-round.js';
import type { ServerScope } from '../server-scope.js';
import { type ToolAnswer, ToolInvocation } from '../tool-invocation.js';
import { invalidParams } from './params-check.js';
import { startToolTask } from './tasks-handlers.js';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `tools/list`: every served tool, sorted by name (no pagination: the list is served whole). */
export function listTools(request: InboundRequest, scope: ServerScope): Result {
  const cursor = request.params?.cursor;
  if (cursor !== undefined && typeof cursor !== 'string')
    throw invalidParams('tools/list', 'cursor: expected a string');
  return { tools: scope.tools.list() };
}

/** The -32602 error for an unknown tool, listing what is served. */
export function toolNotFound(name: string, scope: ServerScope): ServerError {
  const known = scope.tools.names();
  const hint = known.length
    ? ` Available tools: ${known.slice(0, 20).join(', ')}${known.length > 20 ? ', …' : ''}.`
    : ' This server has no tools.';
  return new ServerError({
    code: ServerErrorCode.ToolNotFound,
    message: `Unknown tool "${name}".${hint}`,
    context: { tool: name },
  });
}

/** `tools/call`: runs the tool (a task for long-running tools, a resumed run on a retry). */
export function callTool(request: InboundRequest, scope: ServerScope): ToolAnswer {
  const params = request.params;
  if (params === undefined) throw invalidParams('tools/call', 'params with "name" are required');
  const { name, arguments: args } = params as { name?: unknown; arguments?: unknown };
  if (typeof name !== 'string') throw invalidParams('tools/call', 'name: expected the tool name as a string');
  if (args !== undefined && !isPlainObject(args))
    throw invalidParams('tools/call', 'arguments: expected an object');
  const tool = scope.tools.get(name);
  if (tool === undefined) throw toolNotFound(name, scope);
  const invocation = new ToolInvocation(request, scope, tool, args ?? {});
  if (request.era === 'modern') {
    if (params.inputResponses !== undefined || params.requestState !== undefined) {
      return resumeToolCall(request, scope, invocation, name);
    }
    const task = startToolTask(request, scope, tool, args ?? {});
    if (task !== undefined) return task;
  }
  return invocation.run();
}

/** A retry of a multi-round call: resumes its parked run, or runs the tool again with the answers. */
async function resumeToolCall(
  request: InboundRequest,
  scope: ServerScope,
  invocation: ToolInvocation,
  name: string,
): Promise<Result> {
  const retry = await openRetry(request, { method: 'tools/call', target: name }, scope.seal);
  const runId = retry?.state?.runId;
  if (runId === undefined) {
    return invocation.run({
      ...(retry?.responses !== undefined ? { inputResponses: retry.responses } : {}),
      ...(retry?.state?.handlerState !== undefined ? { requestState: retry.state.handlerState } : {}),
    });
  }
  const parked = scope.suspended.take(runId);
  if (parked === undefined) {
    throw new ServerError({
      code: ServerErrorCode.SuspendedCallGone,
      message: `The suspended call of tool "${name}" that this requestState names is gone: it expired (after ${scope.seal.ttlMs} ms) or the server restarted. Call the tool again without requestState and inputResponses.`,
      context: { tool: name },
    });
  }
  // The retry's own cancellation stops the resumed run.
  if (request.abort.aborted) parked.abort.abort(request.abort.signal.reason);
  else
    request.abort.signal.addEventListener('abort', () => parked.abort.abort(request.abort.signal.reason), {
      once: true,
    });
  return invocation.resume(parked, retry?.responses);
}
