/**
 * `switchboard --version`, `-v` and `-V` print the cli's own version — the one in its package.json —
 * from the bundled bin (whose code runs from dist/ and its chunks) and in-process, also inside an
 * npm script of another project, where npm sets `npm_package_version` to that project's version.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from './run-cli-helper.js';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};
const sandbox = createSandbox();
beforeAll(() => mkdirSync(sandbox.cwd, { recursive: true }));
afterAll(() => sandbox.cleanup());

describe('switchboard --version', () => {
  it.each(['--version', '-v', '-V'])('%s prints the version in the cli’s package.json (bin)', (flag) => {
    const run = spawnSync(process.execPath, [bin, flag], {
      cwd: sandbox.cwd,
      // As `npm run` in a project of version 9.9.9 would set it.
      env: { ...sandbox.env, npm_package_version: '9.9.9', npm_package_name: 'some-project' },
      encoding: 'utf8',
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(`${manifest.version}\n`);
    expect(run.stderr).toBe('');
  });

  it('in-process too, after a leading global flag, and --help names the flag', async () => {
    const run = await sandbox.run(['--no-color', '-V'], { env: { npm_package_version: '9.9.9' } });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${manifest.version}\n`);
    const help = await sandbox.run(['--help']);
    expect(help.stdout).toContain('-V, --version');
  });
});
