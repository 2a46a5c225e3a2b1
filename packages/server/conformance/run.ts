/**
 * `pnpm conformance:server`: serves the conformance fixture over HTTP (port 0) in session mode and
 * in stateless mode, and runs the official suite (`@modelcontextprotocol/conformance`, on Node >=
 * 22) against each: `server --suite all` and `server --requirements 2026-07-28`. Prints each leg's
 * `Total:` line, then one overall `Total: N passed, N failed` line, and exits non-zero when a
 * check failed. Arguments (e.g. `--scenario ping`) replace the four legs with one run per mode.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
// @ts-expect-error: a plain ES module of the repository's scripts, without types.
import { resolveNode24 } from '../../../scripts/node24.mjs';
import { serve } from '../src/index.js';
import { createConformanceServer } from './server.js';

const require = createRequire(import.meta.url);
const packageJsonPath = require.resolve('@modelcontextprotocol/conformance/package.json');
const packageJson = JSON.parse(readFileSync(packageJsonPath, 'utf8')) as {
  bin: string | Record<string, string>;
};
const bin = join(
  dirname(packageJsonPath),
  typeof packageJson.bin === 'string' ? packageJson.bin : (Object.values(packageJson.bin)[0] as string),
);
const node = resolveNode24() as string;

interface Leg {
  mode: 'session' | 'stateless';
  args: string[];
}

const extra = process.argv.slice(2);
const suites: string[][] =
  extra.length > 0
    ? [extra]
    : [
        ['--suite', 'all'],
        ['--requirements', '2026-07-28'],
      ];
const legs: Leg[] = (['session', 'stateless'] as const).flatMap((mode) =>
  suites.map((args) => ({ mode, args })),
);

async function runLeg(leg: Leg): Promise<{ passed: number; failed: number; line: string }> {
  const server = createConformanceServer();
  const handle = await serve(server, {
    transport: { type: 'http', port: 0, host: '127.0.0.1', session: leg.mode === 'session' },
  });
  const child = spawn(node, [bin, 'server', '--url', handle.url as string, ...leg.args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    process.stdout.write(chunk);
  });
  await new Promise((resolve) => child.on('close', resolve));
  await handle.close();
  await server.close();
  // A suite prints `Total: N passed, N failed`; a single scenario `Passed: N/M, N failed`.
  const total =
    output.match(/Total: (\d+) passed, (\d+) failed/) ?? output.match(/Passed: (\d+)\/\d+, (\d+) failed/);
  const line = `${leg.mode} ${leg.args.join(' ')}: ${total?.[0] ?? 'no Total line printed'}`;
  return { passed: Number(total?.[1] ?? 0), failed: total === null ? 1 : Number(total[2]), line };
}

const results = [];
for (const leg of legs) results.push(await runLeg(leg));
console.log('\nswitchboard conformance (server):');
for (const result of results) console.log(`  ${result.line}`);
const passed = results.reduce((sum, result) => sum + result.passed, 0);
const failed = results.reduce((sum, result) => sum + result.failed, 0);
console.log(`Total: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
