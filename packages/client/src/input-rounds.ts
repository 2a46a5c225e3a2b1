/**
 * The input-required rounds of one request (2026-07-28 multi-round trips, SEP-2322): while the
 * server answers `input_required`, answer each of its input requests (elicitation, sampling,
 * roots) with the handlers of the call that sent it, then send the request again — a new
 * request, a new id — carrying `inputResponses` and the server's `requestState` exactly as it
 * came (none when it sent none). The call is known here because this loop runs inside it: no
 * request has to be matched to its call afterwards. A round that only carries state (load
 * shedding) waits a little before the next, and the rounds are bounded.
 */
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { DecodedResult } from './result-decoding.js';
import type { AnswerServerRequest, RequestOwner } from './server-request-answers.js';

/** Most rounds one request runs (the SDK's own bound). */
const maxRounds = 10;
/** Pause before a round that answers nothing (state only): nothing else slows such a loop down. */
const stateOnlyPacingMs = 250;

/** What the loop needs of the request it runs in. */
export interface InputRoundsContext {
  method: string;
  /** Answers one input request of the server. */
  answer: AnswerServerRequest;
  /** The call the request belongs to (its handlers answer first). */
  owner: RequestOwner | undefined;
  /** The caller's signal: aborting it stops the rounds. */
  signal: AbortSignal | undefined;
  /** Sends the request again with these extra params, and reads its result. */
  resend(extra: { inputResponses?: Record<string, unknown>; requestState?: string }): Promise<DecodedResult>;
}

const neverAborted = new AbortController().signal;

/** Runs rounds from `first` until the server answers (or creates a task). */
export async function runInputRounds(
  first: Extract<DecodedResult, { kind: 'input_required' }>,
  context: InputRoundsContext,
): Promise<Exclude<DecodedResult, { kind: 'input_required' }>> {
  let round: DecodedResult = first;
  for (let count = 1; round.kind === 'input_required'; count++) {
    if (count > maxRounds) {
      throw new SdkError(
        SdkErrorCode.InputRequiredRoundsExceeded,
        `Multi-round-trip request '${context.method}' still required input after ${maxRounds} rounds`,
        { rounds: maxRounds },
      );
    }
    const entries = Object.entries(round.inputRequests);
    const extra: { inputResponses?: Record<string, unknown>; requestState?: string } = {};
    if (entries.length > 0) {
      extra.inputResponses = await answerAll(entries, context);
    } else {
      await pause(stateOnlyPacingMs, context.signal);
    }
    if (round.requestState !== undefined) extra.requestState = round.requestState;
    round = await context.resend(extra);
  }
  return round;
}

/** Answers every input request of a round; the first failure aborts the others. */
async function answerAll(
  entries: Array<[string, unknown]>,
  context: InputRoundsContext,
): Promise<Record<string, unknown>> {
  const round = new AbortController();
  const outer = context.signal ?? neverAborted;
  const onAbort = () => round.abort(outer.reason);
  outer.addEventListener('abort', onAbort, { once: true });
  try {
    const answered = await Promise.all(
      entries.map(async ([key, entry]) => {
        const request = (typeof entry === 'object' && entry !== null ? entry : {}) as {
          method?: unknown;
          params?: unknown;
        };
        try {
          const answer = await context.answer(
            typeof request.method === 'string' ? request.method : '',
            (typeof request.params === 'object' && request.params !== null ? request.params : {}) as Record<
              string,
              unknown
            >,
            context.owner,
            round.signal,
          );
          return [key, answer] as const;
        } catch (error) {
          round.abort(error);
          throw error;
        }
      }),
    );
    return Object.fromEntries(answered);
  } finally {
    outer.removeEventListener('abort', onAbort);
  }
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new SdkError(SdkErrorCode.RequestTimeout, String(signal.reason)));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(new SdkError(SdkErrorCode.RequestTimeout, String(signal?.reason)));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
