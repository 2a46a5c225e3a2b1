/**
 * Tool trust through the real CLI: `doctor --trust` as a CI gate and `tools diff | approve | reject`,
 * against the malicious fixture server and server-everything as real stdio servers, with the pins
 * in a SQLite registry store shared by the runs (as a user's runs share ~/.switchboard/registry.db).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { everythingStdio, maliciousStdio } from '@switchboard/test-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from './run-cli-helper.js';

const sandbox = createSandbox();
afterAll(() => sandbox.cleanup());
beforeAll(() => {
  mkdirSync(sandbox.cwd, { recursive: true });
  mkdirSync(sandbox.home, { recursive: true });
});

let stores = 0;
/** A config of `servers` and a fresh store file for one scenario. */
function scenario(servers: Record<string, unknown>) {
  stores++;
  const config = join(sandbox.root, `trust-${stores}.json`);
  const store = join(sandbox.root, `trust-${stores}.db`);
  sandbox.writeConfig(config, servers);
  return {
    config,
    store,
    /** Rewrites the config (a server that changed between runs). */
    rewrite: (next: Record<string, unknown>) => sandbox.writeConfig(config, next),
    run: (argv: string[]) => sandbox.run([...argv, '--config', config, '--store', store]),
    /** A command without --store (e.g. `call`): the store through SWITCHBOARD_STORE. */
    runWithStoreEnv: (argv: string[]) =>
      sandbox.run([...argv, '--config', config], { env: { SWITCHBOARD_STORE: store } }),
  };
}

describe('switchboard doctor --trust', () => {
  it('exits 0 on a clean first use of ordinary servers (server-everything, an honest one)', async () => {
    const { run } = scenario({ everything: everythingStdio(), calc: maliciousStdio('honest') });
    const first = await run(['doctor', 'everything', 'calc', '--trust', '--json']);
    expect(first.stderr).toBe('');
    const report = JSON.parse(first.stdout);
    expect(report.trust).toMatchObject({ gate: true, failed: false, quarantined: [] });
    expect(first.code).toBe(0);
    // The pins were written: a second run reviews against them and still passes.
    const second = await run(['doctor', 'everything', 'calc', '--trust']);
    expect(second.stdout).toContain('nothing quarantined');
    expect(second.code).toBe(0);
  });

  it.each([
    ['poisoned-description', 'SENSITIVE_FILE_ACCESS'],
    ['poisoned-parameter', 'SENSITIVE_FILE_ACCESS'],
    ['invisible', 'TAG_CHARACTERS'],
  ] as const)('exits 1 on a first-seen tool with a blocking finding (%s)', async (attack, code) => {
    const { run } = scenario({ calc: maliciousStdio(attack) });
    const result = await run(['doctor', '--trust', '--json']);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report.trust.failed).toBe(true);
    expect(report.trust.quarantined).toEqual([expect.objectContaining({ server: 'calc', tool: 'add' })]);
    expect(report.trust.findings.map((finding: { code: string }) => finding.code).join(' ')).toContain(code);
  });

  it('without --trust shows the findings but does not gate', async () => {
    const { run } = scenario({ calc: maliciousStdio('poisoned-description') });
    const result = await run(['doctor']);
    expect(result.stdout).toContain('calc/add');
    expect(result.code).toBe(0);
  });
});

describe('switchboard tools diff | approve | reject', () => {
  it('catches a definition changed between runs, shows the diff, and passes once approved', async () => {
    const { run, rewrite } = scenario({ calc: maliciousStdio('honest') });
    expect((await run(['doctor', '--trust'])).code).toBe(0);
    rewrite({ calc: maliciousStdio('honest', { ADD_DESCRIPTION: 'Adds two numbers, quickly.' }) });

    const gate = await run(['doctor', '--trust']);
    expect(gate.code).toBe(1);
    expect(gate.stdout).toContain('calc/add quarantined (changed: description)');

    const diff = await run(['tools', 'diff']);
    expect(diff.code).toBe(0);
    expect(diff.stdout).toContain('calc/add — changed (description)');
    expect(diff.stdout).toMatch(/^-.*Adds two numbers\.$/m);
    expect(diff.stdout).toMatch(/^\+.*Adds two numbers, quickly\.$/m);
    // The unchanged tool waits for nothing.
    expect(diff.stdout).not.toContain('calc/sub');

    const approved = await run(['tools', 'approve', 'calc', 'add']);
    expect(approved.stdout).toMatch(/^approved calc\/add sha256:/m);
    expect(approved.code).toBe(0);
    expect((await run(['tools', 'diff'])).stdout).toContain('Nothing waits for review');
    expect((await run(['doctor', '--trust'])).code).toBe(0);
  });

  it('keeps a rejected definition blocked, and says so when nothing is pending', async () => {
    const { run, runWithStoreEnv, rewrite } = scenario({ calc: maliciousStdio('honest') });
    expect((await run(['doctor', '--trust'])).code).toBe(0);
    rewrite({ calc: maliciousStdio('honest', { ADD_DESCRIPTION: 'Adds numbers.' }) });

    const rejected = await run(['tools', 'reject', 'calc', 'add', '--json']);
    expect(rejected.code).toBe(0);
    expect(JSON.parse(rejected.stdout).rejected).toEqual([
      expect.objectContaining({ server: 'calc', tool: 'add', status: 'rejected' }),
    ]);
    const gate = await run(['doctor', '--trust', '--json']);
    expect(gate.code).toBe(1);
    expect(JSON.parse(gate.stdout).trust.quarantined).toEqual([
      expect.objectContaining({ tool: 'add', state: 'rejected' }),
    ]);
    // The rejected tool is refused on a call too.
    const call = await runWithStoreEnv(['call', 'mcp__calc__add', '--args', '{"a":1,"b":2}', '--yes']);
    expect(call.code).not.toBe(0);
    expect(call.stderr).toContain('Tool "add" of MCP server "calc" was rejected by a person');

    const again = await run(['tools', 'approve', 'calc', 'sub']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('Nothing pending for tool "sub" of "calc"');
  });

  it('refuses approve without a server (usage, exit 2)', async () => {
    const { run } = scenario({ calc: maliciousStdio('honest') });
    const result = await run(['tools', 'approve']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('tools approve needs a server');
  });
});
