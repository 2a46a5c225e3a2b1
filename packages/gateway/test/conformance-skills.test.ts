import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

// The official suite judges skills relayed through the gateway: its three Skills scenarios, against
// a gateway over two SDK v2 skills upstreams (both eras upstream), in session and stateless mode.
test('the official Skills scenarios pass through the gateway in both modes', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'conformance/run.ts'], {
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
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const overall = [...output.matchAll(/^Total: (\d+) passed, (\d+) failed/gm)].at(-1);
  expect(overall, output.slice(-3000)).toBeDefined();
  expect(Number(overall?.[2]), output.slice(-3000)).toBe(0);
  // Six runs (three scenarios, two modes); enumeration alone has 32 checks per mode.
  expect(output.match(/: Passed: \d+\/\d+, 0 failed$/gm)?.length, output.slice(-3000)).toBe(6);
  // The directory scenario is exercised, not skipped: the gateway declares directoryRead.
  expect(output.match(/skills-directory: Passed: 7\/7, 0 failed$/gm)?.length, output.slice(-3000)).toBe(2);
  expect(output).not.toMatch(/sep-2640-directory-read-\S* *\] SKIPPED/);
  expect(Number(overall?.[1])).toBeGreaterThanOrEqual(86);
  expect(code).toBe(0);
}, 300_000);
