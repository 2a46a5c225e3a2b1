/**
 * Runs parked between rounds of a 2026-07-28 multi-round call, by id. The id travels (sealed) in
 * the `requestState` the client echoes; a run not resumed in time has its tool aborted, then its
 * open questions fail. Memory of one process: behind a balancer, HTTP relays a retry to the
 * replica its state names (`http/retry-relay.ts`); a retry that still reaches the wrong process
 * (no replica id, or this one after a restart) finds nothing and is told so.
 */
import { randomUUID } from 'node:crypto';
import type { CallAbort } from '../cancellation/call-abort.js';
import type { SuspendableRun } from './suspendable-run.js';
import type { ToolContextHandle } from './tool-context.js';

/** A parked run and what it belongs to. */
export interface SuspendedCall {
  run: SuspendableRun;
  abort: CallAbort;
  /** The run's context: a retry points its progress and logs at its own stream. */
  context: ToolContextHandle;
  /** The method and target it was parked for (a retry must name the same). */
  method: string;
  target: string;
}

/** The parked runs of one server. */
export class SuspendedCalls {
  readonly #calls = new Map<string, { call: SuspendedCall; timer: NodeJS.Timeout }>();
  readonly #ttlMs: number;

  constructor(ttlMs: number) {
    this.#ttlMs = ttlMs;
  }

  /** Parks `call` until it is taken or expires; returns its id. */
  park(call: SuspendedCall): string {
    const id = randomUUID();
    const timer = setTimeout(() => {
      this.#calls.delete(id);
      const reason = new Error(`The client did not answer within ${this.#ttlMs} ms; the call was abandoned.`);
      // Cancelled before its questions fail: a tool relaying to an upstream (a gateway) cancels
      // the upstream call, rather than letting it finish on a refused question.
      call.abort.abort(reason);
      call.run.abandon(reason);
    }, this.#ttlMs);
    timer.unref();
    this.#calls.set(id, { call, timer });
    return id;
  }

  /** Takes a parked run out (to resume it); undefined when there is none by that id. */
  take(id: string): SuspendedCall | undefined {
    const entry = this.#calls.get(id);
    if (entry === undefined) return undefined;
    this.#calls.delete(id);
    clearTimeout(entry.timer);
    return entry.call;
  }

  /** Number of parked runs. */
  get size(): number {
    return this.#calls.size;
  }

  /** Abandons every parked run (shutdown). */
  close(): void {
    for (const [id, { call, timer }] of this.#calls) {
      clearTimeout(timer);
      this.#calls.delete(id);
      const reason = new Error('The server is shutting down.');
      call.abort.abort(reason);
      call.run.abandon(reason);
    }
  }
}
