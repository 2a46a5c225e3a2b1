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
import { serve } from '@switchboard/server';
import { createGateway } from '../src/index.js';
import { reportRuns, runScenario } from './run-scenario.js';

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

async function run(mode: 'session' | 'stateless', scenario: string) {
  const gateway = await createGateway({
    config: { mcpServers: { fixture: { url: upstreamUrl } } },
    connectOptions: { naming: { style: (parts) => parts.tool } },
    // The suite answers no approval question: the host's own per-call confirmation is left to it.
    approvalPrompt: 'host',
  });
  const handle = await serve(gateway, {
    transport: { type: 'http', port: 0, host: '127.0.0.1', session: mode === 'session' },
  });
  const result = await runScenario(handle.url as string, scenario, mode);
  await handle.close();
  await gateway.close();
  return result;
}

const results = [];
for (const mode of ['session', 'stateless'] as const) {
  for (const scenario of scenarios) results.push(await run(mode, scenario));
}
fixture.kill('SIGTERM');
await once(fixture, 'exit');
reportRuns('gateway, tasks', results);
