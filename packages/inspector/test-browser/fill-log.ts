/**
 * Puts `count` protocol-log entries into a running `switchboard ui`: echo calls through the API
 * (each is a request out and a response in), a few at a time, until the log holds `count`.
 */
import type { UiCallStarted, UiLogEntry } from '../src/ui-api.js';
import { apiRequest } from './ui-http.js';
import type { UiProcess } from './ui-process.js';

/** Concurrent calls in flight: enough to keep the server busy, few enough for two cores. */
const PARALLEL = 16;

export async function fillLog(ui: UiProcess, count: number): Promise<number> {
  let have = (await apiRequest<UiLogEntry[]>(ui, 'GET', '/api/log')).length;
  let sent = 0;
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
    // The answers arrive after the 202s: wait until they are in the log (or the log stops growing).
    let previous = -1;
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      have = (await apiRequest<UiLogEntry[]>(ui, 'GET', '/api/log')).length;
      if (have >= count || have === previous) break;
      previous = have;
    }
    if (have === previous && have < count) {
      throw new Error(
        `the protocol log holds ${have} entries and stopped growing: its ring buffer may be smaller than ${count}`,
      );
    }
  }
  return have;
}
