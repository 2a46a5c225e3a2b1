// The `switchboard` command after `npm i -g` into a prefix, on each Node, against server-everything
// (node_modules, started with node): --version, --help, tools, call, select, doctor, serve --http.
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { type CliSession, createCliSession, talkToServe } from '../src/cli-session.js';
import { currentRun } from '../src/current-run.js';
import { describeFailure, succeeded } from '../src/run-command.js';

const run = currentRun();
const binName = 'switchboard';
const cliInstalls = run.installs.filter((install) => {
  const bin = run.packed.find((item) => item.name === install.target)?.manifest.bin;
  return install.global && typeof bin === 'object' && bin[binName] !== undefined;
});

test(`one package installs the ${binName} command`, () => {
  expect(cliInstalls.length).toBe(run.runtimes.length);
});

describe.concurrent.each(cliInstalls.map((install) => [install.runtime.label, install] as const))(
  `${binName} on %s`,
  (_label, install) => {
    const version = run.packed.find((item) => item.name === install.target)?.version;
    let session: CliSession | undefined;
    const cli = () => {
      expect(install.ok, `not installed:\n${install.failure}`).toBe(true);
      session ??= createCliSession(install, binName, join(run.runDir, 'cli', `node${install.runtime.major}`));
      return session;
    };

    test('--version prints the installed version', async () => {
      const result = await cli().run(['--version']);
      expect(succeeded(result), describeFailure(result)).toBe(true);
      expect(result.stdout.trim()).toBe(version);
    });

    test('--help lists the commands', async () => {
      const result = await cli().run(['--help']);
      expect(succeeded(result), describeFailure(result)).toBe(true);
      for (const command of ['tools', 'call', 'select', 'doctor', 'serve'])
        expect(result.stdout).toContain(command);
    });

    test('tools lists the server’s tools', async () => {
      const result = await cli().run(['tools', '--config', cli().config]);
      expect(succeeded(result), describeFailure(result)).toBe(true);
      expect(result.stdout).toContain('mcp__everything__echo');
    });

    test('call calls one', async () => {
      const result = await cli().run([
        'call',
        'mcp__everything__echo',
        '--args',
        '{"message":"from the tarball"}',
        '--config',
        cli().config,
      ]);
      expect(succeeded(result), describeFailure(result)).toBe(true);
      expect(result.stdout).toContain('Echo: from the tarball');
    });

    test('select ranks get-sum first for "add two numbers"', async () => {
      const result = await cli().run(['select', 'add two numbers', '-k', '3', '--config', cli().config]);
      expect(succeeded(result), describeFailure(result)).toBe(true);
      expect(result.stdout).toMatch(/^1\s+mcp__everything__get-sum\b/m);
    });

    test('doctor reports the server connected', async () => {
      const result = await cli().run(['doctor', '--config', cli().config]);
      expect(succeeded(result), describeFailure(result)).toBe(true);
      expect(result.stdout).toMatch(/✔ everything\b.*connected/);
    });

    test('serve --http answers initialize and tools/call', async () => {
      const served = await talkToServe(cli(), 'mcp__everything__echo', { message: 'over http' });
      expect(served.initialize).toMatchObject({
        jsonrpc: '2.0',
        id: 1,
        result: { serverInfo: expect.any(Object) },
      });
      expect(served.toolCall).toMatchObject({
        jsonrpc: '2.0',
        id: 2,
        result: { content: [{ type: 'text', text: 'Echo: over http' }] },
      });
    });
  },
);
