import { expect, test } from 'vitest';
import { runConformanceScript } from './fixtures/conformance-run.js';

// The official suite judges tasks relayed through the gateway: its ten Tasks scenarios (SEP-2663),
// against a gateway over the server package's conformance fixture, in session and stateless mode.
// Every check passes: a tool that requires a task, called by a client that takes none, is refused
// with -32021 and the upstream's `data.requiredCapabilities` (the gateway does not bridge it into a
// task of its own; `relay-tool-call.ts`).
test('the official Tasks scenarios pass through the gateway in both modes', async () => {
  const { output, total } = await runConformanceScript('conformance/run-tasks.ts');
  expect(total, output.slice(-3000)).toBeDefined();
  const failedChecks = [...output.matchAll(/\[([a-z0-9-]+)\s*\] FAILURE/g)].map((match) => match[1]);
  expect(failedChecks, output.slice(-3000)).toEqual([]);
  expect(total?.failed).toBe(0);
  // Twenty runs (ten scenarios, two modes), 88 checks in all.
  expect(
    output.match(/^ {2}(session|stateless) tasks-[a-z-]+: Passed: /gm)?.length,
    output.slice(-3000),
  ).toBe(20);
  expect(total?.passed).toBeGreaterThanOrEqual(88);
}, 600_000);
