import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

// The official suite is the judge: every scenario must pass against our fixture server.
test('the official conformance suite passes against the conformance server', async () => {
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
  const total = output.match(/Total: (\d+) passed, (\d+) failed/);
  expect(total, output.slice(-3000)).not.toBeNull();
  expect(Number(total?.[2]), output.slice(-3000)).toBe(0);
  expect(Number(total?.[1])).toBeGreaterThanOrEqual(44);
  expect(output.match(/^✓ /gm)?.length, 'scenarios passed').toBe(32);
  expect(code).toBe(0);
}, 240_000);
