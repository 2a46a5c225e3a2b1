/**
 * The questions waiting for the person at the page: approval of a call, a server's elicitation,
 * a server's sampling request. Each is published as a `pending` event and waits until the page
 * answers it (`POST /api/pending/:id`) or whoever asked stops waiting (the call was cancelled, the
 * server withdrew its request): then it is settled with the answer that means "no".
 */
import { randomUUID } from 'node:crypto';
import type { UiEvent, UiPendingRequest } from './ui-api.js';
import { UiError, UiErrorCode } from './ui-error.js';

/** The page's answer to an approval. */
export interface ApprovalAnswer {
  approved: boolean;
}

/** The page's answer to an elicitation (an `ElicitResult`). */
export interface ElicitationAnswer {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, string | number | boolean | string[]>;
}

/** The page's answer to a sampling request: the reply the person wrote, or a refusal. */
export type SamplingAnswer = { action: 'accept'; text: string } | { action: 'decline' };

/** The answer type of each kind of question. */
export interface PendingAnswers {
  approval: ApprovalAnswer;
  elicitation: ElicitationAnswer;
  sampling: SamplingAnswer;
}

type PendingKind = UiPendingRequest['kind'];

/** A question of kind `K` before it has an id. */
export type PendingQuestion<K extends PendingKind> = Omit<Extract<UiPendingRequest, { kind: K }>, 'id'>;

/** Any question before it has an id. */
type AnyQuestion = PendingQuestion<'approval'> | PendingQuestion<'elicitation'> | PendingQuestion<'sampling'>;

/** What "no" means for each kind, when the asker stops waiting. */
const withdrawn: PendingAnswers = {
  approval: { approved: false },
  elicitation: { action: 'cancel' },
  sampling: { action: 'decline' },
};

/** The questions waiting now. */
export interface PendingRequests {
  /** Publishes the question and waits for its answer (or for `signal`, which settles it as "no"). */
  ask(question: PendingQuestion<'approval'>, signal?: AbortSignal): Promise<ApprovalAnswer>;
  ask(question: PendingQuestion<'elicitation'>, signal?: AbortSignal): Promise<ElicitationAnswer>;
  ask(question: PendingQuestion<'sampling'>, signal?: AbortSignal): Promise<SamplingAnswer>;
  /** Answers question `id` with the page's `body`; a body that does not fit its kind is a 400. */
  answer(id: string, body: unknown): void;
  list(): UiPendingRequest[];
  /** Settles every question as "no" (the session is closing). */
  withdrawAll(): void;
}

interface Waiting {
  request: UiPendingRequest;
  settle(answer: unknown): void;
}

/** Creates the set of waiting questions; events go to `publish`. */
export function createPendingRequests(publish: (event: UiEvent) => void): PendingRequests {
  const waiting = new Map<string, Waiting>();

  const finish = (id: string, answer: unknown) => {
    const entry = waiting.get(id);
    if (!entry) return;
    waiting.delete(id);
    entry.settle(answer);
    publish({ type: 'pending-done', id });
  };

  return {
    ask(question: AnyQuestion, signal?: AbortSignal): Promise<never> {
      const kind: PendingKind = question.kind;
      if (signal?.aborted) return Promise.resolve(withdrawn[kind] as never);
      const request = { ...question, id: `p-${randomUUID()}` } as UiPendingRequest;
      return new Promise<never>((resolve) => {
        const onAbort = () => finish(request.id, withdrawn[kind]);
        waiting.set(request.id, {
          request,
          settle: (answer) => {
            signal?.removeEventListener('abort', onAbort);
            resolve(answer as never);
          },
        });
        signal?.addEventListener('abort', onAbort, { once: true });
        publish({ type: 'pending', request });
      });
    },
    answer(id, body) {
      const entry = waiting.get(id);
      if (!entry) {
        throw new UiError({
          code: UiErrorCode.UnknownPending,
          message: `No question "${id}" is waiting: it was answered already, or withdrawn (its call ended). GET /api/pending lists the open ones.`,
          context: { id },
        });
      }
      finish(id, parseAnswer(entry.request, body));
    },
    list: () => [...waiting.values()].map((entry) => entry.request),
    withdrawAll() {
      for (const [id, entry] of [...waiting]) finish(id, withdrawn[entry.request.kind]);
    },
  };
}

function badAnswer(request: UiPendingRequest, expected: string): UiError {
  return new UiError({
    code: UiErrorCode.BadRequest,
    message: `The answer to ${request.kind} "${request.id}" must be ${expected}.`,
    context: { id: request.id, kind: request.kind },
  });
}

/** The page's body, checked against the kind of question it answers. */
function parseAnswer(request: UiPendingRequest, body: unknown): unknown {
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  if (request.kind === 'approval') {
    if (typeof record.approved !== 'boolean') throw badAnswer(request, '{ "approved": true | false }');
    return { approved: record.approved };
  }
  if (request.kind === 'elicitation') {
    const action = record.action;
    if (action !== 'accept' && action !== 'decline' && action !== 'cancel') {
      throw badAnswer(request, '{ "action": "accept" | "decline" | "cancel", "content"?: { … } }');
    }
    if (action !== 'accept') return { action };
    const content = record.content ?? {};
    if (typeof content !== 'object' || content === null || Array.isArray(content)) {
      throw badAnswer(request, 'an object of field values in "content" when accepting');
    }
    return { action, content };
  }
  if (record.action === 'decline') return { action: 'decline' };
  if (record.action !== 'accept' || typeof record.text !== 'string') {
    throw badAnswer(request, '{ "action": "accept", "text": "…" } or { "action": "decline" }');
  }
  return { action: 'accept', text: record.text };
}
