/**
 * The replica flags of `switchboard serve`: each misuse is refused before anything starts, with a
 * message naming the flag and what to do — and never echoing a token or a password.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { loadTokensFile } from '../src/commands/serve-replica-options.js';
import { postgresTargetOf } from '../src/registry-store-of.js';
import { createSandbox } from './run-cli-helper.js';

const sandboxes: Array<ReturnType<typeof createSandbox>> = [];
afterEach(() => {
  for (const sandbox of sandboxes.splice(0)) sandbox.cleanup();
});

function sandbox() {
  const created = createSandbox();
  mkdirSync(created.cwd, { recursive: true });
  created.env.SWITCHBOARD_STORE = 'off';
  sandboxes.push(created);
  return created;
}

describe('serve replica flags', () => {
  test.each([
    [['serve', '--replica-id', 'r1'], '--replica-id needs --http'],
    [['serve', '--redis', 'redis://127.0.0.1:6379'], '--redis needs --http'],
    [['serve', '--rate-limit', '60'], '--rate-limit needs --http'],
  ])('%j is refused: %s', async (argv, message) => {
    const run = await sandbox().run(argv);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });

  test('a bad --replica-id, --rate-limit or --session-idle-timeout names the flag', async () => {
    const box = sandbox();
    const config = join(box.cwd, 'mcp.json');
    box.writeConfig(config, {});
    for (const [argv, message] of [
      [['--replica-id', 'no spaces'], '--replica-id takes 1–64 letters'],
      [['--rate-limit', '0'], '--rate-limit takes a positive number of calls per minute'],
      [['--session-idle-timeout', 'soon'], '--session-idle-timeout takes a positive number of seconds'],
    ] as const) {
      const run = await box.run(['serve', '--http', '--port', '0', ...argv, '--config', config]);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(message);
    }
  });

  test('--tokens-file: principal/token lines; bad lines and a second token source refused without the token', async () => {
    const box = sandbox();
    const good = join(box.cwd, 'tokens');
    writeFileSync(good, '# callers\nalice alice-secret-token-0001\n\nbob   bob-secret-token-00002\n');
    expect(loadTokensFile(good)).toEqual([
      { principal: 'alice', token: 'alice-secret-token-0001' },
      { principal: 'bob', token: 'bob-secret-token-00002' },
    ]);
    const short = join(box.cwd, 'short');
    writeFileSync(short, 'alice short-secret\n');
    expect(() => loadTokensFile(short)).toThrow(`--tokens-file ${short}:1: expected "principal token"`);
    try {
      loadTokensFile(short);
    } catch (error) {
      expect((error as Error).message).not.toContain('short-secret');
    }
    expect(() => loadTokensFile(join(box.cwd, 'missing'))).toThrow(/cannot read .*missing \(ENOENT\)/);

    const config = join(box.cwd, 'mcp.json');
    box.writeConfig(config, {});
    const both = await box.run([
      'serve',
      '--http',
      '--port',
      '0',
      '--token',
      'x'.repeat(20),
      '--tokens-file',
      good,
      '--config',
      config,
    ]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--tokens-file and --token');
    expect(both.stderr).not.toContain('x'.repeat(20));
  });

  test('--store postgres URLs: ?schema= is ours, the rest is what pg connects with; a bad URL hides its text', () => {
    expect(postgresTargetOf('postgres://u:secret@db:5432/app?schema=gw&sslmode=require')).toEqual({
      connectionString: 'postgres://u:secret@db:5432/app?sslmode=require',
      schema: 'gw',
    });
    expect(postgresTargetOf('postgresql://db/app')).toEqual({ connectionString: 'postgresql://db/app' });
    expect(() => postgresTargetOf('postgres://u:secret@[bad')).toThrow(/not a valid URL; use postgres:\/\//);
    try {
      postgresTargetOf('postgres://u:secret@[bad');
    } catch (error) {
      expect((error as Error).message).not.toContain('secret');
    }
  });
});
