/**
 * `pnpm --filter @switchboard/gateway conformance:tasks`: the official suite's Tasks scenarios
 * (SEP-2663) judged through the gateway. The upstream is the server package's conformance fixture
 * (its `conformance/serve-fixture.ts` in a child process, on HTTP, port 0); the gateway serves its tools under their own names (a naming style that
 * keeps the tool's name, as the scenarios call fixed names) in session mode and in stateless mode,
 * and the suite (`@modelcontextprotocol/conformance`, on Node >= 22) runs each scenario against it.
 * Prints one line per run and an overall `Total: N passed, N failed`; exits non-zero when a check
 * failed.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import type { GatewayOptions } from '../src/index.js';
import { reportRuns, runThroughGateway } from './run-scenario.js';

const scenarios =
  process.argv.length > 2
    ? process.argv.slice(2)
    : [
        'tasks-capability-negotiation',
        'tasks-dispatch-and-envelope',
        'tasks-lifecycle',
        'tasks-mrtr-composition',
        'tasks-mrtr-input',
        'tasks-request-headers',
        'tasks-request-state-removal',
        'tasks-required-task-error',
        'tasks-status-notifications',
        'tasks-wire-fields',
      ];

// The upstream the suite knows: the server package's fixture, in its own process.
const fixture = spawn(process.execPath, ['--import', 'tsx', '../server/conformance/serve-fixture.ts'], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const [firstLine] = (await once(fixture.stdout, 'data')) as [Buffer];
const upstreamUrl = firstLine.toString().trim();

/** The gateway the suite judges. */
const gatewayOptions: GatewayOptions = {
  config: { mcpServers: { fixture: { url: upstreamUrl } } },
  connectOptions: { naming: { style: (parts) => parts.tool } },
  // The suite answers no approval question: the host's own per-call confirmation is left to it.
  approvalPrompt: 'host',
};

const results = [];
for (const mode of ['session', 'stateless'] as const) {
  for (const scenario of scenarios) results.push(await runThroughGateway(gatewayOptions, mode, scenario));
}
fixture.kill('SIGTERM');
await once(fixture, 'exit');
reportRuns('gateway, tasks', results);
