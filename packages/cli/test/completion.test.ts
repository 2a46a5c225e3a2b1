/**
 * `switchboard completion`: the bash script is valid bash and completes — sourced into a real bash,
 * its function is called with COMP_WORDS / COMP_CWORD as bash's completion sets them, and COMPREPLY
 * is checked: commands, sub-commands, flags, flag values, files, configured servers and the tools
 * the registry store recorded (the script calls the built `switchboard` on PATH for those). The zsh
 * and fish scripts are checked by their shells' syntax check where those shells are installed.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { everythingStdio, filesystemStdio } from '@switchboard/test-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from './run-cli-helper.js';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const sandbox = createSandbox();
const configFile = join(sandbox.root, 'mcp.json');
const shimDir = join(sandbox.root, 'bin');
const scripts: Record<string, string> = {};

/** Whether `shell` is installed here. */
function installed(shell: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;
}

function env() {
  return { ...sandbox.env, PATH: `${shimDir}:${process.env.PATH ?? ''}` };
}

beforeAll(() => {
  mkdirSync(sandbox.home, { recursive: true });
  mkdirSync(sandbox.cwd, { recursive: true });
  writeFileSync(join(sandbox.cwd, 'servers-backup.json'), '{}');
  sandbox.writeConfig(configFile, {
    everything: everythingStdio(),
    files: filesystemStdio(sandbox.cwd),
  });
  // `switchboard` on PATH, as an installed CLI is.
  mkdirSync(shimDir, { recursive: true });
  writeFileSync(join(shimDir, 'switchboard'), `#!/bin/sh\nexec "${process.execPath}" "${bin}" "$@"\n`);
  chmodSync(join(shimDir, 'switchboard'), 0o755);
  // One `tools` run records the servers' tools in the store, which completion reads.
  const tools = spawnSync(process.execPath, [bin, 'tools', '--config', configFile], {
    cwd: sandbox.cwd,
    env: env(),
    encoding: 'utf8',
  });
  expect(tools.status).toBe(0);
  for (const shell of ['bash', 'zsh', 'fish']) {
    const run = spawnSync(process.execPath, [bin, 'completion', shell], { env: env(), encoding: 'utf8' });
    expect(run.status).toBe(0);
    scripts[shell] = join(sandbox.root, `completion.${shell}`);
    writeFileSync(scripts[shell], run.stdout);
  }
});
afterAll(() => sandbox.cleanup());

/** What the bash script offers for `words`, the last being the word under the cursor. */
function complete(words: string[]): string[] {
  const quotedWords = ['switchboard', ...words].map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(' ');
  const run = spawnSync(
    'bash',
    [
      '-c',
      `source '${scripts.bash}'
COMP_WORDS=(${quotedWords}); COMP_CWORD=${words.length}
_switchboard
printf '%s\\n' "\${COMPREPLY[@]}"`,
    ],
    { cwd: sandbox.cwd, env: env(), encoding: 'utf8' },
  );
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  return run.stdout.split('\n').filter(Boolean);
}

describe('switchboard completion bash', () => {
  it('is valid bash (bash -n)', () => {
    const check = spawnSync('bash', ['-n', scripts.bash as string], { encoding: 'utf8' });
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
  });

  it('registers its function for the switchboard command', () => {
    const run = spawnSync('bash', ['-c', `source '${scripts.bash}'; complete -p switchboard`], {
      encoding: 'utf8',
    });
    expect(run.stdout.trim()).toBe('complete -o default -F _switchboard switchboard');
  });

  it('completes the commands, from the command table', () => {
    const all = complete(['']);
    for (const name of ['servers', 'tools', 'call', 'select', 'serve', 'doctor', 'completion', 'help']) {
      expect(all).toContain(name);
    }
    expect(complete(['se']).sort()).toEqual(['select', 'serve', 'servers']);
  });

  it('completes sub-commands, flags and a flag’s values', () => {
    expect(complete(['servers', ''])).toEqual([
      'list',
      'add',
      'remove',
      'import',
      'export',
      'install-gateway',
    ]);
    expect(complete(['servers', 'export', '--to', 'c']).sort()).toEqual([
      'claude-code',
      'claude-desktop',
      'cline',
      'codex',
      'continue',
      'cursor',
    ]);
    expect(complete(['tools', '--s']).sort()).toEqual(['--sort', '--store']);
    expect(complete(['tools', '--sort', ''])).toEqual(['name', 'usage']);
    expect(complete(['call', '--y'])).toEqual(['--yes']);
    expect(complete(['--qu'])).toEqual(['--quiet']);
    expect(complete(['completion', ''])).toEqual(['bash', 'zsh', 'fish']);
  });

  it('completes files where a flag takes a file', () => {
    expect(complete(['tools', '--config', 'servers-'])).toEqual(['servers-backup.json']);
  });

  it('completes the configured servers, with the --config on the line', () => {
    expect(complete(['--config', configFile, 'servers', 'remove', '']).sort()).toEqual([
      'everything',
      'files',
    ]);
    // Flags and their values before and after the command are skipped over.
    expect(complete(['-q', 'tools', '--sort', 'usage', '--config', configFile, 'e'])).toEqual(['everything']);
  });

  it('completes tool names from the registry store, without starting a server', () => {
    const tools = complete(['call', '--config', configFile, 'mcp__everything__e']);
    expect(tools).toEqual(['mcp__everything__echo']);
    expect(complete(['call', '--config', configFile, 'mcp__files__list_d'])).toContain(
      'mcp__files__list_directory',
    );
  });

  it('stops at a bare -- (a server’s own command line follows)', () => {
    expect(complete(['servers', 'add', 'x', '--', ''])).toEqual([]);
  });
});

describe('switchboard completion --list', () => {
  it('prints configured servers and stored tools one a line, and nothing for a home without a store', () => {
    const servers = spawnSync(
      process.execPath,
      [bin, 'completion', '--list', 'servers', '--config', configFile],
      {
        env: env(),
        encoding: 'utf8',
      },
    );
    expect(servers.stdout).toBe('everything\nfiles\n');
    const emptyHome = join(sandbox.root, 'empty-home');
    mkdirSync(emptyHome);
    const tools = spawnSync(
      process.execPath,
      [bin, 'completion', '--list', 'tools', '--config', configFile],
      {
        env: { ...env(), HOME: emptyHome, SWITCHBOARD_HOME: emptyHome },
        encoding: 'utf8',
      },
    );
    expect(tools.status).toBe(0);
    expect(tools.stdout).toBe('');
  });

  it('refuses an unknown shell with the shells it has, exit 2', () => {
    const run = spawnSync(process.execPath, [bin, 'completion', 'bsh'], { env: env(), encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("Did you mean 'bash'");
  });
});

describe('the zsh and fish scripts', () => {
  const zsh = installed('zsh');
  const fish = installed('fish');

  it.skipIf(!zsh)(
    `zsh -n accepts the zsh script${zsh ? '' : ' (skipped: zsh is not installed here)'}`,
    () => {
      const check = spawnSync('zsh', ['-n', scripts.zsh as string], { encoding: 'utf8' });
      expect(check.stderr).toBe('');
      expect(check.status).toBe(0);
    },
  );

  it.skipIf(!fish)(
    `fish --no-execute accepts the fish script${fish ? '' : ' (skipped: fish is not installed here)'}`,
    () => {
      const check = spawnSync('fish', ['--no-execute', scripts.fish as string], { encoding: 'utf8' });
      expect(check.stderr).toBe('');
      expect(check.status).toBe(0);
    },
  );

  it('name every command in both', () => {
    const run = (shell: string) =>
      spawnSync(process.execPath, [bin, 'completion', shell], { env: env(), encoding: 'utf8' }).stdout;
    for (const name of ['servers', 'tools', 'call', 'select', 'completion']) {
      expect(run('zsh')).toMatch(new RegExp(`'${name}:`));
      expect(run('fish')).toContain(`-n __fish_use_subcommand -a ${name} -d`);
    }
  });
});
