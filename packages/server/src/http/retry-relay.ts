/**
 * Relaying of 2026-07-28 multi-round retries between replicas. A tool parked for client input
 * lives in the process that ran it, and its sealed `requestState` names that replica. A retry a
 * balancer sends elsewhere is relayed whole, through the cluster state, to the owner, which serves
 * it as if it had arrived there; its answer (input-required again, the result, or an error) comes
 * back unchanged, and the resumed call's notifications are written to the client's SSE stream as
 * they arrive; the client closing the retry cancels the run there. An owner that is gone or silent is answered with SUSPENDED_CALL_UNREACHABLE
 * (-32602: start the call again); a shared state that does not answer, with the usual 503.
 */
import type { JSONRPCNotification, JSONRPCRequest, JSONRPCResponse } from '@modelcontextprotocol/server';
import { CallAbort } from '../cancellation/call-abort.js';
import type { RequestRelay } from '../cluster/cluster-state.js';
import type { RequestDispatcher } from '../dispatch/request-dispatcher.js';
import { ServerError, ServerErrorCode } from '../errors/server-error.js';
import { toWireError } from '../errors/to-wire-error.js';
import { readRequestEnvelope } from '../protocol/request-envelope.js';
import type { InboundRequest } from '../request/inbound-request.js';
import type { RequestAuth } from '../request/request-auth.js';
import { isPromiseLike } from '../tools/to-call-tool-result.js';
import type { RequestHandling } from './stateless-exchange.js';

/** The relayed payload, versioned: replicas of two releases refuse what they cannot read. */
interface RelayedRetry {
  kind: 'switchboard/mrtr-retry/v1';
  /** The client's `tools/call`, as it was sent. */
  message: JSONRPCRequest;
  /** The caller as the receiving replica authenticated it. */
  auth?: RequestAuth;
  /** The client reads an SSE stream: the owner sends the call's notifications along. */
  notify: boolean;
}

/** What the owner answers. */
interface RelayedAnswer {
  /** The call's JSON-RPC answer; null when it was cancelled there. */
  message: JSONRPCResponse | null;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function isRelayedRetry(payload: unknown): payload is RelayedRetry {
  return (
    isObject(payload) &&
    payload.kind === 'switchboard/mrtr-retry/v1' &&
    isObject(payload.message) &&
    payload.message.method === 'tools/call'
  );
}

/** Options of {@link relayRetryTo}. */
export interface RetryRelayOptions {
  cluster: RequestRelay;
  /** The replica holding the parked run. */
  owner: string;
  /** The tool the state was minted for (for messages). */
  tool: string;
  timeoutMs: number;
  /** Whether the client reads an SSE stream. */
  sse: boolean;
  auth?: RequestAuth;
}

/** Serves a retry by relaying it to the replica holding its parked run. */
export function relayRetryTo(options: RetryRelayOptions): RequestHandling {
  return {
    dispatch: async (request: InboundRequest) => {
      const payload: RelayedRetry = {
        kind: 'switchboard/mrtr-retry/v1',
        message: { jsonrpc: '2.0', id: request.id, method: request.method, params: request.params },
        notify: options.sse,
        ...(options.auth !== undefined ? { auth: options.auth } : {}),
      } as RelayedRetry;
      let reply: unknown;
      try {
        reply = await options.cluster.forwardRequest(options.owner, payload, {
          timeoutMs: options.timeoutMs,
          // The client closing the retry cancels the resumed run on the owner.
          signal: request.abort.signal,
          onPartial: (value) => {
            if (isObject(value) && typeof value.method === 'string')
              request.channel.notify(value as unknown as JSONRPCNotification);
          },
        });
      } catch (error) {
        // Cancelled: no answer (the spec: none to a cancelled request).
        if (request.abort.aborted) return undefined;
        // The shared state itself is down: the same fast 503 as every shared-state path.
        if (ServerError.isServerError(error) && error.code === ServerErrorCode.ClusterUnavailable)
          throw error;
        return errorAnswer(request, unreachable(options, error));
      }
      const answer = isObject(reply) ? (reply as unknown as RelayedAnswer).message : undefined;
      if (answer === null) return undefined;
      if (!isObject(answer) || answer.jsonrpc !== '2.0')
        return errorAnswer(
          request,
          unreachable(options, new Error('it sent an answer this replica cannot read')),
        );
      return answer;
    },
  };
}

function unreachable(options: RetryRelayOptions, cause: unknown): ServerError {
  const why = cause instanceof Error ? cause.message : String(cause);
  return new ServerError({
    code: ServerErrorCode.SuspendedCallUnreachable,
    message: `The suspended call of tool "${options.tool}" that this requestState names is parked on replica ${options.owner}, which did not answer (${why}). Call the tool again without requestState and inputResponses.`,
    context: { tool: options.tool, replica: options.owner },
    data: { reason: 'suspended_call_unreachable', replica: options.owner },
    cause,
  });
}

function errorAnswer(request: InboundRequest, error: ServerError): JSONRPCResponse {
  return { jsonrpc: '2.0', id: request.id, error: toWireError(error) } as JSONRPCResponse;
}

/**
 * Serves retries other replicas relay here: each is dispatched as if it had arrived over HTTP
 * (modern era, the sender's auth), its notifications sent back as partials. Returns the uninstall.
 */
export function answerRelayedRetries(
  cluster: RequestRelay,
  dispatcher: RequestDispatcher,
  replicaId: string,
): () => void {
  return cluster.onForwardedRequest(async (payload, { partial, signal }) => {
    if (!isRelayedRetry(payload)) throw new Error('not a relayed retry this replica can read');
    const { message } = payload;
    const abort = new CallAbort();
    const cancel = () => abort.abort('The client closed the relayed retry.');
    if (signal.aborted) cancel();
    else signal.addEventListener('abort', cancel, { once: true });
    const request: InboundRequest = {
      id: message.id,
      method: message.method,
      params: message.params as Record<string, unknown> | undefined,
      era: 'modern',
      transport: 'http',
      // The receiving replica classified the request and validated its envelope.
      envelope: readRequestEnvelope(message.params),
      ...(payload.auth !== undefined ? { auth: payload.auth } : {}),
      replicaId,
      abort,
      channel: {
        notify: (notification) => {
          if (payload.notify) partial(notification);
        },
      },
    };
    const answer = dispatcher.dispatch(request);
    const settled = isPromiseLike(answer) ? await answer : answer;
    const reply: RelayedAnswer = { message: settled ?? null };
    return reply;
  });
}
