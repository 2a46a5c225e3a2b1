import { spawnSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { fixtureServerScript } from '../src/index.js';

it('exit-before-initialize-server exits on a request before initialize', () => {
  const probe = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })}\n`;
  const run = spawnSync(process.execPath, [fixtureServerScript('exit-before-initialize-server')], {
    input: probe,
    timeout: 10_000,
  });
  expect(run.error).toBeUndefined();
  expect(run.status).not.toBeNull();
});
