/**
 * The answers to what servers ask of the client — elicitation (`elicitation/create`) and sampling
 * (`sampling/createMessage`) — come from the person at the page: each request becomes a pending
 * question, its answer becomes the result the server gets. There is no model in `switchboard ui`:
 * for sampling the person writes the reply.
 */
import type { ElicitationHandler, SamplingHandler } from '@switchboard/client';
import type { JsonSchema } from '@switchboard/core';
import type { PendingRequests } from './pending-requests.js';
import type { UiRedaction } from './ui-redaction.js';

/** The model name a sampling result carries: a person answered, not a model. */
export const humanSamplingModel = 'switchboard-ui (written by a person)';

/** Handlers for one call (`callId` set) or for requests outside any call of the page. */
export interface ServerQuestions {
  elicitation(callId?: string): ElicitationHandler;
  sampling(callId?: string): SamplingHandler;
}

/** Creates the handlers; questions go to `pending`, their text through `redaction`. */
export function createServerQuestions(pending: PendingRequests, redaction: UiRedaction): ServerQuestions {
  return {
    elicitation: (callId) => async (params, context) => {
      const request = params as {
        mode?: string;
        message?: string;
        requestedSchema?: JsonSchema;
        url?: string;
      };
      const answer = await pending.ask(
        {
          kind: 'elicitation',
          server: context.server,
          ...(callId === undefined ? {} : { callId }),
          message: redaction.text(request.message ?? ''),
          ...(request.requestedSchema === undefined
            ? {}
            : { requestedSchema: redaction.value(request.requestedSchema) }),
          ...(request.mode === 'url' && typeof request.url === 'string'
            ? { url: redaction.text(request.url) }
            : {}),
        },
        context.signal,
      );
      return answer.action === 'accept'
        ? { action: 'accept', ...(answer.content === undefined ? {} : { content: answer.content }) }
        : { action: answer.action };
    },
    sampling: (callId) => async (params, context) => {
      const answer = await pending.ask(
        {
          kind: 'sampling',
          server: context.server,
          ...(callId === undefined ? {} : { callId }),
          params: redaction.value(params),
        },
        context.signal,
      );
      if (answer.action === 'decline') {
        throw new Error(`The person at switchboard ui declined the sampling request of "${context.server}".`);
      }
      return {
        role: 'assistant',
        content: { type: 'text', text: answer.text },
        model: humanSamplingModel,
        stopReason: 'endTurn',
      };
    },
  };
}
