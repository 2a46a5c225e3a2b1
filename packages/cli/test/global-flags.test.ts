/**
 * `--verbose`, `--quiet` and `--no-color`, before or after the command: what they change on
 * stderr, against a real server that connects and one that cannot start. The flags set
 * SWITCHBOARD_LOG and NO_COLOR for the run and win over them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { everythingStdio } from '@switchboard/test-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from './run-cli-helper.js';

const sandbox = createSandbox();
const configFile = join(sandbox.root, 'mcp.json');
const emptyConfig = join(sandbox.root, 'empty.json');
// The sandbox keeps the logger silent; these runs start from the default level.
const defaultLevel = { SWITCHBOARD_LOG: undefined };
const failedWarning = "warning: server 'broken' failed";
// An escape sequence (ESC [), as colour codes start.
const ansi = new RegExp(`${String.fromCharCode(27)}\\[`);

beforeAll(() => {
  mkdirSync(sandbox.home, { recursive: true });
  mkdirSync(sandbox.cwd, { recursive: true });
  sandbox.writeConfig(configFile, {
    everything: everythingStdio(),
    broken: { command: process.execPath, args: [join(sandbox.root, 'no-such-server.js')] },
  });
  writeFileSync(emptyConfig, '{ "mcpServers": {} }');
});
afterAll(() => sandbox.cleanup());

describe('--quiet', () => {
  it('by default, a server that fails to start is a warning on stderr', async () => {
    const run = await sandbox.run(['tools', '--config', configFile], { env: defaultLevel });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('mcp__everything__echo');
    expect(run.stderr).toContain(failedWarning);
  });

  it.each([
    ['after the command', ['tools', '--quiet', '--config', configFile]],
    ['before the command, short', ['-q', 'tools', '--config', configFile]],
  ])('%s: no warning, the same table', async (_where, argv) => {
    const run = await sandbox.run(argv, { env: defaultLevel });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('mcp__everything__echo');
    expect(run.stderr).toBe('');
  });

  it('wins over SWITCHBOARD_LOG=debug', async () => {
    const run = await sandbox.run(['tools', '--quiet', '--config', configFile], {
      env: { SWITCHBOARD_LOG: 'debug' },
    });
    expect(run.stderr).toBe('');
  });

  it('keeps errors', async () => {
    const run = await sandbox.run(['tools', '--quiet', '--config', emptyConfig], { env: defaultLevel });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('no servers configured');
  });

  it('cannot be combined with --verbose, exit 2', async () => {
    const run = await sandbox.run(['tools', '--quiet', '--verbose', '--config', configFile]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--verbose and --quiet cannot be used together');
  });
});

describe('--verbose', () => {
  it('shows the connection’s debug and info lines, which the default level does not', async () => {
    const quiet = await sandbox.run(['tools', '--config', configFile], { env: defaultLevel });
    expect(quiet.stderr).not.toMatch(/\[switchboard\] (debug|info):/);
    const run = await sandbox.run(['--verbose', 'tools', '--config', configFile], { env: defaultLevel });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^\[switchboard\] debug: MCP server process started .*"server":"everything"/m);
    expect(run.stderr).toMatch(/^\[switchboard\] info: connected .*"server":"everything"/m);
  });

  it('wins over SWITCHBOARD_LOG=silent', async () => {
    const run = await sandbox.run(['tools', '--verbose', '--config', configFile], {
      env: { SWITCHBOARD_LOG: 'silent' },
    });
    expect(run.stderr).toMatch(/^\[switchboard\] info: connected/m);
  });
});

describe('--no-color', () => {
  // A terminal that would get colour: stderr a TTY, NO_COLOR unset.
  const terminal = { env: { NO_COLOR: undefined }, stderrIsTTY: true };

  it('a terminal gets a red "error"; --no-color drops the escape codes', async () => {
    const coloured = await sandbox.run(['tools', '--config', emptyConfig], terminal);
    expect(coloured.stderr).toMatch(ansi);
    const plain = await sandbox.run(['tools', '--no-color', '--config', emptyConfig], terminal);
    expect(plain.code).toBe(2);
    expect(plain.stderr).toContain('error: no servers configured');
    expect(plain.stderr).not.toMatch(ansi);
  });

  it('also before an unknown command', async () => {
    const coloured = await sandbox.run(['toolz'], terminal);
    expect(coloured.stderr).toMatch(ansi);
    const plain = await sandbox.run(['--no-color', 'toolz'], terminal);
    expect(plain.code).toBe(2);
    expect(plain.stderr).toContain("Did you mean 'tools'");
    expect(plain.stderr).not.toMatch(ansi);
  });
});

describe('global flags before the command', () => {
  it('--json and --config before the command name', async () => {
    const run = await sandbox.run(['--json', '--config', configFile, 'servers', 'list']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).servers.map((server: { name: string }) => server.name)).toEqual([
      'everything',
      'broken',
    ]);
  });

  it('an unknown option before the command is a usage error', async () => {
    const run = await sandbox.run(['--frobnicate', 'tools']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("unknown option '--frobnicate' before the command");
  });
});
