/**
 * The multi-round-trip pattern (SEP-2322) for any handler that may ask the client for input
 * (`tools/call`, `prompts/get`): reading a retry's `inputResponses` and sealed `requestState`, and
 * answering an input-required result in each era — in-band on 2026-07-28 (capabilities checked,
 * state sealed), as server→client requests on a 2025 session (the legacy shim: ask, then run the
 * handler again with the answers), and as a clear error where no channel to the client exists.
 */
import {
  type InputRequiredResult,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  type Result,
} from '@modelcontextprotocol/server';
import { JsonRpcErrorCode } from '../errors/json-rpc-error-code.js';
import { ServerError, ServerErrorCode } from '../errors/server-error.js';
import {
  type ClientInputRequest,
  isClientInputMethod,
  missingClientCapabilities,
} from '../protocol/client-input-request.js';
import type { InboundRequest } from '../request/inbound-request.js';
import { noClientReason } from './client-input-channel.js';
import type { RequestStateSeal, SealedState } from './request-state-seal.js';

/** The call a multi-round state belongs to. */
export interface RoundTarget {
  method: string;
  /** Tool name, prompt name or URI. */
  target: string;
}

/** What a retried request brought back. */
export interface RetryInput {
  /** The client's answers by key (undefined when it sent none). */
  responses: Record<string, unknown> | undefined;
  /** The opened `requestState` (undefined when it sent none). */
  state: SealedState | undefined;
}

/** What a handler is run again with (the legacy shim's rounds, a modern retry). */
export interface RoundInput {
  inputResponses?: Record<string, unknown>;
  requestState?: string;
}

/** Most rounds the legacy shim drives before giving up. */
const maxLegacyRounds = 16;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Reads a modern retry's `inputResponses` and `requestState`; undefined for a first round. */
export async function openRetry(
  request: InboundRequest,
  target: RoundTarget,
  seal: RequestStateSeal,
): Promise<RetryInput | undefined> {
  const params = request.params;
  if (request.era !== 'modern' || params === undefined) return undefined;
  const { inputResponses, requestState } = params as { inputResponses?: unknown; requestState?: unknown };
  if (inputResponses === undefined && requestState === undefined) return undefined;
  if (inputResponses !== undefined && !isPlainObject(inputResponses)) {
    throw new ServerError({
      code: ServerErrorCode.InvalidParams,
      message: `Invalid params for "${target.method}": "inputResponses" must be an object mapping each input request's key to its answer.`,
    });
  }
  const state =
    requestState === undefined ? undefined : await seal.open(requestState, target.method, target.target);
  return { responses: inputResponses as Record<string, unknown> | undefined, state };
}

/** True when a handler's value is an input-required result. */
export function isInputRequired(value: unknown): value is InputRequiredResult {
  return isPlainObject(value) && value.resultType === 'input_required';
}

/** The embedded requests of a handler's input-required result, checked. */
function inputRequestsOf(
  result: InputRequiredResult,
  target: RoundTarget,
): Record<string, ClientInputRequest> {
  const requests = (result as { inputRequests?: unknown }).inputRequests ?? {};
  if (!isPlainObject(requests)) {
    throw new ProtocolError(
      JsonRpcErrorCode.InternalError,
      `${target.method} "${target.target}" returned an input-required result whose inputRequests is not an object.`,
    );
  }
  for (const [key, value] of Object.entries(requests)) {
    if (!isPlainObject(value) || !isClientInputMethod(value.method)) {
      throw new ProtocolError(
        JsonRpcErrorCode.InternalError,
        `${target.method} "${target.target}" returned input request "${key}" that is not an elicitation/create, sampling/createMessage or roots/list request.`,
      );
    }
  }
  if (Object.keys(requests).length === 0 && result.requestState === undefined) {
    throw new ProtocolError(
      JsonRpcErrorCode.InternalError,
      `${target.method} "${target.target}" returned an input-required result with neither inputRequests nor requestState.`,
    );
  }
  return requests as Record<string, ClientInputRequest>;
}

/** The -32021 error for input requests the client did not declare it can answer. */
export function checkDeclaredCapabilities(
  request: InboundRequest,
  requests: Record<string, ClientInputRequest>,
): void {
  // A 2025 stateless exchange does not know what the client declared at `initialize`.
  if (request.era === 'legacy' && request.session?.capabilitiesKnown === false) return;
  const declared =
    request.era === 'modern' ? request.envelope?.clientCapabilities : request.session?.clientCapabilities;
  const missing = missingClientCapabilities(Object.values(requests), declared);
  if (missing !== undefined)
    throw new MissingRequiredClientCapabilityError({ requiredCapabilities: missing });
}

/** Builds a modern input-required answer, sealing the state it carries. */
export async function modernInputRequired(
  requests: Record<string, ClientInputRequest>,
  state: SealedState | undefined,
  seal: RequestStateSeal,
): Promise<Result> {
  const answer: Record<string, unknown> = { resultType: 'input_required', inputRequests: requests };
  if (state !== undefined) answer.requestState = await seal.seal(state);
  return answer as Result;
}

/**
 * Answers a handler's input-required result in the request's era. `rerun` runs the handler again
 * with the client's answers (the legacy shim); `unavailable` says what to answer where the client
 * cannot be asked (a tool makes it an `isError` result, a prompt an error).
 */
export async function answerInputRequired(
  request: InboundRequest,
  result: InputRequiredResult,
  target: RoundTarget,
  seal: RequestStateSeal,
  rerun: (input: RoundInput) => Promise<unknown>,
): Promise<Result> {
  let current: unknown = result;
  for (let round = 0; isInputRequired(current); round++) {
    const requests = inputRequestsOf(current, target);
    checkDeclaredCapabilities(request, requests);
    if (request.era === 'modern') {
      const toolState = current.requestState;
      return modernInputRequired(
        requests,
        toolState === undefined
          ? undefined
          : { method: target.method, target: target.target, handlerState: toolState },
        seal,
      );
    }
    const session = request.session;
    if (session === undefined) {
      const methods = [...new Set(Object.values(requests).map((entry) => entry.method))].join(', ');
      throw new ServerError({
        code: ServerErrorCode.ClientInputUnavailable,
        message: `${target.method} "${target.target}" needs input from the client (${methods}), but ${noClientReason(request)}`,
      });
    }
    if (round >= maxLegacyRounds) {
      throw new ProtocolError(
        JsonRpcErrorCode.InternalError,
        `${target.method} "${target.target}" kept asking for input after ${maxLegacyRounds} rounds; giving up.`,
      );
    }
    const entries = Object.entries(requests);
    const answers = await Promise.all(
      entries.map(([, entry]) =>
        session.request(entry.method, entry.params ?? {}, {
          relatedRequestId: request.id,
          signal: request.abort.signal,
        }),
      ),
    );
    const inputResponses: Record<string, unknown> = {};
    entries.forEach(([key], index) => {
      inputResponses[key] = answers[index];
    });
    const next: RoundInput = { inputResponses };
    if (current.requestState !== undefined) next.requestState = current.requestState;
    current = await rerun(next);
  }
  return current as Result;
}
