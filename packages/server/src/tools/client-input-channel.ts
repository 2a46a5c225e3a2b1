/**
 * How a running tool's `elicit` / `sample` / `listRoots` reach the client. One interface, three
 * ways: a 2025 session sends a server→client request; a 2026-07-28 call suspends (see
 * `suspendable-run.ts`); where neither exists the ask fails with a clear error.
 */
import type { ClientCapabilities, RequestId } from '@modelcontextprotocol/server';
import type { CallAbort } from '../cancellation/call-abort.js';
import { ServerError, ServerErrorCode } from '../errors/server-error.js';
import { type ClientInputRequest, missingClientCapabilities } from '../protocol/client-input-request.js';
import type { InboundRequest } from '../request/inbound-request.js';
import type { LegacySession } from '../session/legacy-session.js';

/** Asks the client for input on behalf of a running call. */
export interface ClientInputChannel {
  /** Resolves with the client's answer (an elicitation result, a sampling result, a roots listing). */
  ask(request: ClientInputRequest): Promise<unknown>;
}

function missingCapabilityError(request: ClientInputRequest, missing: ClientCapabilities): ServerError {
  const names = Object.keys(missing).join(', ');
  return new ServerError({
    code: ServerErrorCode.MissingClientCapability,
    message: `"${request.method}" needs the client capability ${names}, which the client did not declare; the server cannot ask it.`,
    data: { requiredCapabilities: missing },
  });
}

/** The channel of a call on a 2025 session: a server→client request on the call's stream. */
export function sessionInputChannel(
  session: LegacySession,
  relatedRequestId: RequestId,
  abort: CallAbort,
): ClientInputChannel {
  return {
    ask(request) {
      const missing = session.capabilitiesKnown
        ? missingClientCapabilities([request], session.clientCapabilities)
        : undefined;
      if (missing !== undefined) return Promise.reject(missingCapabilityError(request, missing));
      return session.request(request.method, request.params ?? {}, {
        relatedRequestId,
        signal: abort.signal,
      });
    },
  };
}

/** Why a request with no way to its client cannot ask it, and what would make it possible. */
export function noClientReason(request: InboundRequest): string {
  if (request.entry === 'rest') return 'this REST call has no client to answer: call the tool over MCP.';
  if (request.entry === 'in-process')
    return 'this in-process call (callTool) has no client to answer: call the tool over MCP.';
  return 'this 2025-era request came without a session: serve with { session: true } (or over stdio), or call from a 2026-07-28 client.';
}

/** The channel where the client cannot be asked; `why` says what would make it possible. */
export function unavailableInputChannel(why: string): ClientInputChannel {
  return {
    ask(request) {
      return Promise.reject(
        new ServerError({
          code: ServerErrorCode.ClientInputUnavailable,
          message: `The tool asked the client for "${request.method}", but ${why}`,
        }),
      );
    },
  };
}

export { missingCapabilityError };
