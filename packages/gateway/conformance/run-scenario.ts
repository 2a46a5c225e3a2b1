/**
 * What the gateway's conformance runs share: the official suite (`@modelcontextprotocol/conformance`,
 * on Node >= 22) run for one scenario against a URL, its output echoed and its totals read, and the
 * closing summary.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { serve } from '@switchboard/server';
// @ts-expect-error: a plain ES module of the repository's scripts, without types.
import { resolveNode24 } from '../../../scripts/node24.mjs';
import { createGateway, type GatewayOptions } from '../src/index.js';

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

/** One scenario's run: its checks passed and failed, and its summary line. */
export interface ScenarioRun {
  passed: number;
  failed: number;
  line: string;
}

/** Runs `scenario` of the suite against `url`, echoing its output; `label` heads its summary line. */
export async function runScenario(url: string, scenario: string, label: string): Promise<ScenarioRun> {
  const child = spawn(node, [bin, 'server', '--url', url, '--scenario', scenario], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    process.stdout.write(chunk);
  });
  await new Promise((resolve) => child.on('close', resolve));
  const total =
    output.match(/Total: (\d+) passed, (\d+) failed/) ?? output.match(/Passed: (\d+)\/\d+, (\d+) failed/);
  const line = `${label} ${scenario}: ${total?.[0] ?? 'no Total line printed'}`;
  return { passed: Number(total?.[1] ?? 0), failed: total === null ? 1 : Number(total[2]), line };
}

/** Runs `scenario` against a gateway made of `options`, served on HTTP (port 0) in `mode`. */
export async function runThroughGateway(
  options: GatewayOptions,
  mode: 'session' | 'stateless',
  scenario: string,
): Promise<ScenarioRun> {
  const gateway = await createGateway(options);
  const handle = await serve(gateway, {
    transport: { type: 'http', port: 0, host: '127.0.0.1', session: mode === 'session' },
  });
  try {
    return await runScenario(handle.url as string, scenario, mode);
  } finally {
    await handle.close();
    await gateway.close();
  }
}

/** Prints every run's line and the overall `Total: N passed, N failed`; exits non-zero when a check failed. */
export function reportRuns(title: string, results: readonly ScenarioRun[]): never {
  console.log(`\nswitchboard conformance (${title}):`);
  for (const result of results) console.log(`  ${result.line}`);
  const passed = results.reduce((sum, result) => sum + result.passed, 0);
  const failed = results.reduce((sum, result) => sum + result.failed, 0);
  console.log(`Total: ${passed} passed, ${failed} failed`);
  process.exit(failed > 0 ? 1 : 0);
}
