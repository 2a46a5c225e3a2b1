import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

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
  const child = spawn(process.execPath, ['--import', 'tsx', 'conformance/run-tasks.ts'], {
    cwd: packageDir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  await new Promise<number | null>((resolve) => child.on('close', resolve));
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the suite colours its lines.
  const plain = output.replace(/\u001b\[[0-9;]*m/g, '');
  const overall = [...plain.matchAll(/^Total: (\d+) passed, (\d+) failed/gm)].at(-1);
  expect(overall, plain.slice(-3000)).toBeDefined();
  const failedChecks = [...plain.matchAll(/\[([a-z0-9-]+)\s*\] FAILURE/g)].map((match) => match[1]);
  expect(failedChecks, plain.slice(-3000)).toEqual([knownDeviation, knownDeviation]);
  expect(Number(overall?.[2])).toBe(2);
  // Twenty runs (ten scenarios, two modes), 86 checks in all.
  expect(plain.match(/^ {2}(session|stateless) tasks-[a-z-]+: Passed: /gm)?.length, plain.slice(-3000)).toBe(
    20,
  );
  expect(Number(overall?.[1])).toBeGreaterThanOrEqual(84);
}, 600_000);
