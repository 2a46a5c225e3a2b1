/**
 * The clock moving past a moment, for tests of timestamps ("last seen" must be later than "first
 * seen"): the event is the clock's own, so this waits exactly until it happens (a timer to the
 * moment, then a check), never a guessed pause. Whatever stamps the time must read the same
 * system clock (`Date.now()`, SQLite's and PostgreSQL's `now()` on this machine).
 */

/** Resolves once `Date.now()` is past `moment` (epoch ms, or an ISO timestamp). */
export async function waitForClockPast(moment: number | string): Promise<void> {
  const target = typeof moment === 'number' ? moment : Date.parse(moment);
  if (Number.isNaN(target)) throw new Error(`waitForClockPast: '${moment}' is not a time`);
  while (Date.now() <= target) {
    await new Promise((resolve) => setTimeout(resolve, target - Date.now() + 1));
  }
}
