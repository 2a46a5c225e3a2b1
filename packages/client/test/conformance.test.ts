// The official MCP conformance suite judges a client built on this package (conformance/client.mjs,
// which runs the built dist: CI builds before testing).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');

describe('client conformance', () => {
  it('passes initialize, tools_call, elicitation-sep1034-client-defaults and sse-retry', () => {
    const run = spawnSync(process.execPath, [join(packageDir, 'scripts', 'run-conformance.mjs')], {
      cwd: packageDir,
      encoding: 'utf8',
      timeout: 280_000,
    });
    const output = `${run.stdout}${run.stderr}`;
    expect(output).toMatch(/Total: \d+ passed, 0 failed, 0 warnings/);
    expect(output).toContain('✓ sse-retry');
    expect(output).toContain('✓ elicitation-sep1034-client-defaults: 5 passed');
    expect(run.status).toBe(0);
  }, 300_000);
});
