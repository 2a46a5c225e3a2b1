/**
 * Puts `count` protocol-log entries into a running `switchboard ui`: echo calls through the API
 * (each is a request out and a response in), a few at a time, until the log holds `count`. Each
 * round waits for the `call-end` event of every call it started: by then their answers are in
 * the log (the log records a message as it arrives, before the call ends).
 */
import { openEventStream } from '@switchboard/test-helpers';
import type { UiCallStarted, UiEvent, UiLogEntry } from '../src/ui-api.js';
import { apiRequest } from './ui-http.js';
import type { UiProcess } from './ui-process.js';

/** Concurrent calls in flight: enough to keep the server busy, few enough for two cores. */
const PARALLEL = 16;

export async function fillLog(ui: UiProcess, count: number): Promise<number> {
  const events = await openEventStream<UiEvent>(`${ui.origin}/api/events`, {
    'x-switchboard-token': ui.token,
  });
  try {
    // The call-end events seen so far, counted as the stream grows (each check reads only what is new).
    let scanned = 0;
    let ended = 0;
    const endedSoFar = () => {
      for (; scanned < events.received.length; scanned++)
        if (events.received[scanned]?.type === 'call-end') ended++;
      return ended;
    };
    let have = (await apiRequest<UiLogEntry[]>(ui, 'GET', '/api/log')).length;
    let sent = 0;
    let previous = -1;
    while (have < count) {
      const calls = Math.ceil((count - have) / 2);
      for (let start = 0; start < calls; start += PARALLEL) {
        const batch = Math.min(PARALLEL, calls - start);
        await Promise.all(
          Array.from({ length: batch }, () =>
            apiRequest<UiCallStarted>(ui, 'POST', '/api/calls', {
              server: 'everything',
              tool: 'echo',
              arguments: { message: `log filler ${sent++}` },
            }),
          ),
        );
      }
      await events.next((_event): _event is UiEvent => endedSoFar() >= sent, 60_000);
      previous = have;
      have = (await apiRequest<UiLogEntry[]>(ui, 'GET', '/api/log')).length;
      if (have === previous && have < count) {
        throw new Error(
          `the protocol log holds ${have} entries and stopped growing: its ring buffer may be smaller than ${count}`,
        );
      }
    }
    return have;
  } finally {
    events.close();
  }
}
