/**
 * `pnpm --filter @switchboard/gateway conformance`: the official suite's Skills scenarios (SEP-2640)
 * judged through the gateway. Two SDK v2 upstreams serve skills with the SDK's own extension (one
 * 2026-07-28-only, one dual reached at 2025-11-25); the gateway serves them over HTTP (port 0), in
 * session mode and in stateless mode, and the suite (`@modelcontextprotocol/conformance`, on Node
 * >= 22) runs each scenario against it. Prints one line per run and an overall
 * `Total: N passed, N failed`; exits non-zero when a check failed.
 */
import type { GatewayOptions } from '../src/index.js';
import { startSkillsUpstream } from '../test/fixtures/skills-upstream.js';
import { reportRuns, runThroughGateway } from './run-scenario.js';

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

/** The gateway the suite judges. */
const gatewayOptions: GatewayOptions = {
  config: {
    mcpServers: { modern: { url: modern.url }, dual: { url: dual.url, protocolVersion: '2025-11-25' } },
  },
};

const results = [];
for (const mode of ['session', 'stateless'] as const) {
  for (const scenario of scenarios) results.push(await runThroughGateway(gatewayOptions, mode, scenario));
}
await Promise.all([modern.close(), dual.close()]);
reportRuns('gateway, skills', results);
