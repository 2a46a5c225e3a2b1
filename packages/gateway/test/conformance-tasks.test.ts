import { expect, test } from 'vitest';
import { runConformanceScript } from './fixtures/conformance-run.js';

/**
 * The one check the gateway does not pass, and why: a tool whose upstream requires a task, called
 * by a client that does not take tasks, is run by the gateway as a task it polls to the end (its
 * long-standing bridge for such clients) instead of being refused with -32021: the upstream's tool
 * listing does not say which tools require a task.
 */
const knownDeviation = 'sep-2663-server-returns-missing-capability-when-required';

// The official suite judges tasks relayed through the gateway: its ten Tasks scenarios (SEP-2663),
// against a gateway over the server package's conformance fixture, in session and stateless mode.
test('the official Tasks scenarios pass through the gateway in both modes, but for one known deviation', async () => {
  const { output, total } = await runConformanceScript('conformance/run-tasks.ts');
  expect(total, output.slice(-3000)).toBeDefined();
  const failedChecks = [...output.matchAll(/\[([a-z0-9-]+)\s*\] FAILURE/g)].map((match) => match[1]);
  expect(failedChecks, output.slice(-3000)).toEqual([knownDeviation, knownDeviation]);
  expect(total?.failed).toBe(2);
  // Twenty runs (ten scenarios, two modes), 86 checks in all.
  expect(
    output.match(/^ {2}(session|stateless) tasks-[a-z-]+: Passed: /gm)?.length,
    output.slice(-3000),
  ).toBe(20);
  expect(total?.passed).toBeGreaterThanOrEqual(84);
}, 600_000);
