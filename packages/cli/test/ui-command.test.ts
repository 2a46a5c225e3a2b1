/**
 * `switchboard ui` as a user runs it: the built bin in a child process prints a URL that answers
 * (the token becomes a cookie, the API lists the configured server), and stops on SIGTERM; bad
 * flags are usage errors.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { UiServer } from '@switchboard/inspector';
import { everythingStdio } from '@switchboard/test-helpers';
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox } from './run-cli-helper.js';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const sandbox = createSandbox();
const configFile = join(sandbox.root, 'mcp.json');
afterAll(() => sandbox.cleanup());

describe('switchboard ui', () => {
  it('prints a URL on stdout that answers, and stops on SIGTERM', async () => {
    sandbox.writeConfig(configFile, {
      everything: everythingStdio(),
    });
    const child = spawn(process.execPath, [bin, 'ui', '--no-open', '--port', '0', '--config', configFile], {
      env: { ...sandbox.env, SWITCHBOARD_STORE: 'off' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const url = await new Promise<string>((resolve, reject) => {
        let stdout = '';
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
          const line = /^(http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]+)\n/.exec(stdout);
          if (line) resolve(line[1] as string);
        });
        child.once('exit', (code) =>
          reject(new Error(`ui exited (${code}) before printing its URL: ${stdout}${stderr}`)),
        );
      });
      const page = await fetch(url, { redirect: 'manual' });
      expect(page.status).toBe(303);
      const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0] as string;
      const { origin } = new URL(url);
      const servers = await fetch(`${origin}/api/servers`, { headers: { cookie } });
      expect(servers.status).toBe(200);
      expect(((await servers.json()) as UiServer[]).map((server) => [server.name, server.state])).toEqual([
        ['everything', 'connected'],
      ]);
      expect((await fetch(`${origin}/api/servers`)).status).toBe(403);
      expect(stderr).toContain(`serving 1 servers on ${origin}`);
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('explains a bad --port or a stray argument as usage errors', async () => {
    const port = await sandbox.run(['ui', '--no-open', '--port', 'eighty', '--config', configFile]);
    expect(port.code).toBe(2);
    expect(port.stderr).toContain('--port takes a port number');
    const stray = await sandbox.run(['ui', 'everything', '--no-open', '--config', configFile]);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain("unexpected argument 'everything'");
    const help = await sandbox.run(['ui', '--help']);
    expect(help.stdout).toContain('switchboard ui [--config FILE] [--port N] [--no-open]');
  });
});
