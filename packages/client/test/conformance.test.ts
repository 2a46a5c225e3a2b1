// The official MCP conformance suite (0.2.0-alpha.12, run on Node 24 by the runner: it needs
// Node >= 22) judges a client built on this package (conformance/client.mjs, which runs the built
// dist: CI builds before testing), every client scenario of both protocol eras, the extension ones
// and the auth/* ones included (the client's OAuth comes from @switchboard/transports).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');

describe('client conformance', () => {
  it('passes every client scenario of the suite, both eras, extensions and auth/* included', () => {
    const run = spawnSync(process.execPath, [join(packageDir, 'scripts', 'run-conformance.mjs')], {
      cwd: packageDir,
      encoding: 'utf8',
      timeout: 560_000,
    });
    const output = `${run.stdout}${run.stderr}`;
    expect(output).toMatch(/Total: \d+ passed, 0 failed, 0 warnings/);
    for (const scenario of [
      'initialize',
      'tools_call',
      'sse-retry',
      'request-metadata',
      'http-standard-headers',
      'http-custom-headers',
      'http-invalid-tool-headers',
      'sep-2322-client-request-state',
      'json-schema-ref-no-deref',
      'json-schema-2020-12-preservation',
      'sep-2640-client-no-prefetch',
      'sep-2640-client-verify-digest',
      'sep-2640-client-verify-size',
      'sep-2640-client-verify-frontmatter',
      'auth/metadata-default',
      'auth/scope-step-up',
      'auth/scope-retry-limit',
      'auth/resource-mismatch',
      'auth/pre-registration',
      'auth/2025-03-26-oauth-endpoint-fallback',
      'auth/client-credentials-jwt',
      'auth/client-credentials-basic',
    ]) {
      expect(output).toContain(`✓ ${scenario}:`);
    }
    expect(output).toContain('✓ elicitation-sep1034-client-defaults: 5 passed');
    // 48 client scenarios in conformance 0.2.0-alpha.12.
    expect(output.match(/^✓ /gm)?.length).toBeGreaterThanOrEqual(48);
    expect(output).not.toMatch(/^✗ /m);
    expect(run.status).toBe(0);
  }, 600_000);
});
