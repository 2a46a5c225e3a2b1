import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { connectMcp } from '@switchboard/client';
import { createSqliteStore } from '@switchboard/client/sqlite-store';
import { everythingStdio } from '@switchboard/test-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from './run-cli-helper.js';

const sandbox = createSandbox();
const configFile = join(sandbox.root, 'mcp.json');
const storeFile = join(sandbox.root, 'registry.db');
const everything = everythingStdio();

beforeAll(async () => {
  mkdirSync(sandbox.cwd, { recursive: true });
  mkdirSync(sandbox.home, { recursive: true });
  sandbox.writeConfig(configFile, { everything });
  // Usage recorded the way a program using the client records it.
  const store = createSqliteStore({ path: storeFile });
  const connection = await connectMcp({ everything }, { store });
  await connection.callTool('mcp__everything__echo', { message: 'one' });
  await connection.callTool('mcp__everything__echo', { message: 'two' });
  await connection.callTool('mcp__everything__get-sum', { a: 1, b: 2 });
  await connection.close();
  await store.close();
});
afterAll(() => sandbox.cleanup());

describe('switchboard stats', () => {
  it('--json gives calls, errors, latency and last use per server and tool', async () => {
    const run = await sandbox.run(['stats', '--store', storeFile, '--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as {
      store: string;
      servers: Array<Record<string, unknown>>;
      tools: Array<Record<string, unknown>>;
    };
    expect(report.store).toBe(storeFile);
    expect(report.servers).toEqual([
      expect.objectContaining({
        name: 'everything',
        transport: 'stdio',
        calls: 3,
        errors: 0,
        lastConnect: expect.objectContaining({ ok: true }),
      }),
    ]);
    expect(report.tools[0]).toMatchObject({
      publicName: 'mcp__everything__echo',
      calls: 2,
      latencySamples: 2,
    });
    expect(report.tools[0]?.latencyP95Ms).toEqual(expect.any(Number));
    expect(report.tools[1]).toMatchObject({ tool: 'get-sum', calls: 1 });
  });

  it('prints tables per server and per tool', async () => {
    const run = await sandbox.run(['stats', '--store', storeFile]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^server\s+calls\s+errors\s+last used\s+last connect/m);
    expect(run.stdout).toMatch(/^everything\s+3\s+0\s+\d{4}-/m);
    expect(run.stdout).toMatch(/^mcp__everything__echo\s+everything\s+2\s+0\s+[\d.]+ms\s+[\d.]+ms/m);
  });

  it('reads SWITCHBOARD_STORE, and an absent store is reported without being created', async () => {
    const missing = join(sandbox.root, 'nothing-here.db');
    sandbox.env.SWITCHBOARD_STORE = missing;
    try {
      const run = await sandbox.run(['stats']);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`No usage recorded yet in ${missing}`);
      expect(existsSync(missing)).toBe(false);
    } finally {
      delete sandbox.env.SWITCHBOARD_STORE;
    }
  });

  it('tools --sort usage puts the most called first, with a calls column', async () => {
    const run = await sandbox.run(['tools', '--config', configFile, '--sort', 'usage', '--store', storeFile]);
    expect(run.code).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toMatch(/calls$/);
    expect(lines[2]).toMatch(/^mcp__everything__echo\s.*\s2$/);
    expect(lines[3]).toMatch(/^mcp__everything__get-sum\s.*\s1$/);
    const json = await sandbox.run([
      'tools',
      '--config',
      configFile,
      '--sort',
      'usage',
      '--store',
      storeFile,
      '--json',
    ]);
    const rows = (JSON.parse(json.stdout) as { tools: Array<{ name: string; calls: number }> }).tools;
    expect(rows.slice(0, 2).map((row) => [row.name, row.calls])).toEqual([
      ['mcp__everything__echo', 2],
      ['mcp__everything__get-sum', 1],
    ]);
    expect(rows.at(-1)?.calls).toBe(0);
  });

  it('tools --sort rejects an unknown order, exit 2', async () => {
    const run = await sandbox.run(['tools', '--config', configFile, '--sort', 'speed']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--sort takes 'name' or 'usage'/);
  });
});

describe('the CLI records its own calls', () => {
  it('`call` twice, then `stats` and `tools --sort usage` show both calls', async () => {
    const file = join(sandbox.root, 'cli-recorded.db');
    for (const message of ['a', 'b']) {
      const run = await sandbox.run([
        'call',
        'mcp__everything__echo',
        '--args',
        JSON.stringify({ message }),
        '--config',
        configFile,
      ]);
      expect(run.code).toBe(0);
    }
    // The CLI's default store path: SWITCHBOARD_STORE (here) or ~/.switchboard/registry.db.
    sandbox.env.SWITCHBOARD_STORE = file;
    try {
      expect(existsSync(file)).toBe(false);
      for (const message of ['c', 'd']) {
        const run = await sandbox.run([
          'call',
          'mcp__everything__echo',
          '--args',
          JSON.stringify({ message }),
          '--config',
          configFile,
        ]);
        expect(run.code).toBe(0);
      }
      const stats = await sandbox.run(['stats', '--json']);
      expect(stats.code).toBe(0);
      const echo = (JSON.parse(stats.stdout).tools as Array<{ tool: string; calls: number }>).find(
        (tool) => tool.tool === 'echo',
      );
      expect(echo?.calls).toBe(2);
      const tools = await sandbox.run(['tools', '--sort', 'usage', '--config', configFile, '--json']);
      expect(JSON.parse(tools.stdout).tools[0].name).toBe('mcp__everything__echo');
    } finally {
      delete sandbox.env.SWITCHBOARD_STORE;
    }
  });
});
