/**
 * Background load for the failure scenarios: official clients of both eras calling in a loop
 * through nginx until told to stop, every loop bounded in count and time, every outcome kept with
 * when it started, so a scenario can tell the calls in flight at an event from the ones after it.
 */
import { createEventLog, type EventLog } from '@switchboard/test-helpers';
import { type CallOutcome, connectEraClient, type Era, type EraClient } from './era-clients.js';

/** One finished call. */
export interface CallRecord {
  era: Era;
  worker: number;
  /** `performance.now()` when it was sent and when it settled. */
  startedAt: number;
  endedAt: number;
  ok: boolean;
  /** What the scenario's `check` said was wrong with the result, or the error's message. */
  problem?: string;
  /** The call's own label (e.g. the id a destructive call recorded). */
  label: string;
}

/** What one iteration calls: the tool, its arguments, and how to check the result. */
export interface LoadCall {
  name: string;
  args: Record<string, unknown>;
  label: string;
  /** Returns a description of what is wrong, or undefined when the result is right. */
  check(outcome: CallOutcome): string | undefined;
}

/** Options of {@link startLoad}. */
export interface LoadOptions {
  url: string;
  /** The eras of the workers, one client each. */
  workers: Era[];
  /** The `index`-th call of worker `worker`. */
  next(worker: number, index: number): LoadCall;
  /** Upper bound of calls per worker. @default 5000 */
  maxCallsPerWorker?: number;
  /** Upper bound of the whole load. @default 120000 */
  maxMs?: number;
  /** Pause between a worker's calls (pacing, so that one worker does not starve the rest). @default 2 */
  pauseMs?: number;
  /** Each call's request timeout in the client. @default the SDK's (60 s) */
  callTimeoutMs?: number;
}

/** A running load; `stop()` ends every loop and resolves with every call made. */
export interface Load {
  readonly records: readonly CallRecord[];
  /** Each call as it settles: a scenario waits on these ("every worker made 5 calls"), not on time. */
  readonly calls: EventLog<CallRecord>;
  stop(): Promise<CallRecord[]>;
}

/** Connects one client per worker, then runs the loops in the background. */
export async function startLoad(options: LoadOptions): Promise<Load> {
  const clients: EraClient[] = [];
  for (const era of options.workers) {
    clients.push(
      await connectEraClient(
        era,
        options.url,
        options.callTimeoutMs !== undefined ? { timeoutMs: options.callTimeoutMs } : {},
      ),
    );
  }
  const calls = createEventLog<CallRecord>("the load's calls");
  const maxCalls = options.maxCallsPerWorker ?? 5_000;
  const deadline = performance.now() + (options.maxMs ?? 120_000);
  const pauseMs = options.pauseMs ?? 2;
  let stopping = false;
  const loops = clients.map(async (client, worker) => {
    for (let index = 0; index < maxCalls && !stopping && performance.now() < deadline; index++) {
      const call = options.next(worker, index);
      const startedAt = performance.now();
      try {
        const outcome = await client.callTool(call.name, call.args);
        const problem = call.check(outcome);
        calls.push({
          era: client.era,
          worker,
          startedAt,
          endedAt: performance.now(),
          ok: problem === undefined,
          label: call.label,
          ...(problem !== undefined ? { problem } : {}),
        });
      } catch (error) {
        calls.push({
          era: client.era,
          worker,
          startedAt,
          endedAt: performance.now(),
          ok: false,
          label: call.label,
          problem: (error as Error).message,
        });
      }
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  });
  return {
    records: calls.entries,
    calls,
    async stop() {
      stopping = true;
      await Promise.all(loops);
      await Promise.allSettled(clients.map((client) => client.close()));
      return [...calls.entries];
    },
  };
}

/** A condition on the load's calls: every worker of `workers` has `count` calls that `counts` accepts. */
export function everyWorkerMade(
  workers: number,
  count: number,
  counts: (record: CallRecord) => boolean = () => true,
): (records: readonly CallRecord[]) => boolean {
  return (records) => {
    const made = new Array<number>(workers).fill(0);
    for (const record of records) if (counts(record)) made[record.worker]! += 1;
    return made.every((calls) => calls >= count);
  };
}

/** The text of a result's first content block. */
export function firstText(outcome: CallOutcome): string | undefined {
  const content = outcome.content as Array<{ type?: string; text?: string }> | undefined;
  return content?.[0]?.type === 'text' ? content[0].text : undefined;
}
