import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

// The official suite is the judge: `server --suite all` and `server --requirements 2026-07-28`,
// each against the fixture in session mode and in stateless mode, with no failed check.
test('the official conformance suite passes against the conformance server in both modes', async () => {
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
  const totals = [...output.matchAll(/^Total: (\d+) passed, (\d+) failed/gm)];
  const overall = totals.at(-1);
  expect(overall, output.slice(-3000)).toBeDefined();
  expect(Number(overall?.[2]), output.slice(-3000)).toBe(0);
  // Four legs: 65 scenarios each for `--suite all`, 50 each for the 2026-07-28 requirement set.
  expect(output.match(/^✓ /gm)?.length, 'scenarios passed').toBe(230);
  expect(output.match(/^✗ /gm), 'scenarios failed').toBeNull();
  expect(Number(overall?.[1])).toBeGreaterThanOrEqual(900);
  expect(code).toBe(0);
}, 900_000);
