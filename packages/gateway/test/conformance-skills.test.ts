import { expect, test } from 'vitest';
import { runConformanceScript } from './fixtures/conformance-run.js';

// The official suite judges skills relayed through the gateway: its three Skills scenarios, against
// a gateway over two SDK v2 skills upstreams (both eras upstream), in session and stateless mode.
test('the official Skills scenarios pass through the gateway in both modes', async () => {
  const { output, total, exitCode } = await runConformanceScript('conformance/run.ts');
  expect(total, output.slice(-3000)).toBeDefined();
  expect(total?.failed, output.slice(-3000)).toBe(0);
  // Six runs (three scenarios, two modes); enumeration alone has 32 checks per mode.
  expect(output.match(/: Passed: \d+\/\d+, 0 failed$/gm)?.length, output.slice(-3000)).toBe(6);
  // The directory scenario is exercised, not skipped: the gateway declares directoryRead.
  expect(output.match(/skills-directory: Passed: 7\/7, 0 failed$/gm)?.length, output.slice(-3000)).toBe(2);
  expect(output).not.toMatch(/sep-2640-directory-read-\S* *\] SKIPPED/);
  expect(total?.passed).toBeGreaterThanOrEqual(86);
  expect(exitCode).toBe(0);
}, 300_000);
