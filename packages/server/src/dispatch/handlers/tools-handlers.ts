/** `tools/list` and `tools/call`. */
import type { Result } from '@modelcontextprotocol/server';
import type { ApprovalResult } from '@switchboard/core';
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

/** The -32602 error for an unknown tool, listing what is served (and `more`: why it may be missing). */
export function toolNotFound(name: string, scope: ServerScope, more?: string): ServerError {
  const known = scope.tools.names();
  const hint = known.length
    ? ` Available tools: ${known.slice(0, 20).join(', ')}${known.length > 20 ? ', …' : ''}.`
    : ' This server has no tools.';
  return new ServerError({
    code: ServerErrorCode.ToolNotFound,
    message: `Unknown tool "${name}".${more === undefined ? '' : ` ${more}`}${hint}`,
    context: { tool: name },
  });
}

/**
 * The -32602 error for a tool the server has but does not serve: what hides it (a `deny` of the
 * approval policy, or an `ask` under the `hide` prompt) and what would serve it.
 */
function toolNotServed(name: string, hidden: ApprovalResult): ServerError {
  const why =
    hidden.decision === 'deny'
      ? `its approval policy denies it (${hidden.reason}). Calls to it are refused; to use it, change the policy (an allow rule, or a server config's \`approval\` setting).`
      : `it needs a person's approval (${hidden.reason}) and this server hides such tools (approval prompt 'hide'). To serve it, use the prompt 'auto', 'elicit' or 'host' (\`switchboard serve --approval auto\`).`;
  return new ServerError({
    code: ServerErrorCode.ToolNotServed,
    message: `Tool "${name}" exists but is not served: ${why}`,
    context: { tool: name, decision: hidden.decision, reason: hidden.reason },
  });
}

/** The error for a name with no served tool: hidden by policy, or unknown (with the server's hint). */
function missingTool(name: string, scope: ServerScope): ToolAnswer {
  const hidden = scope.tools.whyHidden(name);
  if (hidden !== undefined) throw toolNotServed(name, hidden);
  if (scope.missingToolHint === undefined) throw toolNotFound(name, scope);
  // A hint that fails is no hint: the caller still learns the tool is unknown.
  return Promise.resolve()
    .then(() => scope.missingToolHint?.(name))
    .then(
      (hint) => {
        throw toolNotFound(name, scope, hint);
      },
      () => {
        throw toolNotFound(name, scope);
      },
    );
}

/** `tools/call`: runs the tool (a task for long-running tools, a resumed run on a retry). */
export function callTool(request: InboundRequest, scope: ServerScope): ToolAnswer {
  const params = request.params;
  if (params === undefined) throw invalidParams('tools/call', 'params with "name" are required');
  const { name, arguments: args } = params as { name?: unknown; arguments?: unknown };
  if (typeof name !== 'string') throw invalidParams('tools/call', 'name: expected the tool name as a string');
  if (args !== undefined && !isPlainObject(args))
    throw invalidParams('tools/call', 'arguments: expected an object');
  const tool = scope.tools.callable(name);
  if (tool === undefined) return missingTool(name, scope);
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
  // A sealed state for this tool was issued by a round that ran: its approval was settled then.
  if (retry?.state !== undefined) invocation.approvedEarlier();
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
