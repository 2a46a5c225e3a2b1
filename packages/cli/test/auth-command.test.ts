// `switchboard auth`: signs in to a real protected `serve()` endpoint through a small in-test
// authorization server (dynamic registration, authorize with PKCE, token), following the printed
// URL the way a browser would; then `--list`, a connected `tools`, and `--revoke`.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commands, runCli } from '../src/index.js';
import { startAuthorizationServer, startProtectedNotesServer } from './oauth-fixture.js';
import { createSandbox } from './run-cli-helper.js';

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

let savedHome: string | undefined;
beforeEach(() => {
  savedHome = process.env.SWITCHBOARD_HOME;
});
afterEach(() => {
  if (savedHome === undefined) delete process.env.SWITCHBOARD_HOME;
  else process.env.SWITCHBOARD_HOME = savedHome;
});

describe('switchboard auth', () => {
  it('signs in through the printed URL, lists the sign-in, connects with it, and revokes it', async () => {
    const authorization = await startAuthorizationServer();
    cleanups.push(() => authorization.close());
    const handle = await startProtectedNotesServer(authorization);
    cleanups.push(() => handle.close());

    const sandbox = createSandbox();
    cleanups.push(() => sandbox.cleanup());
    process.env.SWITCHBOARD_HOME = sandbox.home;
    sandbox.writeConfig(join(sandbox.root, 'mcp.json'), { notes: { url: handle.url } });
    const run = (argv: string[]) => sandbox.run([...argv, '--config', join(sandbox.root, 'mcp.json')]);

    // The sign-in: the CLI prints the URL; this "browser" follows it to the loopback redirect.
    let stdout = '';
    let stderr = '';
    let followed: Promise<void> | undefined;
    const code = await runCli(
      ['auth', 'notes', '--no-browser', '--config', join(sandbox.root, 'mcp.json')],
      {
        stdout: { write: (text: string) => (stdout += text) },
        stderr: {
          write: (text: string) => {
            stderr += text;
            const url = /(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)/.exec(text)?.[1];
            if (url && !followed) {
              followed = (async () => {
                const answer = await fetch(url, { redirect: 'manual' });
                await (await fetch(answer.headers.get('location') ?? '')).text();
              })();
            }
          },
        },
        env: sandbox.env,
        cwd: sandbox.cwd,
      },
      commands,
    );
    await followed;
    expect(stderr).toContain('/authorize?');
    expect(code).toBe(0);
    expect(stdout).toContain("Signed in to 'notes' (scope: notes)");
    const token = [...authorization.issued.keys()][0] as string;
    expect(`${stdout}${stderr}`).not.toContain(token);
    const directory = join(sandbox.home, '.switchboard', 'auth');
    const files = readdirSync(directory);
    expect(files).toHaveLength(1);
    expect(statSync(join(directory, files[0] as string)).mode & 0o777).toBe(0o600);

    const list = await run(['auth', '--list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/notes\s+http:\/\/127\.0\.0\.1:\d+\/mcp\s+signed in, token valid/);
    expect(list.stdout).not.toContain(token);

    // Other commands connect with the stored token.
    const tools = await run(['tools', '--json']);
    expect(tools.stdout).toContain('list_notes');

    const revoke = await run(['auth', '--revoke', 'notes']);
    expect(revoke.code).toBe(0);
    expect(revoke.stdout).toContain("Forgot the sign-in of 'notes'");
    expect((await run(['auth', '--list'])).stdout).toContain('No stored sign-ins');
  }, 60_000);

  it('explains what is wrong: unknown server, a stdio server, a revoke without a sign-in', async () => {
    const sandbox = createSandbox();
    cleanups.push(() => sandbox.cleanup());
    sandbox.writeConfig(join(sandbox.root, 'mcp.json'), { local: { command: 'node', args: ['x.js'] } });
    const run = (argv: string[]) => sandbox.run([...argv, '--config', join(sandbox.root, 'mcp.json')]);
    const unknown = await run(['auth', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown server 'nope'");
    const stdio = await run(['auth', 'local']);
    expect(stdio.code).toBe(2);
    expect(stdio.stderr).toContain('only remote (HTTP) servers sign in');
    const revoke = await run(['auth', '--revoke', 'local']);
    expect(revoke.code).toBe(2);
    expect(revoke.stderr).toContain("no sign-in stored for 'local'");
  });
});
