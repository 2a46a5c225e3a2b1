/**
 * `pnpm --filter @switchboard/gateway conformance`: the official suite's Skills scenarios (SEP-2640)
 * judged through the gateway. Two SDK v2 upstreams serve skills with the SDK's own extension (one
 * 2026-07-28-only, one dual reached at 2025-11-25); the gateway serves them over HTTP (port 0), in
 * session mode and in stateless mode, and the suite (`@modelcontextprotocol/conformance`, on Node
 * >= 22) runs each scenario against it. Prints one line per run and an overall
 * `Total: N passed, N failed`; exits non-zero when a check failed.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { serve } from '@switchboard/server';
// @ts-expect-error: a plain ES module of the repository's scripts, without types.
import { resolveNode24 } from '../../../scripts/node24.mjs';
import { createGateway } from '../src/index.js';
import { startSkillsUpstream } from '../test/fixtures/skills-upstream.js';

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

const scenarios =
  process.argv.length > 2
    ? process.argv.slice(2)
    : ['sep-2640-skills-enumeration', 'sep-2640-skills-manifest', 'sep-2640-skills-directory'];

const skillMd = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n\nFollow the steps in references/STEPS.md.\n`;

const modern = await startSkillsUpstream({
  legacy: 'reject',
  skills: {
    'code-review': {
      'SKILL.md': skillMd('code-review', 'Reviews a change for correctness and style.'),
      'references/STEPS.md': '1. Read the diff.\n2. Run the tests.\n',
    },
  },
});
const dual = await startSkillsUpstream({
  legacy: 'stateless',
  skills: {
    'acme/billing/refunds': {
      'SKILL.md': skillMd('refunds', 'Processes refund requests per policy.'),
      'references/STEPS.md': '1. Check the order.\n',
    },
  },
});

async function run(mode: 'session' | 'stateless', scenario: string) {
  const gateway = await createGateway({
    config: {
      mcpServers: { modern: { url: modern.url }, dual: { url: dual.url, protocolVersion: '2025-11-25' } },
    },
  });
  const handle = await serve(gateway, {
    transport: { type: 'http', port: 0, host: '127.0.0.1', session: mode === 'session' },
  });
  const child = spawn(node, [bin, 'server', '--url', handle.url as string, '--scenario', scenario], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    process.stdout.write(chunk);
  });
  await new Promise((resolve) => child.on('close', resolve));
  await handle.close();
  await gateway.close();
  const total =
    output.match(/Total: (\d+) passed, (\d+) failed/) ?? output.match(/Passed: (\d+)\/\d+, (\d+) failed/);
  const line = `${mode} ${scenario}: ${total?.[0] ?? 'no Total line printed'}`;
  return { passed: Number(total?.[1] ?? 0), failed: total === null ? 1 : Number(total[2]), line };
}

const results = [];
for (const mode of ['session', 'stateless'] as const) {
  for (const scenario of scenarios) results.push(await run(mode, scenario));
}
await Promise.all([modern.close(), dual.close()]);
console.log('\nswitchboard conformance (gateway, skills):');
for (const result of results) console.log(`  ${result.line}`);
const passed = results.reduce((sum, result) => sum + result.passed, 0);
const failed = results.reduce((sum, result) => sum + result.failed, 0);
console.log(`Total: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
