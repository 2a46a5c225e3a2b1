/**
 * A 2026-07-28 tool call that may stop to ask the client for input. The tool's `elicit()` (or
 * `sample`, `listRoots`) parks a pending question; once the tool can go no further the run
 * reports the open questions, the call answers an input-required result, and the run waits in
 * memory until the client's retry brings the answers (`answer`), then goes on from where it was.
 */
import type { ClientCapabilities } from '@modelcontextprotocol/server';
import {
  type ClientInputMethod,
  type ClientInputRequest,
  isValidClientInputResponse,
  missingClientCapabilities,
} from '../protocol/client-input-request.js';
import { type ClientInputChannel, missingCapabilityError } from './client-input-channel.js';

/** What a run did next: finished, failed, or needs the client's input. */
export type RunEvent =
  | { kind: 'done'; value: unknown }
  | { kind: 'task'; task: unknown }
  | { kind: 'failed'; error: unknown }
  | { kind: 'input'; requests: Record<string, ClientInputRequest> };

interface PendingInput {
  request: ClientInputRequest;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

const keyPrefix: Readonly<Record<ClientInputMethod, string>> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/** A tool call that can suspend for client input (the modern era's channel). */
export class SuspendableRun implements ClientInputChannel {
  readonly #pending = new Map<string, PendingInput>();
  readonly #counts: Record<string, number> = {};
  readonly #declared: ClientCapabilities;
  #event: RunEvent | undefined;
  #waiter: ((event: RunEvent) => void) | undefined;
  #reportScheduled = false;
  #finished = false;

  /** `declared`: the client capabilities of the request (a question needing another one fails the call with -32021). */
  constructor(declared: ClientCapabilities) {
    this.#declared = declared;
  }

  /** Follows the tool's promise: its settling is the run's last event. */
  follow(outcome: PromiseLike<unknown>): void {
    outcome.then(
      (value) => this.#finish({ kind: 'done', value }),
      (error: unknown) => this.#finish({ kind: 'failed', error }),
    );
  }

  /** The next event (at once if one happened already). */
  next(): Promise<RunEvent> {
    const event = this.#event;
    if (event !== undefined) {
      if (event.kind === 'input') this.#event = undefined;
      return Promise.resolve(event);
    }
    return new Promise((resolve) => {
      this.#waiter = resolve;
    });
  }

  ask(request: ClientInputRequest): Promise<unknown> {
    const missing = missingClientCapabilities([request], this.#declared);
    if (missing !== undefined) {
      // The client said it cannot answer: the call fails with -32021, whatever the tool does next.
      const error = missingCapabilityError(request, missing);
      this.#finish({ kind: 'failed', error });
      return Promise.reject(error);
    }
    const prefix = keyPrefix[request.method];
    const count = (this.#counts[prefix] ?? 0) + 1;
    this.#counts[prefix] = count;
    return new Promise((resolve, reject) => {
      this.#pending.set(`${prefix}_${count}`, { request, resolve, reject });
      this.#scheduleReport();
    });
  }

  /**
   * Hands the client's answers to the questions they match (a malformed answer counts as none);
   * questions left open are asked again.
   */
  answer(responses: Record<string, unknown> | undefined): void {
    for (const [key, pending] of [...this.#pending]) {
      const response = responses?.[key];
      if (response === undefined || !isValidClientInputResponse(pending.request, response)) continue;
      this.#pending.delete(key);
      pending.resolve(response);
    }
    if (this.#pending.size > 0) this.#scheduleReport();
  }

  /** The tool went on as a task: the call answers with it; the run reports nothing more. */
  escalate(task: unknown): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#emit({ kind: 'task', task });
  }

  /** Ends a run nobody will resume (expired, shut down): its open questions reject with `reason`. */
  abandon(reason: unknown): void {
    for (const pending of this.#pending.values()) pending.reject(reason);
    this.#pending.clear();
  }

  // Questions asked together (Promise.all of an elicit and a sample) are reported together: the
  // report waits until the tool has run as far as it can in this turn.
  #scheduleReport(): void {
    if (this.#reportScheduled) return;
    this.#reportScheduled = true;
    setImmediate(() => {
      this.#reportScheduled = false;
      if (this.#finished || this.#pending.size === 0) return;
      const requests: Record<string, ClientInputRequest> = {};
      for (const [key, pending] of this.#pending) requests[key] = pending.request;
      this.#emit({ kind: 'input', requests });
    });
  }

  #finish(event: RunEvent): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#emit(event);
  }

  #emit(event: RunEvent): void {
    const waiter = this.#waiter;
    if (waiter !== undefined) {
      this.#waiter = undefined;
      waiter(event);
      return;
    }
    this.#event = event;
  }
}
